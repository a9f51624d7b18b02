package gaps

import (
	"cmp"
	"fmt"

	"github.com/tracetab/tracetab/internal/trace"
)

// deadWindows lists the longest stretches on CPU threads where nothing was
// recorded: inside an op before its first child, or between top-level
// ops. Only threads in want count (nil: every CPU thread); only windows
// that start inside span (nil: anywhere) and last at least minLen.
func deadWindows(t *trace.Trace, l *trace.Links, steps []trace.Step, want []bool, span ivs, minLen int64, top int) []DeadWindow {
	type cand struct {
		len, start int64
		inside     int32 // the op holding the window, or -1
		after      int32 // the top-level op before the window, or -1
		track      int32
	}
	best := &topN[cand]{n: top, cmp: func(a, b cand) int {
		if a.len != b.len {
			return cmp.Compare(b.len, a.len)
		}
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		return cmp.Compare(a.track, b.track)
	}}
	ok := func(start, n int64) bool {
		return n > 0 && n >= minLen && (span == nil || span.contains(start))
	}
	seen := make([]bool, t.NumEvents())
	for k, tr := range t.Tracks {
		if tr.Kind != trace.TrackCPU || (want != nil && !want[k]) {
			continue
		}
		var prevTop int32 = -1
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if e.Kind != trace.KindCPUOp && e.Kind != trace.KindAnnotation && !e.Kind.IsLaunch() {
				continue
			}
			if p := l.Parent[i]; p >= 0 {
				if !seen[p] {
					seen[p] = true
					pe := t.Ev(int(p))
					if d := e.Start - pe.Start; ok(pe.Start, d) && (pe.Kind == trace.KindCPUOp || pe.Kind == trace.KindAnnotation) {
						best.add(cand{d, pe.Start, p, -1, int32(k)})
					}
				}
				continue
			}
			if prevTop >= 0 {
				pe := t.Ev(int(prevTop))
				if d := e.Start - pe.End(); ok(pe.End(), d) {
					best.add(cand{d, pe.End(), -1, prevTop, int32(k)})
				}
			}
			if prevTop < 0 || e.End() > t.Ev(int(prevTop)).End() {
				prevTop = i
			}
		}
	}
	cands := best.result()
	out := make([]DeadWindow, 0, len(cands))
	for _, c := range cands {
		tr := &t.Tracks[c.track]
		name := tr.Name
		if name == "" {
			name = "tid " + idString(t, tr.Tid)
		}
		d := DeadWindow{Thread: name, StartNs: c.start - t.TraceStart, LenNs: c.len, Step: stepOf(steps, c.start)}
		if c.inside >= 0 {
			d.Inside = t.NameOf(int(c.inside))
		} else {
			d.After = t.NameOf(int(c.after))
		}
		out = append(out, d)
	}
	return out
}

// activeThreads marks the CPU threads that launched device work or carry
// the profiler-step annotations.
func activeThreads(t *trace.Trace, l *trace.Links) (launchers, withSteps []bool) {
	launchers = make([]bool, len(t.Tracks))
	withSteps = make([]bool, len(t.Tracks))
	// A launcher is the thread of a call some device op links to (what
	// Links.Launched counts; read from Launch, so a command may drop that).
	for i, r := range l.Launch {
		if r < 0 {
			continue
		}
		if e := t.Ev(i); e.Kind.IsDevice() && e.Kind != trace.KindGPUAnnotation {
			launchers[t.Ev(int(r)).Track] = true
		}
	}
	isStep := make([]int8, len(t.Strings))
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if e.Kind != trace.KindAnnotation && e.Kind != trace.KindCPUOp {
			continue
		}
		if isStep[e.Name] == 0 {
			isStep[e.Name] = 1
			if _, ok := trace.StepNumber(t.Str(e.Name)); ok {
				isStep[e.Name] = 2
			}
		}
		if isStep[e.Name] == 2 {
			withSteps[e.Track] = true
		}
	}
	return launchers, withSteps
}

func stepOf(steps []trace.Step, ts int64) int64 {
	if k := trace.StepAt(steps, ts); k >= 0 {
		return steps[k].N
	}
	return -1
}

func idString(t *trace.Trace, id trace.ID) string {
	if id.IsStr {
		return t.Str(id.Str)
	}
	return fmt.Sprint(id.Int)
}
