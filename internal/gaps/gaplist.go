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
	act         int32 // the event named for the cause, -1
	actNs       int64 // its time in the gap that counts for the cause
	drained     int32
	prof        int32
	prepNs      int64 // of shares[CauseInput]: input preparation outside the DataLoader
	prepTop     int32 // the input preparation event covering most of the gap, -1
	call        int32 // the next op's launch call, -1
	blocking    bool  // that call was running when the GPU went idle
	host        int32 // a queued gap: the innermost event on the launching thread covering most of it, -1
	hostNs      int64
	otherBusy   int64 // time another stream of the device was busy in the gap (--stream only)
	suParts     []callPart
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

// explain fills the gap's shares and cause, by these rules in this order:
//
//  1. After the last op: what the last op's launching thread did next.
//  2. Host wait (the next op's launch call started after the GPU went
//     idle): what its launching thread did until the call (splitThread),
//     then the call itself (launch; startup for a start-up call), then the
//     wait after it returned (rule 4).
//  3. A blocking launch (the call started before the GPU went idle and was
//     still running then): what the thread did until the call returned,
//     the call itself innermost (launch, or startup), then rule 4.
//  4. After the launch call returned: dependency when the op's stream
//     waited on a recorded event, else dispatch (launched while the GPU
//     was idle, it started late). When the call returned before the GPU
//     went idle (queued), the whole gap: dependency when the stream
//     waited on a recorded event, else dispatch when shorter than
//     KernelWaitMaxNs, else queued.
//  5. The profiler's own events take the time they overlap, first from
//     untraced, dispatch, queued and dependency.
//
// The largest share is the cause.
func (c *causer) explain(g *gapRec, dev int, next *op, thread int32) {
	g.act, g.drained, g.prof, g.call, g.host, g.prepTop = -1, -1, -1, -1, -1, -1
	g.suParts = nil
	n := g.len()
	sp := split{inside: -1, drained: -1, prepTop: -1}
	c.suParts = c.suParts[:0]
	var call *trace.Event
	if next != nil && next.call >= 0 {
		g.call = next.call
		call = c.t.Ev(int(next.call))
	}
	// after the launch call returned: rule 4
	wait := func(from int64) {
		rest := g.e - from
		if rest <= 0 {
			return
		}
		sid := c.t.Tracks[c.t.Ev(int(next.i)).Track].Stream
		switch {
		case c.waitedOnStream(dev, sid, next, from, g.e):
			sp.ns[CauseDependency] += rest
		case from > g.s || rest < KernelWaitMaxNs:
			// launched while the GPU was idle (or back to back): it
			// started late with nothing to wait on
			sp.ns[CauseDispatch] += rest
		default:
			sp.ns[CauseQueued] += rest
		}
	}
	callCause := CauseLaunch
	if c.isStartup(g.call) {
		callCause = CauseStartup
	}
	switch {
	case next == nil: // after the last op: what the last launcher did next
		if thread >= 0 {
			sp = c.splitThread(thread, g.s, g.e, n)
		} else {
			sp.ns[CauseUntraced] = n
		}
	case call != nil && next.launch > g.s: // rule 2
		until := min(next.launch, g.e)
		sp = c.splitThread(call.Track, g.s, until, n)
		callEnd := min(max(call.End(), until), g.e)
		if d := callEnd - until; d > 0 {
			sp.ns[callCause] += d
			if callCause == CauseStartup {
				c.suParts = append(c.suParts, callPart{g.call, d})
			}
			if sp.inside < 0 && 2*d > n {
				sp.inside = g.call
				sp.insideBy[callCause] = d
			}
		}
		wait(callEnd)
		g.lag = next.launch - g.s
	case call != nil && call.End() > g.s: // rule 3
		callEnd := min(call.End(), g.e)
		sp = c.splitThread(call.Track, g.s, callEnd, n)
		g.blocking = true
		wait(callEnd)
	default: // rule 4: queued
		c.suParts = c.suParts[:0]
		sp.ns = [numCauses]int64{}
		wait(g.s)
		if call != nil && n >= KernelWaitMaxNs {
			// what the launching thread did meanwhile (the words only)
			hs := c.splitThread(call.Track, g.s, g.e, n)
			c.suParts = c.suParts[:0]
			if hs.inside >= 0 {
				e := c.t.Ev(int(hs.inside))
				g.host, g.hostNs = hs.inside, min(e.End(), g.e)-max(e.Start, g.s)
			}
			if c.others != nil {
				g.otherBusy = c.others[dev].overlap(g.s, g.e)
			}
		}
	}
	g.shares, g.drained = sp.ns, sp.drained
	if p, best := c.profilerIn(g.s, g.e); p > 0 {
		// the time moved to profiler is what the other causes held (the
		// profiler's events on the launching thread are profiler already)
		g.prof = best
		take, moved := p-g.shares[CauseProfiler], int64(0)
		for _, k := range takeOrder {
			if take <= 0 {
				break
			}
			if k == CauseProfiler {
				continue
			}
			d := min(take, g.shares[k])
			g.shares[k] -= d
			take -= d
			moved += d
		}
		g.shares[CauseProfiler] += moved
	}
	g.cause = topCause(g.shares)
	g.prepNs = min(sp.prepNs, g.shares[CauseInput])
	if g.prepNs > 0 {
		g.prepTop = sp.prepTop
	}
	if len(c.suParts) > 0 && g.shares[CauseStartup] > 0 {
		g.suParts = c.suParts
	}
	// The event named for the cause, with its time that counts for it.
	share := g.shares[g.cause]
	switch {
	case g.cause == CauseStartup:
		for _, x := range g.suParts {
			if x.ns > g.actNs {
				g.act, g.actNs = x.i, x.ns
			}
		}
	case sp.inside >= 0 && sp.insideBy[g.cause] > 0:
		g.act, g.actNs = sp.inside, sp.insideBy[g.cause]
	case g.cause == CauseLaunch && g.blocking:
		g.act, g.actNs = g.call, min(call.End(), g.e)-g.s
	case g.cause == CauseProfiler && g.prof >= 0:
		g.act, g.actNs = g.prof, share
	case g.cause == CauseSync && sp.drained >= 0 && sp.drainNs > 0:
		g.act, g.actNs = sp.drained, sp.drainNs
	}
	g.actNs = min(g.actNs, share)
	if g.actNs <= 0 {
		g.act, g.actNs = -1, 0
	}
}

