package table

import "github.com/tracetab/tracetab/internal/trace"

// KernelDurations lists, per device op name (as KernelView groups them:
// kernels, memcpys and memsets; keep, when set, selects which count), the
// durations in ns in file order: what a per-kernel histogram bins.
func KernelDurations(t *trace.Trace, keep func(i int) bool) map[string][]int64 {
	byID := map[trace.StrID][]int64{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		byID[e.Name] = append(byID[e.Name], e.Dur)
	}
	out := make(map[string][]int64, len(byID))
	for id, d := range byID {
		out[t.Str(id)] = d
	}
	return out
}

// StepKernelDurations lists, per profiler step number, the durations of
// the device ops (kernels, memcpys and memsets) launched inside it, the
// step each belongs to as the step view counts it (the step holding its
// launch call's start).
func StepKernelDurations(t *trace.Trace) map[int64][]int64 {
	steps := t.StepWindows()
	out := map[int64][]int64{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		if k := trace.StepAt(steps, t.LaunchTime(i)); k >= 0 {
			out[steps[k].N] = append(out[steps[k].N], e.Dur)
		}
	}
	return out
}
