package report

import (
	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// TopGaps is how many of the largest gaps per device the page shades
// (gaps --top).
const TopGaps = 200

// NewInputs computes the models the page shows for the trace read from
// file. Notes holds, in order, what the commands would say on stderr
// (the caller says it too). The models only read the trace (its lazy
// parts, the links and the steps, are built once under a sync.Once):
// the table's models run on another goroutine while this one computes
// the summary, the gaps and the memory curves; the notes keep the order
// of a sequential run.
func NewInputs(t *trace.Trace, file string) *Inputs { return NewInputsThen(t, file, nil) }

// NewInputsThen is NewInputs that also runs then(in) on a goroutine of its
// own as soon as in.Info and in.Gaps are set, beside the models still
// under way, and returns when it has returned too: the page's timeline,
// which needs the span and the steps and nothing else of the models, is
// laid out there (the models' two goroutines end 10-80 ms apart, and the
// timeline took 59-77 ms after both on the 200 MB bench shapes).
func NewInputsThen(t *trace.Trace, file string, then func(in *Inputs)) *Inputs {
	in := &Inputs{File: file}
	var opsErr error
	var unlaunched []string
	wait := safe.Go(func() { // a panic there is raised again by wait
		sort := "self_cpu_time_total"
		in.Kernels, in.KernelTotalNs = table.KernelView(t, nil)
		if len(in.Kernels) > 0 {
			sort = "self_cuda_time_total"
		}
		res, err := table.Compute(t, table.Options{Torch: table.RecordingOf(t).Default(), SortBy: sort, OneGoroutine: true})
		if err != nil {
			opsErr = err
		} else {
			in.Ops = res
		}
		unlaunched = table.UnlaunchedNotes(t)
		in.Categories = categories.Build(t, nil)
		in.Modules = modules.Build(t)
		in.KernelDurs = table.KernelDurations(t, nil)
		in.StepDurs = table.StepKernelDurations(t)
	})
	in.Info = info.Summarize(t)
	for _, w := range t.Warnings {
		if !info.IsThreadRename(w) {
			in.Warnings = append(in.Warnings, w.Msg)
		}
	}
	in.Gaps = gaps.Analyze(t, gaps.Options{Device: -1, Stream: -1, Top: TopGaps})
	waitThen := func() {}
	if then != nil {
		waitThen = safe.Go(func() { then(in) })
	}
	var memNotes []string
	in.Memory, memNotes = memorySeries(t)
	wait()
	waitThen()
	addNote := func(n string) { in.Notes = append(in.Notes, n) }
	if in.Gaps.NoGPU {
		addNote("the trace has no GPU lane (no kernels, memcpys or memsets): only the CPU lane is drawn")
	}
	if in.Gaps.Verdict.Class == gaps.ClassProfiler {
		addNote("warning: the profiler's own work holds most of the idle time: this trace is distorted")
	}
	if len(t.StepWindows()) == 0 {
		addNote("the trace has no ProfilerStep#N annotations (no profiler schedule, or prof.step() was not called): no step chart")
	}
	if opsErr != nil {
		addNote("no op table: " + opsErr.Error())
	}
	for _, n := range unlaunched {
		addNote(n)
	}
	for _, n := range memNotes {
		addNote("memory: " + n)
	}
	return in
}

// memorySeries is each device's allocated and reserved curve from the
// memory model (tracetab memory): every point of its series, or for a long
// one its resampled curve (the model's columns: the lowest and highest
// level in each), and the peak with its op.
func memorySeries(t *trace.Trace) ([]MemorySeries, []string) {
	if len(t.Mem) == 0 {
		return nil, nil
	}
	m := memory.Build(t, memory.Options{})
	var out []MemorySeries
	for _, d := range m.Devices {
		if len(d.Series) == 0 {
			continue
		}
		s := MemorySeries{Device: d.Name, HasReserved: d.Reserved, Relative: !d.Totals, StartBytes: d.Start.Allocated,
			PeakNs: d.Peak.Ns, PeakBytes: d.Peak.Bytes, PeakOp: d.Peak.Op}
		if len(d.Series) <= MaxMemoryPoints {
			for _, p := range d.Series {
				s.TimesNs = append(s.TimesNs, p.Ns)
				s.AllocatedBytes = append(s.AllocatedBytes, p.Allocated)
				s.ReservedBytes = append(s.ReservedBytes, p.Reserved)
			}
		} else {
			for _, c := range d.Curve(m.WindowStartNs, m.WindowEndNs, MemoryColumns) {
				s.Columns = append(s.Columns, MemoryColumn{StartNs: c.StartNs, EndNs: c.EndNs, MinAllocated: c.MinAllocated,
					MaxAllocated: c.MaxAllocated, MaxReserved: c.MaxReserved})
			}
		}
		out = append(out, s)
	}
	return out, m.Notes
}
