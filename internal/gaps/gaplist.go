package gaps

import (
	"math"

	"github.com/tracetab/tracetab/internal/trace"
)

// gapRec is one idle stretch of a device with its cause; names are looked
// up only for the gaps that are listed.
type gapRec struct {
	dev         int
	s, e        int64
	clipped     int64 // the part inside the profiled span
	edge        Edge
	kind        IdleKind
	prev, next  int32 // device ops on either side (event indices), -1
	prevLaunchT int64 // when they were launched (LaunchTime)
	nextLaunchT int64
	lag         int64
	shares      [numCauses]int64
	cause       Cause
	inside      int32
	insideNs    int64
	drained     int32
	prof        int32
}

func (g *gapRec) len() int64 { return g.e - g.s }

// deviceGaps finds every idle stretch of one device (ops sorted by start)
// and its cause, and hands each to emit; span is the profiled span (the
// verdict's denominator).
func deviceGaps(c *causer, dev int, q *seq, span ivs, emit func(*gapRec)) {
	if q.n() == 0 {
		return
	}
	launchT := func(x *op) int64 {
		if x.call >= 0 {
			return x.launch
		}
		return x.s
	}
	var cur gapRec // one scratch record, handed to emit by pointer
	add := func(g gapRec, next *op, thread int32) {
		cur = g
		cur.clipped = span.overlap(cur.s, cur.e)
		c.explain(&cur, dev, next, thread)
		emit(&cur)
	}
	first := q.at(0)
	if len(span) > 0 && span[0][0] < first.s {
		g := gapRec{dev: dev, s: span[0][0], e: first.s, edge: BeforeFirst, prev: -1, next: first.i, prevLaunchT: -1, nextLaunchT: launchT(first)}
		add(g, first, -1)
	}
	endOp := first
	for k := 1; k < q.n(); k++ {
		x := q.at(k)
		if x.s <= endOp.e {
			if x.e > endOp.e {
				endOp = x
			}
			continue
		}
		g := gapRec{dev: dev, s: endOp.e, e: x.s, edge: Between, prev: endOp.i, next: x.i, prevLaunchT: launchT(endOp), nextLaunchT: launchT(x)}
		g.kind = idleKind(endOp.e, x, g.len())
		add(g, x, -1)
		endOp = x
	}
	if n := len(span); n > 0 && span[n-1][1] > endOp.e {
		g := gapRec{dev: dev, s: endOp.e, e: span[n-1][1], edge: AfterLast, prev: endOp.i, next: -1, prevLaunchT: launchT(endOp), nextLaunchT: -1}
		thread := int32(-1)
		if endOp.call >= 0 {
			thread = c.t.Ev(int(endOp.call)).Track
		}
		add(g, nil, thread)
	}
}

// explain fills the gap's shares and cause. A host wait (the next op's
// launch call started after the GPU went idle) is split by what its
// launching thread did until that call, the call itself and the dispatch
// after it counting as launch; a queued gap waited on another stream when
// the trace records it, else on dispatch. The profiler's own events take
// the time they overlap.
func (c *causer) explain(g *gapRec, dev int, next *op, thread int32) {
	g.inside, g.drained, g.prof = -1, -1, -1
	n := g.len()
	switch {
	case next == nil: // after the last op: what the last launcher did next
		if thread >= 0 {
			sp := c.splitThread(thread, g.s, g.e, n)
			g.shares, g.inside, g.insideNs, g.drained = sp.ns, sp.inside, sp.insideNs, sp.drained
		} else {
			g.shares[CauseUntraced] = n
		}
	case next.call >= 0 && next.launch > g.s:
		until := min(next.launch, g.e)
		sp := c.splitThread(c.t.Ev(int(next.call)).Track, g.s, until, n)
		g.shares, g.inside, g.insideNs, g.drained = sp.ns, sp.inside, sp.insideNs, sp.drained
		callEnd := min(max(c.t.Ev(int(next.call)).End(), until), g.e)
		g.shares[CauseLaunch] += callEnd - until
		// After the call returned the op waited in the queue: on another
		// stream when the trace records it, else dispatch latency.
		if tail := g.e - callEnd; tail > 0 {
			sid := c.t.Tracks[c.t.Ev(int(next.i)).Track].Stream
			if c.waitedOnStream(dev, sid, next, callEnd, g.e) {
				g.shares[CauseDependency] += tail
			} else {
				g.shares[CauseDispatch] += tail
			}
		}
		g.lag = next.launch - g.s
	default:
		sid := c.t.Tracks[c.t.Ev(int(next.i)).Track].Stream
		switch {
		case c.waitedOnStream(dev, sid, next, g.s, g.e):
			g.shares[CauseDependency] = n
		case n < KernelWaitMaxNs:
			g.shares[CauseDispatch] = n
		default:
			g.shares[CauseQueued] = n
		}
	}
	if p, best := c.profilerIn(g.s, g.e); p > 0 {
		g.prof = best
		take := p
		for _, k := range append([]Cause{CauseUntraced, CauseDispatch, CauseQueued, CauseDependency}, Causes()...) {
			d := min(take, g.shares[k])
			if k == CauseProfiler {
				continue
			}
			g.shares[k] -= d
			take -= d
		}
		g.shares[CauseProfiler] += p
	}
	g.cause = topCause(g.shares)
}

func topCause(sh [numCauses]int64) Cause {
	best := Cause(0)
	for k := range sh {
		if sh[k] > sh[best] {
			best = Cause(k)
		}
	}
	return best
}

// gap resolves the names of a listed gap.
func (g *gapRec) gap(t *trace.Trace, steps []trace.Step) Gap {
	out := Gap{Device: g.dev, StartNs: g.s - t.TraceStart, LenNs: g.len(), Edge: g.edge, Kind: g.kind, Cause: g.cause,
		Shares: g.shares, StepBefore: -1, StepAfter: -1, LaunchLagNs: g.lag}
	if g.prev >= 0 {
		out.Before = t.NameOf(int(g.prev))
		out.StepBefore = stepOf(steps, g.prevLaunchT)
	}
	if g.next >= 0 {
		out.After = t.NameOf(int(g.next))
		out.StepAfter = stepOf(steps, g.nextLaunchT)
	}
	if n := g.len(); n > 0 {
		out.CausePct = pct(g.shares[g.cause], n)
		switch {
		case g.inside >= 0:
			out.Activity, out.ActivityPct = t.NameOf(int(g.inside)), pct(g.insideNs, n)
		case g.cause == CauseProfiler && g.prof >= 0:
			out.Activity, out.ActivityPct = t.NameOf(int(g.prof)), pct(g.shares[CauseProfiler], n)
		}
	}
	if g.drained >= 0 && g.cause != CauseSync {
		out.Note = "pipeline drained at a sync (" + t.NameOf(int(g.drained)) + ")"
	}
	return out
}

// pct is a share in percent rounded to 2 decimals.
func pct(part, whole int64) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(float64(part)*10000/float64(whole)) / 100
}
