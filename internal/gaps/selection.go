package gaps

import (
	"fmt"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// selectedSteps is the step windows --steps selects (all without it).
func selectedSteps(all []trace.Step, o Options) []trace.Step {
	steps := slices.Clone(all)
	if o.HasStep {
		steps = slices.DeleteFunc(steps, func(s trace.Step) bool { return s.N < o.StepLo || s.N > o.StepHi })
	}
	return steps
}

// keepOps is the device op filter: the op's device and stream, a launch
// call in the trace with LinkedOnly, and with --steps a launch call (the
// op's own start without one) inside a selected step; nil when it keeps
// every op.
func keepOps(t *trace.Trace, l *trace.Links, o Options, steps []trace.Step) func(i int, e *trace.Event) bool {
	if o.Device < 0 && o.Stream < 0 && !o.LinkedOnly && !o.HasStep {
		return nil // every op: no call per op
	}
	inSteps := func(i int) bool { return !o.HasStep || trace.StepAt(steps, t.LaunchTime(i)) >= 0 }
	return func(i int, e *trace.Event) bool {
		tr := &t.Tracks[e.Track]
		return (o.Device < 0 || tr.Device == o.Device) && (o.Stream < 0 || tr.Stream == o.Stream) &&
			(!o.LinkedOnly || l.Launch[i] >= 0) && inSteps(i)
	}
}

// narrowedTo says which device and stream the report is narrowed to, "".
func narrowedTo(o Options) string {
	switch {
	case o.Device >= 0 && o.Stream >= 0:
		return fmt.Sprintf("device %d, stream %d", o.Device, o.Stream)
	case o.Device >= 0:
		return fmt.Sprintf("device %d", o.Device)
	case o.Stream >= 0:
		return fmt.Sprintf("stream %d", o.Stream)
	}
	return ""
}

// deadWindowThreads is the threads whose dead windows are listed: those
// that launch GPU work or carry the step annotations; nil (every thread)
// with AllThreads.
func deadWindowThreads(o Options, launchers, withSteps []bool) []bool {
	if o.AllThreads {
		return nil
	}
	want := make([]bool, len(launchers))
	for k := range want {
		want[k] = launchers[k] || withSteps[k]
	}
	return want
}

// cpuStepWindows is the selected steps' CPU windows, merged, that the
// CPU-side sections obey under --steps; nil (no bound) without it.
func cpuStepWindows(o Options, steps []trace.Step) ivs {
	if !o.HasStep {
		return nil
	}
	w := make([][2]int64, 0, len(steps))
	for _, s := range steps {
		w = append(w, [2]int64{s.Start, s.End})
	}
	if m := mergeIvs(w); m != nil {
		return m
	}
	return ivs{}
}
