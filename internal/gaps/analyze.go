package gaps

import (
	"cmp"

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
	steps := selectedSteps(allSteps, o)
	keep := keepOps(t, l, o, steps)
	r := &Report{Narrowed: narrowedTo(o)}
	cpuSteps := cpuStepWindows(o, steps)
	// The causer's tables, the blocking calls, the step rows, the step
	// breakdown and the dead windows (and the threads these two read) do
	// not depend on the device lanes: the other core computes them
	// meanwhile (the trace's caches are safe to share), then the devices'
	// efficiency, which needs the breakdown's steps and the lanes
	// collected here. On the 200 MB default trace the breakdown and the
	// dead windows alone took about 0.6 of this side's time (the lanes,
	// the gaps and their causes): the rest moved over.
	var bd *Breakdown
	var dead []DeadWindow
	var cpuBusy ivs
	var stepRows []StepLane
	var cells []StepCells
	var eff *Efficiency
	// the device lanes, for the efficiency (closed on return: should
	// collect panic, the other side ends all the same)
	collected := make(chan []stream, 1)
	defer close(collected)
	// the causer's tables and the blocking calls, read from the events
	// alone, go first (closed when that side ends, a panic included)
	causes := make(chan causerParts, 1)
	wait := safe.Go(func() { // a panic there is raised again by wait
		defer close(causes)
		facts := &threadFacts{win: cpuSteps}
		causes <- causerParts{newCauserWith(t, l, facts), facts.syncs}
		var keepI func(i int) bool
		if keep != nil {
			keepI = func(i int) bool { return keep(i, t.Ev(i)) }
		}
		stepRows, cells = stepLanesCells(t, o, keepI)
		launchers, withSteps := activeThreads(t, l)
		want := deadWindowThreads(o, launchers, withSteps)
		bd, cpuBusy = stepBreakdownRuns(t, l, func(n int64) bool { return !o.HasStep || (n >= o.StepLo && n <= o.StepHi) }, launchers)
		dead = deadWindows(t, l, allSteps, want, cpuSteps, o.MinGap, o.Top)
		// the lanes are read only once collected
		if devices := <-collected; len(devices) > 0 {
			var whole []stream // every op of each device: the kernels kerneleff measures
			if o.Stream < 0 && !o.LinkedOnly && !o.HasStep {
				whole = devices
			}
			eff = deviceEfficiency(t, bd, o.Device, whole)
		}
	})
	streams, devices := collect(t, l, keep)
	collected <- devices
	span, spanName := denominator(allSteps, steps, devices)
	if len(devices) == 0 {
		wait()
		r.Dead, r.StepCells = dead, cells
		r.NoGPU = true
		r.Verdict = Verdict{Class: ClassNoGPU, Headline: noGPUHeadline(t), Denominator: spanName}
		return r
	}
	addStreamLanes(r, t, streams, o.MaxQueue)
	addLaunchLatency(r, t, streams)
	for k := range streams {
		streams[k].names = nil // only the latency by name read them
	}
	lo, hi := span.bounds()
	r.Idle = idleReport(t, streams, devices, o.HTA, lo, hi)

	// Gaps and their causes, busy time inside the span.
	parts, ok := <-causes
	if !ok {
		wait() // the other side panicked: raised again here
	}
	c := laneCauser(parts.c, t, l, o.Stream, streams)
	gl := newGapList(t, o)
	syncs := parts.syncs
	calls := callWindows(syncs)
	var busyIn []int64
	var inCalls [][2]int64
	for _, d := range devices {
		r.Devices = append(r.Devices, lane(t, &d))
		deviceGaps(c, d.dev, &d.seq, span, gl.emit)
		busyIn = append(busyIn, busyInside(&d.seq, span, calls, &inCalls))
	}
	listGaps(r, t, o, gl, allSteps)
	r.Syncs = syncReport(t, syncs, mergeIvs(inCalls), o.Top)
	cpuSpan := cpuWindow(span, devices)
	wait()
	r.Steps, r.StepCells, r.Breakdown, r.Dead, r.Efficiency = stepRows, cells, bd, dead, eff
	facts := stepFacts(stepRows)
	facts.python, facts.graphs = c.python, c.graphs
	r.Verdict = verdict(span, spanName, r.Devices, busyIn, gl.acc, intersect(cpuBusy, cpuSpan), r.Narrowed, facts)
	r.Verdict.CPUWindowNs = cpuSpan.total()
	oneVoice(&r.Verdict, r.Breakdown)
	return r
}