// takeOrder is where the profiler's time is taken from first.
var takeOrder = append([]Cause{CauseUntraced, CauseDispatch, CauseQueued, CauseDependency}, Causes()...)

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
		Shares: g.shares, StepBefore: -1, StepAfter: -1, LaunchLagNs: g.lag, InputPrepNs: g.prepNs, BlockingLaunch: g.blocking,
		OtherStreamBusyNs: g.otherBusy}
	if g.prev >= 0 {
		out.Before = t.NameOf(int(g.prev))
		out.StepBefore = stepOf(steps, g.prevLaunchT)
	}
	if g.next >= 0 {
		out.After = t.NameOf(int(g.next))
		out.StepAfter = stepOf(steps, g.nextLaunchT)
	}
	if g.call >= 0 {
		e := t.Ev(int(g.call))
		out.LaunchCall, out.LaunchCallNs, out.HasLaunchCall = t.NameOf(int(g.call)), e.Dur, true
	}
	if n := g.len(); n > 0 {
		out.CausePct = pct(g.shares[g.cause], n)
		if g.act >= 0 {
			out.Activity, out.ActivityPct = t.NameOf(int(g.act)), pct(g.actNs, n)
		}
		if g.host >= 0 {
			out.HostActivity, out.HostActivityPct = t.NameOf(int(g.host)), pct(g.hostNs, n)
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
