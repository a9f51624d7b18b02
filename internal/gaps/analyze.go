package gaps

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/safe"
	istats "github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// Analyze computes the report for t. Each analysis is one pass over the
// events it needs (or a sort of them); per-gap questions are answered by
// binary search in sorted arrays, never by scanning all events.
func Analyze(t *trace.Trace, o Options) *Report {
	l := t.Links()
	allSteps := t.StepWindows()
	steps := slices.Clone(allSteps)
	if o.HasStep {
		steps = slices.DeleteFunc(steps, func(s trace.Step) bool { return s.N < o.StepLo || s.N > o.StepHi })
	}
	inSteps := func(i int) bool { return !o.HasStep || trace.StepAt(steps, t.LaunchTime(i)) >= 0 }
	keep := func(i int, e *trace.Event) bool {
		tr := &t.Tracks[e.Track]
		return (o.Device < 0 || tr.Device == o.Device) && (o.Stream < 0 || tr.Stream == o.Stream) &&
			(!o.LinkedOnly || l.Launch[i] >= 0) && inSteps(i)
	}
	r := &Report{}
	switch {
	case o.Device >= 0 && o.Stream >= 0:
		r.Narrowed = fmt.Sprintf("device %d, stream %d", o.Device, o.Stream)
	case o.Device >= 0:
		r.Narrowed = fmt.Sprintf("device %d", o.Device)
	case o.Stream >= 0:
		r.Narrowed = fmt.Sprintf("stream %d", o.Stream)
	}
	launchers, withSteps := activeThreads(t, l)
	var want []bool
	if !o.AllThreads {
		want = make([]bool, len(t.Tracks))
		for k := range want {
			want[k] = launchers[k] || withSteps[k]
		}
	}
	// CPU-side sections obey --steps by the selected steps' CPU windows.
	var cpuSteps ivs
	if o.HasStep {
		w := make([][2]int64, 0, len(steps))
		for _, s := range steps {
			w = append(w, [2]int64{s.Start, s.End})
		}
		cpuSteps = mergeIvs(w)
		if cpuSteps == nil {
			cpuSteps = ivs{}
		}
	}
	// The step breakdown and the dead windows do not depend on the device
	// lanes: the other core computes them meanwhile (the trace's caches are
	// safe to share).
	var stepRows []StepLane
	var bd *Breakdown
	var dead []DeadWindow
	var cpuBusy ivs
	wait := safe.Go(func() { // a panic there is raised again by wait
		bd, cpuBusy = stepBreakdownRuns(t, l, func(n int64) bool { return !o.HasStep || (n >= o.StepLo && n <= o.StepHi) }, launchers)
		dead = deadWindows(t, l, allSteps, want, cpuSteps, o.MinGap, o.Top)
	})
	// The step rows first on this side: the two sides take about as long,
	// and their lists are gone before the device ops are collected.
	stepRows, r.StepCells = stepLanesCells(t, o, func(i int) bool { return keep(i, t.Ev(i)) })
	streams, devices := collect(t, l, keep)

	// The denominator: the selected step windows, else the GPU window.
	var span ivs
	spanName := "the GPU window"
	if len(allSteps) > 0 {
		// Each step extends to the end of the GPU work it launched, as the
		// TensorBoard plugin's Overview does: the GPU lane runs behind.
		end := make([]int64, len(steps))
		for k, s := range steps {
			end[k] = s.End
		}
		cur := stepCursor{steps: steps}
		for _, d := range devices {
			for _, x := range d.ops {
				lt := x.s
				if x.call >= 0 {
					lt = x.launch
				}
				if k := cur.at(lt); k >= 0 {
					end[k] = max(end[k], x.e)
				}
			}
		}
		w := make([][2]int64, 0, len(steps))
		for k, s := range steps {
			w = append(w, [2]int64{s.Start, end[k]})
		}
		span = mergeIvs(w)
		spanName = fmt.Sprintf("the union of %d profiler steps, each to the end of the GPU work it launched", len(steps))
		if len(steps) == 1 {
			spanName = fmt.Sprintf("profiler step %d, to the end of the GPU work it launched", steps[0].N)
		}
	} else if len(devices) > 0 {
		lo, hi := devices[0].at(0).s, int64(0)
		for _, d := range devices {
			lo = min(lo, d.at(0).s)
			for _, x := range d.ops {
				hi = max(hi, x.e)
			}
		}
		span = ivs{{lo, hi}}
	}

	if len(devices) == 0 {
		wait()
		r.Dead = dead
		r.NoGPU = true
		r.Verdict = Verdict{Class: ClassNoGPU, Headline: noGPUHeadline(t), Denominator: spanName}
		return r
	}

	// Lanes and launch latency. The latencies are grouped by op name in
	// one flat array (event order within a name); each group is sorted
	// once and the sorted groups merge into the sorted whole.
	group := make([]int32, len(t.Strings)) // name -> its group + 1
	var gNames []trace.StrID
	var gCount []int
	var firstLaunch int64
	nLat := 0
	limit := o.MaxQueue
	if limit <= 0 {
		limit = QueueLimit
	}
	for _, s := range streams {
		r.Streams = append(r.Streams, lane(t, &s))
		r.Queues = append(r.Queues, streamQueue(&s, limit, t.TraceStart))
		for k, x := range s.ops {
			if x.call < 0 {
				r.UnlinkedOps++
				continue
			}
			name := s.names[k]
			if group[name] == 0 {
				gNames, gCount = append(gNames, name), append(gCount, 0)
				group[name] = int32(len(gNames))
			}
			gCount[group[name]-1]++
			nLat++
			if d := x.s - x.launch; !r.HasLaneOffset || x.launch < firstLaunch {
				firstLaunch, r.LaneOffsetNs, r.HasLaneOffset = x.launch, d, true
			}
		}
	}
	if nLat > 0 {
		ends := make([]int, len(gNames))
		next := make([]int, len(gNames))
		at := 0
		for g, n := range gCount {
			next[g] = at
			at += n
			ends[g] = at
		}
		lat := make([]int64, nLat)
		for _, s := range streams {
			for k, x := range s.ops {
				if x.call >= 0 {
					g := group[s.names[k]] - 1
					lat[next[g]] = x.s - x.launch
					next[g]++
				}
			}
		}
		for g := range gNames {
			r.LatencyByName = append(r.LatencyByName, stats(t.Str(gNames[g]), lat[ends[g]-gCount[g]:ends[g]]))
		}
		r.Latency = stats("all device ops", mergeRuns(lat, ends, cmp.Compare[int64]))
		slices.SortFunc(r.LatencyByName, func(a, b LatencyStats) int {
			if a.Count != b.Count {
				return cmp.Compare(b.Count, a.Count)
			}
			return cmp.Compare(a.Name, b.Name)
		})
	}
	for k := range streams {
		streams[k].names = nil // only the latency by name read them
	}
	var lo, hi int64
	if len(span) > 0 {
		lo, hi = span[0][0], span[len(span)-1][1]
	}
	r.Idle = idleReport(t, streams, devices, o.HTA, lo, hi)

	// Gaps and their causes, busy time inside the span.
	c := newCauser(t, l)
	if o.Stream >= 0 {
		c.others = otherStreamsBusy(t, l, o.Stream)
	}
	c.streamOps = make(map[[2]int64][]op, len(streams))
	for _, s := range streams {
		c.streamOps[[2]int64{int64(s.dev), s.id}] = s.ops
	}
	acc := newIdleAcc(func(i int32) string { return t.NameOf(int(i)) }, func(i int32) int64 { return t.Ev(int(i)).Dur })
	top := o.Top
	if o.AllGaps {
		top = 0 // no bound
	}
	listed := &topN[gapRec]{n: top, cmp: func(x, y gapRec) int {
		if x.len() != y.len() {
			return cmp.Compare(y.len(), x.len())
		}
		if x.s != y.s {
			return cmp.Compare(x.s, y.s)
		}
		return cmp.Compare(x.dev, y.dev)
	}}
	emit := func(g *gapRec) {
		acc.add(g)
		if g.len() >= o.MinGap {
			x := *g
			x.suParts = nil // scratch of the causer
			listed.add(x)
		}
	}
	// Each device's busy union, merged as its ops come by start: its time
	// inside the span is summed as the runs come, and only the parts of
	// runs inside some blocking call are kept, for the calls' GPU time.
	syncs := blockingCalls(t, cpuSteps)
	callWin := make([][2]int64, len(syncs))
	for k, sc := range syncs {
		callWin[k] = [2]int64{sc.s, sc.e}
	}
	calls := mergeIvs(callWin)
	var busyIn []int64
	var inCalls [][2]int64
	for _, d := range devices {
		r.Devices = append(r.Devices, lane(t, &d))
		deviceGaps(c, d.dev, &d.seq, span, emit)
		var in int64
		sj, cj := 0, 0
		run := func(a, b int64) {
			// mostly the run lies inside one step window and no call
			if sj < len(span) && span[sj][0] <= a && b <= span[sj][1] {
				in += b - a
			} else {
				in += clipTo(span, &sj, a, b, nil)
			}
			if cj < len(calls) && calls[cj][0] < b {
				clipTo(calls, &cj, a, b, &inCalls)
			}
		}
		var cs, ce int64
		for k := range d.n() {
			x := d.at(k)
			switch {
			case k == 0:
				cs, ce = x.s, x.e
			case x.s <= ce:
				ce = max(ce, x.e)
			default:
				run(cs, ce)
				cs, ce = x.s, x.e
			}
		}
		if d.n() > 0 {
			run(cs, ce)
		}
		busyIn = append(busyIn, in)
	}
	res := listed.result()
	r.Gaps = make([]Gap, 0, len(res))
	for _, g := range res {
		r.Gaps = append(r.Gaps, g.gap(t, allSteps))
	}
	r.Syncs = syncReport(t, syncs, mergeIvs(inCalls), o.Top)
	// CPU activity is measured over the span and, when the first launch
	// call came before it (the GPU lane runs behind), from that call on.
	cpuSpan := span
	if firstLaunch := firstLaunchIn(devices); len(span) > 0 && firstLaunch < span[0][0] {
		cpuSpan = mergeIvs(append([][2]int64{{firstLaunch, span[0][0]}}, span...))
	}
	wait()
	r.Steps, r.Breakdown, r.Dead = stepRows, bd, dead
	r.Efficiency = deviceEfficiency(t, bd, o.Device)
	active := intersect(cpuBusy, cpuSpan)
	facts := traceFacts{python: c.python, graphs: c.graphs, coldStep: -1}
	if len(stepRows) > 0 {
		cpu := make([]int64, len(stepRows))
		for k, s := range stepRows {
			cpu[k] = s.CPUNs
		}
		facts.medStepNs = istats.MedianNs(cpu)
		if stepRows[0].Cold {
			facts.coldStep, facts.coldNs = stepRows[0].Step, stepRows[0].CPUNs
		}
	}
	r.Verdict = verdict(span, spanName, r.Devices, busyIn, acc, active, r.Narrowed, facts)
	r.Verdict.CPUWindowNs = cpuSpan.total()
	oneVoice(&r.Verdict, r.Breakdown)
	return r
}

