package report

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
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

// TestNewInputsSideBySide: NewInputs runs the table's models on another
// goroutine; on a generated trace of the deep export shape (kernels,
// steps, modules, memory records) every model it gives equals the one
// computed alone on a trace read afresh, one after another (run with
// -race, it also checks that the models only read the trace).
func TestNewInputsSideBySide(t *testing.T) {
	var buf bytes.Buffer
	cfg := gen.Config{Steps: 8, Layers: 2, Modules: true, Kineto: gen.ExportStyle()}
	if _, err := gen.Write(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	read := func() *trace.Trace {
		tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "gen.json", parse.Options{DimsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	in := NewInputs(read(), "gen.json")
	tr := read()
	sum := info.Summarize(tr)
	g := gaps.Analyze(tr, gaps.Options{Device: -1, Stream: -1, Top: TopGaps})
	kernels, kernelNs := table.KernelView(tr, nil)
	ops, err := table.Compute(tr, table.Options{Torch: table.RecordingOf(tr).Default(), SortBy: "self_cuda_time_total"})
	if err != nil {
		t.Fatal(err)
	}
	mem, _ := memorySeries(tr)
	if len(kernels) == 0 || len(mem) == 0 || len(ops.Rows) == 0 || len(tr.StepWindows()) == 0 {
		t.Fatalf("the generated trace gives %d kernels, %d memory series, %d op rows, %d steps: too little to compare",
			len(kernels), len(mem), len(ops.Rows), len(tr.StepWindows()))
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"info", in.Info, sum},
		{"gaps", in.Gaps, g},
		{"kernels", in.Kernels, kernels},
		{"kernel total", in.KernelTotalNs, kernelNs},
		{"ops", in.Ops.Rows, ops.Rows},
		{"categories", in.Categories, categories.Build(tr, nil)},
		{"modules", in.Modules, modules.Build(tr)},
		{"kernel durations", in.KernelDurs, table.KernelDurations(tr, nil)},
		{"step durations", in.StepDurs, table.StepKernelDurations(tr)},
		{"memory", in.Memory, mem},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s differs from the model computed alone", c.name)
		}
	}
}
