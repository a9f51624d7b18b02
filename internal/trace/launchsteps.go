package trace

// LaunchSteps tells the step a device op was launched in without building
// the Links: the correlation id of each launch call mapped to the step its
// call ran in (one flat array over the ids, no per-track sort).
type LaunchSteps struct {
	t     *Trace
	steps []Step
	corr  *idIndex // correlation id -> step index + 1 (0: outside the steps)
}

// LaunchSteps maps the launch calls of t to steps (StepWindows order).
func (t *Trace) LaunchSteps(steps []Step) *LaunchSteps {
	var r idRange
	for _, c := range t.Events.Chunks() {
		for k := range c {
			if e := &c[k]; e.Kind.IsLaunch() && e.Has(FlagCorr) {
				r.see(t.CorrOf(e))
			}
		}
	}
	x := newIDIndex(r.n, r.lo, r.hi)
	if len(steps) > 0 {
		for _, c := range t.Events.Chunks() {
			for k := range c {
				if e := &c[k]; e.Kind.IsLaunch() && e.Has(FlagCorr) {
					x.add(t.CorrOf(e), int32(StepAt(steps, e.Start)+1))
				}
			}
		}
	}
	return &LaunchSteps{t: t, steps: steps, corr: x}
}

// Of returns the index of the step device op e was launched in: the step
// of its launch call (by correlation id), or, when the trace has no launch
// call for it, the step holding its own start; -1 outside every step.
func (l *LaunchSteps) Of(e *Event) int {
	if len(l.steps) == 0 {
		return -1
	}
	if e.Has(FlagCorr) {
		if k, ok := l.corr.get(l.t.CorrOf(e)); ok {
			return int(k) - 1
		}
	}
	return StepAt(l.steps, e.Start)
}
