package gaps

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/tracetab/tracetab/internal/trace"
)

// Analyze computes the report for t.
func Analyze(t *trace.Trace, o Options) *Report {
	l := t.Links()
	// The CPU lane's dead windows and the per-step view are independent of
	// the device lanes: compute them on the other core meanwhile.
	var dead []DeadWindow
	var stepRows []StepLane
	var wg sync.WaitGroup
	wg.Add(2)
	var cpuActive int64
	go func() {
		defer wg.Done()
		dead = deadWindows(t, l, t.StepWindows(), o.Top)
		cpuActive = launchThreadsActive(t, l)
	}()
	go func() {
		defer wg.Done()
		stepRows = stepLanes(t, o, func(i int) bool {
			tr := &t.Tracks[t.Ev(i).Track]
			return (o.Device < 0 || tr.Device == o.Device) && (o.Stream < 0 || tr.Stream == o.Stream) && (!o.LinkedOnly || l.Launch[i] >= 0)
		})
	}()
	r := &Report{IdleByCause: map[Cause]int64{}, GapsByCause: map[Cause]int{}}
	steps := t.StepWindows()
	if o.HasStep {
		steps = slices.DeleteFunc(steps, func(s trace.Step) bool { return s.N < o.StepLo || s.N > o.StepHi })
	}
	launchAt := t.LaunchTime

	// Device work, per device and per stream.
	byTrack := make([][]iv, len(t.Tracks))
	var lat []int64
	latBy := map[trace.StrID][]int64{}
	firstLaunch := int64(0)
	for _, i32 := range l.Order {
		i := int(i32)
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		tr := &t.Tracks[e.Track]
		if (o.Device >= 0 && tr.Device != o.Device) || (o.Stream >= 0 && tr.Stream != o.Stream) {
			continue
		}
		if o.HasStep && trace.StepAt(steps, launchAt(i)) < 0 {
			continue
		}
		if o.LinkedOnly && l.Launch[i] < 0 {
			continue
		}
		if byTrack[e.Track] == nil {
			byTrack[e.Track] = make([]iv, 0, l.TrackStart[e.Track+1]-l.TrackStart[e.Track])
		}
		byTrack[e.Track] = append(byTrack[e.Track], iv{e.Start, e.End(), int32(i)})
		if rr := l.Launch[i]; rr >= 0 {
			ls := t.Ev(int(rr)).Start
			d := e.Start - ls
			lat = append(lat, d)
			latBy[e.Name] = append(latBy[e.Name], d)
			if !r.HasLaneOffset || ls < firstLaunch {
				firstLaunch, r.LaneOffsetNs, r.HasLaneOffset = ls, d, true
			}
		} else {
			r.UnlinkedOps++
		}
	}
	byDev := map[int][]iv{}
	byStream := map[[2]int64][]iv{}
	for k, ops := range byTrack {
		if len(ops) == 0 {
			continue
		}
		tr := &t.Tracks[k]
		byDev[tr.Device] = mergeByStart(byDev[tr.Device], ops)
		sk := [2]int64{int64(tr.Device), tr.Stream}
		byStream[sk] = append(byStream[sk], ops...)
	}
	byTrack = nil
	if len(byDev) == 0 {
		r.NoGPU = true
		r.Verdict = Verdict{Bound: "no GPU lane", Reason: "the trace has no kernels, memcpys or memsets"}
		wg.Wait()
		r.Dead = dead
		return r
	}
	if len(lat) > 0 {
		r.Latency = stats("all device ops", lat)
		for name, d := range latBy {
			r.LatencyByName = append(r.LatencyByName, stats(t.Str(name), d))
		}
		slices.SortFunc(r.LatencyByName, func(a, b LatencyStats) int {
			if a.Count != b.Count {
				return cmp.Compare(b.Count, a.Count)
			}
			return cmp.Compare(a.Name, b.Name)
		})
	}
	for k, ops := range byStream {
		r.Streams = append(r.Streams, lane(t, int(k[0]), k[1], ops))
	}
	slices.SortFunc(r.Streams, func(a, b Lane) int {
		if a.Device != b.Device {
			return cmp.Compare(a.Device, b.Device)
		}
		return cmp.Compare(a.Stream, b.Stream)
	})

	syncs, prof := cpuBlockers(t)
	var allGaps []gapRec
	for dev, ops := range byDev {
		r.Devices = append(r.Devices, lane(t, dev, -1, ops))
		allGaps = append(allGaps, deviceGaps(t, l, dev, ops, syncs, prof, steps)...)
	}
	slices.SortFunc(r.Devices, func(a, b Lane) int { return cmp.Compare(a.Device, b.Device) })
	var starved, idle int64
	causes := []Cause{CauseProfiler, CauseSync, CauseStarved, CauseQueue}
	var idleBy [4]int64
	var countBy [4]int
	for _, g := range allGaps {
		k := slices.Index(causes, g.cause)
		idleBy[k] += g.len
		countBy[k]++
		idle += g.len
	}
	for k, c := range causes {
		r.IdleByCause[c], r.GapsByCause[c] = idleBy[k], countBy[k]
	}
	starved = r.IdleByCause[CauseStarved]
	listed := &topN[gapRec]{n: o.Top, cmp: func(a, b gapRec) int {
		if a.len != b.len {
			return cmp.Compare(b.len, a.len)
		}
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		return cmp.Compare(a.dev, b.dev)
	}}
	for _, g := range allGaps {
		if g.len >= o.MinGap {
			listed.add(g)
		}
	}
	for _, g := range listed.result() {
		r.Gaps = append(r.Gaps, g.gap(t, l, steps))
	}
	wg.Wait()
	r.Dead, r.Steps = dead, stepRows
	r.Syncs = syncReport(t, syncs, byDev, o.Top)
	r.Verdict = verdict(t, r, steps, cpuActive, idle, starved)
	return r
}

