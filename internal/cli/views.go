package cli

import (
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/render"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// stepFilter keeps device ops launched inside profiler steps lo..hi.
func stepFilter(t *trace.Trace, lo, hi int64) func(i int) bool {
	steps := t.StepWindows()
	return func(i int) bool {
		k := trace.StepAt(steps, t.LaunchTime(i))
		return k >= 0 && steps[k].N >= lo && steps[k].N <= hi
	}
}

func runKernelView(e *env, o *tableOptions, t *trace.Trace) error {
	var keep func(int) bool
	if o.stepsEnabled {
		keep = stepFilter(t, o.stepLo, o.stepHi)
	}
	rows, total := table.KernelView(t, keep)
	if len(rows) == 0 {
		note(e.stderr, "the trace has no GPU kernels, memcpys or memsets")
	}
	for _, n := range table.UnlaunchedNotes(t) {
		note(e.stderr, n)
	}
	filtered := rows[:0]
	for _, r := range rows {
		if (o.matchRe == nil || o.matchRe.MatchString(r.Name)) && (o.excludeRe == nil || !o.excludeRe.MatchString(r.Name)) {
			filtered = append(filtered, r)
		}
	}
	if len(filtered) == 0 && len(rows) > 0 {
		names := make([]string, len(rows))
		for i := range rows {
			names[i] = rows[i].Name
		}
		if err := checkRowFilter(o, "kernel", 0, names); err != nil {
			return err
		}
	}
	raw := make([]string, len(filtered)) // the names as written, before demangling
	for i := range filtered {
		raw[i] = filtered[i].Name
	}
	if e.demangle && (o.format == "text" || o.format == "md") {
		for i := range filtered {
			filtered[i].Name = names.Demangle(filtered[i].Name)
		}
	}
	return render.Kernels(e.stdout, o.format, o.path, filtered, total, o.limit, o.nameWidth*2, o.stepRange(), kernelHists(e, o, t, keep, filtered, raw)...)
}

func runStepView(e *env, o *tableOptions, t *trace.Trace) error {
	rows := table.StepView(t)
	if len(rows) == 0 {
		note(e.stderr, "the trace has no ProfilerStep#N annotations (no profiler schedule, or prof.step() was not called)")
	}
	if o.stepsEnabled {
		kept := rows[:0]
		for _, r := range rows {
			if r.N >= o.stepLo && r.N <= o.stepHi {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	return render.Steps(e.stdout, o.format, o.path, t.TraceStart, rows, o.stepRange())
}

// stepRange is the --steps selection for JSON, nil without --steps.
func (o *tableOptions) stepRange() *table.StepRange {
	if !o.stepsEnabled {
		return nil
	}
	return &table.StepRange{First: o.stepLo, Last: o.stepHi}
}