func lane(t *trace.Trace, s *stream) Lane {
	q := &s.seq
	ln := Lane{Device: s.dev, Stream: s.id, Ops: q.n(), KernelNs: s.kindNs[0], MemcpyNs: s.kindNs[1], MemsetNs: s.kindNs[2]}
	sorted := true
	for k := 1; k < q.n() && sorted; k++ {
		sorted = q.at(k).s >= q.at(k-1).s
	}
	var busy, lo, hi int64
	if sorted && q.n() > 0 {
		// trace.Union's pass, on ops that come by start already.
		first := q.at(0)
		lo, hi = first.s, first.e
		cs, ce := first.s, first.e
		for k := 1; k < q.n(); k++ {
			x := q.at(k)
			if x.s > ce {
				busy += ce - cs
				cs, ce = x.s, x.e
			} else if x.e > ce {
				ce = x.e
			}
			hi = max(hi, x.e)
		}
		busy += ce - cs
	} else {
		pairs := make([][2]int64, q.n())
		for k := range pairs {
			x := q.at(k)
			pairs[k] = [2]int64{x.s, x.e}
		}
		busy, lo, hi = trace.Union(pairs)
	}
	ln.StartNs, ln.EndNs = lo-t.TraceStart, hi-t.TraceStart
	ln.WindowNs, ln.BusyNs = hi-lo, busy
	ln.IdleNs = ln.WindowNs - busy
	return ln
}