func lane(t *trace.Trace, dev int, stream int64, ops []iv) Lane {
	ln := Lane{Device: dev, Stream: stream, Ops: len(ops)}
	pairs := make([][2]int64, len(ops))
	for k, x := range ops {
		pairs[k] = [2]int64{x.s, x.e}
		switch t.Ev(int(x.i)).Kind {
		case trace.KindKernel:
			ln.KernelNs += x.e - x.s
		case trace.KindMemcpy:
			ln.MemcpyNs += x.e - x.s
		case trace.KindMemset:
			ln.MemsetNs += x.e - x.s
		}
	}
	busy, lo, hi := trace.Union(pairs)
	ln.StartNs, ln.EndNs = lo-t.TraceStart, hi-t.TraceStart
	ln.WindowNs, ln.BusyNs = hi-lo, busy
	ln.IdleNs = ln.WindowNs - busy
	return ln
}

type span struct {
	s, e int64
	i    int32
}

// cpuBlockers lists blocking sync calls and profiler overhead, by start.
func cpuBlockers(t *trace.Trace) (syncs, prof []span) {
	isSync := make([]int8, len(t.Strings)) // 0 unknown, 1 no, 2 yes
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if e.Kind.IsLaunch() && isSync[e.Name] == 0 {
			isSync[e.Name] = 1
			if trace.IsBlockingCall(t.Str(e.Name)) {
				isSync[e.Name] = 2
			}
		}
		switch {
		case e.Kind.IsLaunch() && isSync[e.Name] == 2:
			syncs = append(syncs, span{e.Start, e.End(), int32(i)})
		case e.Kind == trace.KindOverhead:
			prof = append(prof, span{e.Start, e.End(), int32(i)})
		}
	}
	by := func(a, b span) int { return cmp.Compare(a.s, b.s) }
	slices.SortFunc(syncs, by)
	slices.SortFunc(prof, by)
	return
}

// overlapping returns the first span overlapping [s, e).
func overlapping(sp []span, s, e int64) (span, bool) {
	k, _ := slices.BinarySearchFunc(sp, e, func(x span, v int64) int { return cmp.Compare(x.s, v) })
	for j := k - 1; j >= 0 && j >= k-64; j-- {
		if sp[j].s < e && sp[j].e > s {
			return sp[j], true
		}
	}
	return span{}, false
}