// addStreamLanes adds each stream's lane and launch queue (a queue of
// maxQueue or more ops is full; 0: QueueLimit).
func addStreamLanes(r *Report, t *trace.Trace, streams []stream, maxQueue int) {
	limit := maxQueue
	if limit <= 0 {
		limit = QueueLimit
	}
	var buf []int64
	for _, s := range streams {
		r.Streams = append(r.Streams, lane(t, &s))
		r.Queues = append(r.Queues, streamQueue(&s, limit, t.TraceStart, &buf))
	}
}

// causerParts is what the second goroutine reads for the gaps' causes.
type causerParts struct {
	c     *causer
	syncs []span // blockingCalls
}

// laneCauser makes c (newCauser) the causer of the gaps, knowing the
// selected streams' ops and, narrowed to one stream, the other streams'
// busy time.
func laneCauser(c *causer, t *trace.Trace, l *trace.Links, stream int64, streams []stream) *causer {
	if stream >= 0 {
		c.others = otherStreamsBusy(t, l, stream)
	}
	c.streamOps = make(map[[2]int64][]op, len(streams))
	for _, s := range streams {
		c.streamOps[[2]int64{int64(s.dev), s.id}] = s.ops
	}
	return c
}

// gapList takes every gap into the idle accounts and keeps those of at
// least MinGap for the list: the Top longest, or all with AllGaps.
type gapList struct {
	acc    *idleAcc
	listed *topN[gapRec]
	minGap int64
	all    *gapChunks // instead of listed with AllGaps and LazyGaps (eachgap.go)
}

func newGapList(t *trace.Trace, o Options) *gapList {
	g := &gapList{
		acc:    newIdleAcc(func(i int32) string { return t.NameOf(int(i)) }, func(i int32) int64 { return t.Ev(int(i)).Dur }),
		listed: &topN[gapRec]{n: o.Top, cmp: gapOrder},
		minGap: o.MinGap,
	}
	if o.AllGaps {
		g.listed.n = 0 // no bound
		if o.LazyGaps {
			g.all = &gapChunks{}
		}
	}
	return g
}

func (gl *gapList) emit(g *gapRec) {
	gl.acc.add(g)
	if g.len() < gl.minGap {
		return
	}
	// what the bounded list would drop on arrival (most gaps, once it
	// holds Top of them) is dropped here, before the record is copied
	// (twice, and twice more for each comparison by value)
	if l := gl.listed; gl.all == nil && l.hasCut && gapOrderOf(g, &l.cut) >= 0 {
		return
	}
	x := *g
	x.suParts = nil // scratch of the causer
	gl.keep(x)
}

// gapOrder lists the longest gaps first; ties by start, then by device.
func gapOrder(x, y gapRec) int { return gapOrderOf(&x, &y) }

// gapOrderOf is gapOrder of two records by pointer.
func gapOrderOf(x, y *gapRec) int {
	if x.len() != y.len() {
		return cmp.Compare(y.len(), x.len())
	}
	if x.s != y.s {
		return cmp.Compare(x.s, y.s)
	}
	return cmp.Compare(x.dev, y.dev)
}

// callWindows is the blocking calls' windows, merged.
func callWindows(syncs []span) ivs {
	w := make([][2]int64, len(syncs))
	for k, sc := range syncs {
		w[k] = [2]int64{sc.s, sc.e}
	}
	return mergeIvs(w)
}

// stepFacts is what the verdict reads of the step rows: the median step's
// CPU time, and the first step when it is cold (coldStep -1 otherwise).
func stepFacts(rows []StepLane) traceFacts {
	f := traceFacts{coldStep: -1}
	if len(rows) == 0 {
		return f
	}
	cpu := make([]int64, len(rows))
	for k, s := range rows {
		cpu[k] = s.CPUNs
	}
	f.medStepNs = istats.MedianNs(cpu)
	if rows[0].Cold {
		f.coldStep, f.coldNs = rows[0].Step, rows[0].CPUNs
	}
	return f
}
