package cli

import (
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/render/tableview"
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
		what := "no GPU kernels, memcpys or memsets"
		if o.stepsEnabled {
			what += " launched in the selected steps"
		}
		return usageErrorf("%s has %s, so --by kernel has nothing to show (was ProfilerActivity.CUDA on?)", o.path, what)
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
	lay := tableview.KernelLayout{Limit: o.limit, Width: e.textWidth(o.compact.width), Eff: kernelEff(e, o, t), LongNames: e.longNames}
	if o.nameWidthSet {
		lay.NameWidth = o.nameWidth // else the names fill the width
	}
	return tableview.Kernels(e.stdout, o.format, o.path, filtered, total, lay, o.stepRange(), kernelHists(e, o, t, keep, filtered, raw)...)
}

func runStepView(e *env, o *tableOptions, t *trace.Trace) error {
	if len(t.StepWindows()) == 0 {
		return usageErrorf("%s has no ProfilerStep#N annotations, so --by step has nothing to show (no profiler schedule, or prof.step() was not called)", o.path)
	}
	rows := table.StepView(t)
	if o.stepsEnabled {
		rows = t.StepsRange(o.stepLo, o.stepHi) // checkSteps made sure some are there
	}
	return tableview.Steps(e.stdout, o.format, o.path, t.TraceStart, rows, o.stepRange(), e.textWidth(o.compact.width), o.all)
}

// stepRange is the --steps selection for JSON, nil without --steps.
func (o *tableOptions) stepRange() *table.StepRange {
	if !o.stepsEnabled {
		return nil
	}
	return &table.StepRange{First: o.stepLo, Last: o.stepHi}
}
