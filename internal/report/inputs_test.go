package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// TestNewInputs: a CPU-only trace without steps, with five [memory]
// records on the CPU: the notes say there is no GPU lane and no step
// (in that order), and the memory series holds every record, its levels
// as written and its peak the highest of them.
func TestNewInputs(t *testing.T) {
	levels := []int64{64, 192, 128, 448, 64}
	evs := []string{`{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":0,"dur":100,"args":{"External id":1}}`}
	prev := int64(0)
	for k, l := range levels {
		evs = append(evs, fmt.Sprintf(`{"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":%d,`+
			`"args":{"Addr":%d,"Bytes":%d,"Total Allocated":%d,"Total Reserved":4096,"Device Type":0,"Device Id":-1}}`, 10+10*k, 5000+k, l-prev, l))
		prev = l
	}
	tr, err := parse.Read(strings.NewReader(`{"traceEvents":[`+strings.Join(evs, ",")+`]}`), "in.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := NewInputs(tr, "in.json")
	if in.File != "in.json" || in.Gaps == nil || in.Info == nil {
		t.Fatalf("inputs %+v", in)
	}
	gpu := slicesIndex(in.Notes, "no GPU lane")
	steps := slicesIndex(in.Notes, "no ProfilerStep#N")
	if gpu < 0 || steps < 0 || gpu > steps {
		t.Errorf("notes %q: want the no-GPU note, then the no-steps one", in.Notes)
	}
	if len(in.Memory) != 1 {
		t.Fatalf("memory %+v, want one device", in.Memory)
	}
	m := in.Memory[0]
	if len(m.AllocatedBytes) != len(levels) || len(m.TimesNs) != len(levels) || len(m.Columns) != 0 {
		t.Fatalf("memory series %+v, want the %d records as points", m, len(levels))
	}
	for k, l := range levels {
		if m.AllocatedBytes[k] != l || m.TimesNs[k]-m.TimesNs[0] != int64(10_000*k) {
			t.Errorf("point %d: %d bytes at %d ns, want %d bytes at +%d ns", k, m.AllocatedBytes[k], m.TimesNs[k], l, 10_000*k)
		}
	}
	if m.PeakBytes != 448 || m.PeakNs-m.TimesNs[0] != 30_000 || !m.HasReserved {
		t.Errorf("peak %d bytes at %d ns (reserved %v), want 448 at +30000", m.PeakBytes, m.PeakNs, m.HasReserved)
	}
}

func slicesIndex(notes []string, part string) int {
	for i, n := range notes {
		if strings.Contains(n, part) {
			return i
		}
	}
	return -1
}
