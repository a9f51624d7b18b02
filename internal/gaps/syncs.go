package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// blockingCalls lists the blocking runtime/driver calls that start inside
// span (nil: anywhere), by start.
func blockingCalls(t *trace.Trace, win ivs) []span {
	isSync := make([]int8, len(t.Strings)) // 0 unknown, 1 no, 2 yes
	var out []span
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsLaunch() {
			continue
		}
		if isSync[e.Name] == 0 {
			isSync[e.Name] = 1
			if trace.IsBlockingCall(t.Str(e.Name)) {
				isSync[e.Name] = 2
			}
		}
		if isSync[e.Name] == 2 && (win == nil || win.contains(e.Start)) {
			out = append(out, span{e.Start, e.End(), int32(i)})
		}
	}
	slices.SortFunc(out, func(a, b span) int { return cmp.Compare(a.s, b.s) })
	return out
}

// syncReport lists the longest blocking calls with the GPU work that ran
// during each: the busy union of all devices is built once and each call
// measured against it by binary search (n log n, whatever the number of
// calls).
func syncReport(t *trace.Trace, syncs []span, busy ivs, top int) []Sync {
	out := make([]Sync, 0, len(syncs))
	for _, s := range syncs {
		out = append(out, Sync{Name: t.NameOf(int(s.i)), StartNs: s.s - t.TraceStart, DurNs: s.e - s.s, GPUBusyNs: busy.overlap(s.s, s.e)})
	}
	slices.SortStableFunc(out, func(a, b Sync) int { return cmp.Compare(b.DurNs, a.DurNs) })
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	return out
}

// launcherEvents counts the events on the launching threads.
func launcherEvents(l *trace.Links, launchers []bool) int {
	n := 0
	for k, on := range launchers {
		if on {
			n += int(l.TrackStart[k+1] - l.TrackStart[k])
		}
	}
	return n
}

// cpuRuns is when some launching thread ran a recorded CPU event (ops,
// Python functions, runtime calls, annotations other than the step
// markers, which cover everything): CPU active is its overlap with a span.
func cpuRuns(t *trace.Trace, l *trace.Links, launchers []bool) ivs {
	isStep := make([]int8, len(t.Strings)) // per name: 0 unknown, 1 no, 2 a step marker
	// At most one interval per event: room for that up front (pages
	// never written cost nothing), no copying as the list grows.
	all := make([][2]int64, 0, launcherEvents(l, launchers))
	var ends []int
	for k, on := range launchers {
		if !on {
			continue
		}
		// Events of one track come sorted by start: merge them as they come.
		var cur [2]int64
		has := false
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if !e.Kind.IsCPU() || e.Dur <= 0 {
				continue
			}
			if e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp {
				if isStep[e.Name] == 0 {
					isStep[e.Name] = 1
					if _, ok := trace.StepNumber(t.Str(e.Name)); ok {
						isStep[e.Name] = 2
					}
				}
				if isStep[e.Name] == 2 {
					continue
				}
			}
			switch {
			case !has:
				cur, has = [2]int64{e.Start, e.End()}, true
			case e.Start <= cur[1]:
				cur[1] = max(cur[1], e.End())
			default:
				all = append(all, cur)
				cur = [2]int64{e.Start, e.End()}
			}
		}
		if has {
			all = append(all, cur)
		}
		ends = append(ends, len(all))
	}
	// Each track's run is sorted and disjoint: merge the runs, no sort.
	return mergeIvs(mergeRuns(all, ends, func(x, y [2]int64) int { return cmp.Compare(x[0], y[0]) }))
}
