package gaps

import "github.com/tracetab/tracetab/internal/trace"

const noneNs = int64(1<<63 - 1)

// stepWork is the device work each step launched: the span of the device
// ops whose launch call lies wholly inside the step, and how many, with
// the ends of the ops matched to no step.
type stepWork struct {
	dmin, dmax    []int64 // noneNs, -noneNs for a step that launched nothing
	matched       []int
	unmatchedEnds []int64
}

// stepDeviceWork matches each device op to the step of its launch call
// (callSteps). Device work lies on the device tracks: only those are
// walked.
func stepDeviceWork(t *trace.Trace, l *trace.Links, win []trace.Step) *stepWork {
	n := len(win)
	cs := newCallSteps(t, win)
	w := &stepWork{dmin: make([]int64, n), dmax: make([]int64, n), matched: make([]int, n)}
	for k := range w.dmin {
		w.dmin[k], w.dmax[k] = noneNs, -noneNs
	}
	for k := range t.Tracks {
		if t.Tracks[k].Kind != trace.TrackDevice {
			continue
		}
		for _, i32 := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i32))
			if !e.Kind.IsDeviceWork() {
				continue
			}
			if k := cs.of(l.Launch[i32]); k >= 0 {
				w.dmin[k], w.dmax[k] = min(w.dmin[k], e.Start), max(w.dmax[k], e.End())
				w.matched[k]++
			} else {
				w.unmatchedEnds = append(w.unmatchedEnds, e.End())
			}
		}
	}
	return w
}

// extendedSteps is the steps as the plugin's Overview reads them, and how
// many of them it keeps. When some step launched device work, a step runs
// from the later of its CPU start and the end of the step before it (the
// first step: of the unmatched device work that ended before the first
// step's device work) to the later of its CPU end and the end of the
// device work it launched; otherwise the steps are their CPU windows.
func (w *stepWork) extendedSteps(win []trace.Step) ([][2]int64, int) {
	steps := make([][2]int64, len(win))
	for k, s := range win {
		steps[k] = [2]int64{s.Start, s.End}
	}
	anyMatched := false
	for k := range w.matched {
		anyMatched = anyMatched || w.matched[k] > 0
	}
	if !anyMatched {
		return steps, len(win)
	}
	prevEnd := win[0].Start
	if w.dmin[0] != noneNs {
		for _, d := range w.unmatchedEnds {
			if d < w.dmin[0] {
				prevEnd = max(prevEnd, d)
			}
		}
	}
	for k := range steps {
		s := max(prevEnd, steps[k][0])
		e := steps[k][1]
		if w.dmin[k] == noneNs {
			e = max(e, s)
		} else {
			e = max(e, w.dmax[k], s)
		}
		steps[k] = [2]int64{s, e}
		prevEnd = e
	}
	return steps, keptSteps(w.matched)
}

// keptSteps is how many steps the breakdown keeps: trailing steps that
// launched no device op are left out, and so is the last one left when it
// launched under 80% of the ops of the step before it (the profiler may
// have missed their kernels). One step is always kept whole.
func keptSteps(matched []int) int {
	n := len(matched)
	if n <= 1 {
		return n
	}
	k := n - 1
	for k >= 0 && matched[k] == 0 {
		k--
	}
	if k < 0 {
		return n
	}
	if k > 0 && float64(matched[k-1])*0.8 > float64(matched[k]) {
		return k
	}
	return k + 1
}

// callSteps finds the step of a launch call: the first step that ends
// after the call starts (the steps come by start; a cursor over calls in
// start order finds the same one), if the call lies wholly inside it
// (callStep). Each device op is looked up alone: no list of calls is kept.
type callSteps struct {
	t      *trace.Trace
	win    []trace.Step
	endMax []int64 // the latest step end so far: ascending
	// Only for a zero-length call at a step's end: the first longer call
	// starting there (by event index), found once per trace.
	firstLonger map[int64]int32
}

func newCallSteps(t *trace.Trace, win []trace.Step) *callSteps {
	endMax := make([]int64, len(win))
	for k, w := range win {
		endMax[k] = w.End
		if k > 0 {
			endMax[k] = max(endMax[k], endMax[k-1])
		}
	}
	return &callSteps{t: t, win: win, endMax: endMax}
}

// of is the step of launch call r, -1 (also when r is not a launch call).
func (c *callSteps) of(r int32) int {
	if r < 0 {
		return -1
	}
	e := c.t.Ev(int(r))
	if !e.Kind.IsLaunch() {
		return -1
	}
	return callStep(c.win, c.endMax, e.Start, e.End(), func(s int64) bool { return c.passedAt(s, r) })
}

// passedAt reports whether a launch call longer than zero, before r by
// event index, starts at s.
func (c *callSteps) passedAt(s int64, r int32) bool {
	if c.firstLonger == nil {
		c.firstLonger = map[int64]int32{}
		for _, w := range c.win {
			c.firstLonger[w.End] = -1
		}
		for i := 0; i < c.t.NumEvents(); i++ {
			e := c.t.Ev(i)
			if e.Kind.IsLaunch() && e.Dur > 0 {
				if f, ok := c.firstLonger[e.Start]; ok && f < 0 {
					c.firstLonger[e.Start] = int32(i)
				}
			}
		}
	}
	f, ok := c.firstLonger[s]
	return ok && f >= 0 && f < r
}
