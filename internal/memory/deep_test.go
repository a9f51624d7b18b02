package memory

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// TestDeepStacks: records under a stack of 20000 Python frames inside one
// op, and records after a chain of 20000 nested events that all ended,
// are attributed (the op; no op) without walking the stack once per
// record.
func TestDeepStacks(t *testing.T) {
	const depth, recs = 20_000, 20_000
	var b strings.Builder
	b.WriteString(`{"traceEvents": [`)
	b.WriteString(`{"ph": "X", "cat": "cpu_op", "name": "aten::deep", "pid": 1, "tid": 1, "ts": 0, "dur": 1000000}`)
	for i := 1; i <= depth; i++ { // frames [i, 500000-i): nested, innermost last
		fmt.Fprintf(&b, `,{"ph": "X", "cat": "python_function", "name": "f%d", "pid": 1, "tid": 1, "ts": %d, "dur": %d}`, i, i, 500000-2*i)
	}
	for i := 1; i <= depth; i++ { // a second thread: a chain [i, 100000-i) that ends before its records
		fmt.Fprintf(&b, `,{"ph": "X", "cat": "user_annotation", "name": "a%d", "pid": 1, "tid": 2, "ts": %d, "dur": %d}`, i, i, 100000-2*i)
	}
	for i := 0; i < recs; i++ {
		fmt.Fprintf(&b, `,{"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": %d, "args": {"Addr": %d, "Bytes": 64, "Total Allocated": %d, "Total Reserved": 0, "Device Type": 0, "Device Id": -1}}`,
			depth+1+i%100, i+1, 64*(i+1))
		fmt.Fprintf(&b, `,{"ph": "i", "name": "[memory]", "pid": 1, "tid": 2, "ts": %d, "args": {"Addr": %d, "Bytes": 64, "Total Allocated": %d, "Total Reserved": 0, "Device Type": 1, "Device Id": 0}}`,
			200000+i, i+1, 64*(i+1))
	}
	b.WriteString("]}")
	tr, err := parse.Read(bytes.NewReader([]byte(b.String())), "deep.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := Build(tr, Options{})
	if len(m.Devices) != 2 {
		t.Fatalf("%d devices", len(m.Devices))
	}
	cpu, gpu := m.Devices[0], m.Devices[1]
	if len(cpu.Lifetimes) != 1 || cpu.Lifetimes[0].Op != "aten::deep" || cpu.Lifetimes[0].Count != recs {
		t.Errorf("cpu lifetimes %+v", cpu.Lifetimes)
	}
	if cpu.Peak.Op != "aten::deep" || !strings.HasPrefix(cpu.Peak.Python, "f") {
		t.Errorf("cpu peak in %q, Python %q", cpu.Peak.Op, cpu.Peak.Python)
	}
	if len(gpu.Lifetimes) != 1 || gpu.Lifetimes[0].Op != NoOp || gpu.Peak.Annotation != "" {
		t.Errorf("gpu lifetimes %+v, annotation %q", gpu.Lifetimes, gpu.Peak.Annotation)
	}
}

// TestInconsistentRecords: a Total Allocated that is not the previous one
// plus Bytes (a lost record) is counted and noted, the levels taken as
// written; a free of another size than its allocation is counted and the
// allocation's size is kept.
func TestInconsistentRecords(t *testing.T) {
	rec := func(ts, addr, bytes, total int) string {
		return fmt.Sprintf(`{"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": %d, "args": {"Addr": %d, "Bytes": %d, "Total Allocated": %d, "Total Reserved": 0, "Device Type": 1, "Device Id": 0}}`, ts, addr, bytes, total)
	}
	doc := `{"traceEvents": [` + strings.Join([]string{
		`{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 100}`,
		rec(1, 1, 100, 100), rec(2, 2, 50, 400), rec(3, 1, -60, 340), // 400: a record of 250 bytes was lost; the free says 60
	}, ",") + `]}`
	tr, err := parse.Read(strings.NewReader(doc), "x.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := Build(tr, Options{})
	d := m.Devices[0]
	if d.Inconsistent != 1 || d.SizeMismatches != 1 || d.Peak.Bytes != 400 || d.End.Allocated != 340 {
		t.Errorf("inconsistent %d, size mismatches %d, peak %d, end %d", d.Inconsistent, d.SizeMismatches, d.Peak.Bytes, d.End.Allocated)
	}
	if d.Lifetimes[0].Bytes != 150 || d.Alive.InTraceBytes != 150 || d.Alive.BeforeTraceBytes != 250 {
		t.Errorf("lifetimes %+v, alive %+v", d.Lifetimes, d.Alive)
	}
	if !strings.Contains(strings.Join(m.Notes, " "), "not the previous record's plus Bytes") {
		t.Errorf("notes %q", m.Notes)
	}
}
