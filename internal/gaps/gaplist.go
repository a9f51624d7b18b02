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
	// one scratch record, filled in place (a gapRec is 240 bytes: each
	// copy of every gap showed in the instructions) and handed to emit by
	// pointer
	var cur gapRec
	add := func(next *op, thread int32) {
		cur.clipped = span.overlap(cur.s, cur.e)
		c.explain(&cur, dev, next, thread)
		emit(&cur)
	}
	first := q.at(0)
	if len(span) > 0 && span[0][0] < first.s {
		cur = gapRec{dev: dev, s: span[0][0], e: first.s, edge: BeforeFirst, prev: -1, next: first.i, prevLaunchT: -1, nextLaunchT: launchT(first)}
		add(first, -1)
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
		cur = gapRec{dev: dev, s: endOp.e, e: x.s, edge: Between, prev: endOp.i, next: x.i, prevLaunchT: launchT(endOp), nextLaunchT: launchT(x)}
		cur.kind = idleKind(endOp.e, x, cur.len())
		add(x, -1)
		endOp = x
	}
	if n := len(span); n > 0 && span[n-1][1] > endOp.e {
		cur = gapRec{dev: dev, s: endOp.e, e: span[n-1][1], edge: AfterLast, prev: endOp.i, next: -1, prevLaunchT: launchT(endOp), nextLaunchT: -1}
		thread := int32(-1)
		if endOp.call >= 0 {
			thread = c.t.Ev(int(endOp.call)).Track
		}
		add(nil, thread)
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