// mergeByStart merges two lists sorted by start.
func mergeByStart(a, b []iv) []iv {
	if len(a) == 0 {
		return b
	}
	out := make([]iv, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].s < a[0].s {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// gapRec is a gap before its names are looked up: only listed gaps are
// turned into Gaps.
type gapRec struct {
	start, len    int64
	before, after int32
	detail        int32 // the sync call or profiler event, -1
	launch        int32 // the next op's launch call, -1
	dev           int32
	cause         Cause
}

func (g gapRec) gap(t *trace.Trace, l *trace.Links, steps []trace.Step) Gap {
	out := Gap{Device: int(g.dev), StartNs: g.start - t.TraceStart, LenNs: g.len, Step: -1, Cause: g.cause,
		Before: t.NameOf(int(g.before)), After: t.NameOf(int(g.after))}
	if k := trace.StepAt(steps, g.start); k >= 0 {
		out.Step, out.StepOffNs = steps[k].N, g.start-steps[k].Start
	}
	switch {
	case g.detail >= 0:
		out.Detail = t.NameOf(int(g.detail))
	case g.launch >= 0:
		// what the launching thread was doing when the GPU went idle
		out.Detail = innermostAt(t, l, t.Ev(int(g.launch)).Track, g.start)
	default:
		out.Detail = "next op has no launch call in the trace"
	}
	if g.cause == CauseStarved {
		out.LaunchLagNs = t.Ev(int(g.launch)).Start - g.start
	}
	return out
}

func deviceGaps(t *trace.Trace, l *trace.Links, dev int, ops []iv, syncs, prof []span, steps []trace.Step) []gapRec {
	var out []gapRec
	endOp := ops[0]
	for _, x := range ops[1:] {
		if x.s <= endOp.e {
			if x.e > endOp.e {
				endOp = x
			}
			continue
		}
		gs, ge := endOp.e, x.s
		g := gapRec{start: gs, len: ge - gs, before: endOp.i, after: x.i, detail: -1, launch: l.Launch[x.i], dev: int32(dev)}
		if s, ok := overlapping(prof, gs, ge); ok {
			g.cause, g.detail = CauseProfiler, s.i
		} else if s, ok := overlapping(syncs, gs, ge); ok {
			g.cause, g.detail = CauseSync, s.i
		} else if g.launch >= 0 && t.Ev(int(g.launch)).Start > gs {
			g.cause = CauseStarved
		} else {
			g.cause = CauseQueue
		}
		out = append(out, g)
		endOp = x
	}
	return out
}

// innermostAt names what a CPU thread was doing at ts.
func innermostAt(t *trace.Trace, l *trace.Links, track int32, ts int64) string {
	ord := l.Order[l.TrackStart[track]:l.TrackStart[track+1]]
	k, _ := slices.BinarySearchFunc(ord, ts, func(i int32, v int64) int { return cmp.Compare(t.Ev(int(i)).Start, v+1) })
	// The innermost event holding ts is the last one starting at or before
	// ts, or one of its ancestors.
	if k > 0 {
		for p := ord[k-1]; p >= 0; p = l.Parent[p] {
			e := t.Ev(int(p))
			if e.Start <= ts && ts < e.End() {
				return t.NameOf(int(p))
			}
		}
	}
	return "idle (no op running)"
}

func deadWindows(t *trace.Trace, l *trace.Links, steps []trace.Step, top int) []DeadWindow {
	// Candidates stay small until the longest are chosen.
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
	seen := make([]bool, t.NumEvents())
	for k, tr := range t.Tracks {
		if tr.Kind != trace.TrackCPU {
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
					if d := e.Start - pe.Start; d > 0 && (pe.Kind == trace.KindCPUOp || pe.Kind == trace.KindAnnotation) {
						best.add(cand{d, pe.Start, p, -1, int32(k)})
					}
				}
				continue
			}
			if prevTop >= 0 {
				pe := t.Ev(int(prevTop))
				if d := e.Start - pe.End(); d > 0 {
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

func stepLanes(t *trace.Trace, o Options, inWindow func(i int) bool) []StepLane {
	var out []StepLane
	for _, s := range t.Steps(inWindow) {
		if o.HasStep && (s.N < o.StepLo || s.N > o.StepHi) {
			continue
		}
		out = append(out, StepLane{Step: s.N, StartNs: s.Start - t.TraceStart, CPUNs: s.End - s.Start, GPUBusyNs: s.GPUBusyNs,
			GPUIdleNs: s.GPUSpanNs - s.GPUBusyNs, LargestGap: s.LargestGapNs, Cold: s.Cold})
	}
	return out
}

// launchThreadsActive is the union of top-level CPU events on the threads
// that launched device work.
func launchThreadsActive(t *trace.Trace, l *trace.Links) int64 {
	launchTracks := make([]bool, len(t.Tracks))
	for i, n := range l.Launched {
		if n > 0 {
			launchTracks[t.Ev(i).Track] = true
		}
	}
	var tops [][2]int64
	for k, on := range launchTracks {
		if !on {
			continue
		}
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if l.Parent[i] < 0 && e.Kind != trace.KindPython {
				tops = append(tops, [2]int64{e.Start, e.End()})
			}
		}
	}
	busy, _, _ := trace.Union(tops)
	return busy
}

// syncReport lists the longest blocking calls with the GPU work they covered.
func syncReport(t *trace.Trace, syncs []span, byDev map[int][]iv, top int) []Sync {
	var out []Sync
	for _, s := range syncs {
		var cover [][2]int64
		for _, ops := range byDev {
			for _, x := range ops {
				if x.e > s.s && x.s < s.e {
					cover = append(cover, [2]int64{max(x.s, s.s), min(x.e, s.e)})
				}
			}
		}
		busy, _, _ := trace.Union(cover)
		out = append(out, Sync{Name: t.NameOf(int(s.i)), StartNs: s.s - t.TraceStart, DurNs: s.e - s.s, GPUBusyNs: busy})
	}
	slices.SortStableFunc(out, func(a, b Sync) int { return cmp.Compare(b.DurNs, a.DurNs) })
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	return out
}

// verdict decides overhead-bound or compute-bound over the profiled span:
// the profiler steps (or the whole trace without them) and the GPU window.
func verdict(t *trace.Trace, r *Report, steps []trace.Step, cpuActive, idle, starved int64) Verdict {
	v := Verdict{}
	lo, hi := int64(0), int64(0)
	first := true
	see := func(a, b int64) {
		if first || a < lo {
			lo = a
		}
		if first || b > hi {
			hi = b
		}
		first = false
	}
	for _, d := range r.Devices {
		v.GPUBusyNs += d.BusyNs
		see(d.StartNs+t.TraceStart, d.EndNs+t.TraceStart)
	}
	for _, s := range steps {
		see(s.Start, s.End)
	}
	v.CPUActiveNs = cpuActive
	v.SpanNs = hi - lo
	busy := min(v.GPUBusyNs, v.SpanNs*int64(max(len(r.Devices), 1)))
	if v.SpanNs > 0 {
		v.GPUIdlePct = 100 - float64(busy)*100/float64(v.SpanNs*int64(max(len(r.Devices), 1)))
	}
	if idle > 0 {
		v.StarvedIdlePct = float64(starved) * 100 / float64(idle)
	}
	ms := func(ns int64) float64 { return float64(ns) / 1e6 }
	if v.GPUIdlePct >= 50 {
		v.Bound = "overhead-bound"
		v.Reason = fmt.Sprintf("over the profiled span of %.3f ms the GPU is idle %.1f%%: %.3f ms of GPU work against %.3f ms of CPU activity on the launching threads",
			ms(v.SpanNs), v.GPUIdlePct, ms(v.GPUBusyNs), ms(v.CPUActiveNs))
	} else {
		v.Bound = "compute-bound"
		v.Reason = fmt.Sprintf("over the profiled span of %.3f ms the GPU is busy %.1f%% (%.3f ms of GPU work)",
			ms(v.SpanNs), 100-v.GPUIdlePct, ms(v.GPUBusyNs))
	}
	return v
}