// clipTo adds up how much of [a, b) lies inside w (sorted, disjoint),
// appending those parts to out when out is set; *j is a cursor into w for
// calls whose a never decreases.
func clipTo(w ivs, j *int, a, b int64, out *[][2]int64) int64 {
	for *j < len(w) && w[*j][1] <= a {
		*j++
	}
	var n int64
	for x := *j; x < len(w) && w[x][0] < b; x++ {
		lo, hi := max(a, w[x][0]), min(b, w[x][1])
		if hi > lo {
			n += hi - lo
			if out != nil {
				*out = append(*out, [2]int64{lo, hi})
			}
		}
	}
	return n
}

// firstLaunchIn is the earliest launch call start of the ops (their own
// start when none has a launch call).
func firstLaunchIn(devices []stream) int64 {
	first := int64(1<<63 - 1)
	for _, d := range devices {
		for _, x := range d.ops {
			if x.call >= 0 {
				first = min(first, x.launch)
			} else {
				first = min(first, x.s)
			}
		}
	}
	return first
}

// noGPUHeadline says why a trace has no GPU lane: no launch call at all (a
// CPU-only trace), or launch calls whose device work is missing (CUDA
// activity not recorded, or CUPTI failed).
func noGPUHeadline(t *trace.Trace) string {
	launches := 0
	for i := range t.NumEvents() {
		if t.Ev(i).Kind.IsLaunch() && trace.IsLaunchAPI(t.NameOf(i)) {
			launches++
		}
	}
	if launches == 0 {
		return "the trace has no kernels, memcpys or memsets (a CPU-only trace)"
	}
	n := "1 launch call"
	if launches > 1 {
		n = strconv.Itoa(launches) + " launch calls"
	}
	return "the trace has " + n + " but no kernels, memcpys or memsets: was ProfilerActivity.CUDA on, or did CUPTI fail to record?"
}
