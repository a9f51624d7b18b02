package gaps

import "github.com/tracetab/tracetab/internal/trace"

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
	c.suParts = c.suParts[:0]
	var call *trace.Event
	if next != nil && next.call >= 0 {
		g.call = next.call
		call = c.t.Ev(int(next.call))
	}
	sp := c.splitByRule(g, dev, next, thread, call)
	g.shares, g.drained = sp.ns, sp.drained
	c.profilerShare(g)
	g.cause = topCause(g.shares)
	g.prepNs = min(sp.prepNs, g.shares[CauseInput])
	if g.prepNs > 0 {
		g.prepTop = sp.prepTop
	}
	if len(c.suParts) > 0 && g.shares[CauseStartup] > 0 {
		g.suParts = c.suParts
	}
	g.nameActivity(&sp, call)
}

// splitByRule splits the gap among the causes by the first of rules 1-4
// that applies; call is the next op's launch call (nil: not in the trace).
func (c *causer) splitByRule(g *gapRec, dev int, next *op, thread int32, call *trace.Event) split {
	switch {
	case next == nil:
		return c.afterLast(g, thread)
	case call != nil && next.launch > g.s:
		return c.hostWait(g, dev, next, call)
	case call != nil && call.End() > g.s:
		return c.blockingLaunch(g, dev, next, call)
	}
	return c.queued(g, dev, next, call)
}

// afterLast is rule 1: what the last op's launching thread did next
// (untraced when that thread is unknown).
func (c *causer) afterLast(g *gapRec, thread int32) split {
	if thread >= 0 {
		return c.splitThread(thread, g.s, g.e, g.len())
	}
	sp := split{inside: -1, drained: -1, prepTop: -1}
	sp.ns[CauseUntraced] = g.len()
	return sp
}

// hostWait is rule 2: what the launching thread did until the call, the
// call itself (launch, or startup for a start-up call, named when it
// holds more than half the gap), then the wait after it returned.
func (c *causer) hostWait(g *gapRec, dev int, next *op, call *trace.Event) split {
	n := g.len()
	callCause := CauseLaunch
	if c.isStartup(g.call) {
		callCause = CauseStartup
	}
	until := min(next.launch, g.e)
	sp := c.splitThread(call.Track, g.s, until, n)
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
	c.waitAfterCall(&sp, g, dev, next, callEnd)
	g.lag = next.launch - g.s
	return sp
}

// blockingLaunch is rule 3: what the thread did until the call returned
// (the call innermost), then the wait after it.
func (c *causer) blockingLaunch(g *gapRec, dev int, next *op, call *trace.Event) split {
	callEnd := min(call.End(), g.e)
	sp := c.splitThread(call.Track, g.s, callEnd, g.len())
	g.blocking = true
	c.waitAfterCall(&sp, g, dev, next, callEnd)
	return sp
}

// queued is rule 4 for a gap whose launch call returned before the GPU
// went idle: the whole gap waits (waitAfterCall); a gap of
// KernelWaitMaxNs or more also notes what the launching thread did
// meanwhile and how long another stream of the device was busy.
func (c *causer) queued(g *gapRec, dev int, next *op, call *trace.Event) split {
	c.suParts = c.suParts[:0]
	sp := split{inside: -1, drained: -1, prepTop: -1}
	c.waitAfterCall(&sp, g, dev, next, g.s)
	if call != nil && g.len() >= KernelWaitMaxNs {
		// what the launching thread did meanwhile (the words only)
		hs := c.splitThread(call.Track, g.s, g.e, g.len())
		c.suParts = c.suParts[:0]
		if hs.inside >= 0 {
			e := c.t.Ev(int(hs.inside))
			g.host, g.hostNs = hs.inside, min(e.End(), g.e)-max(e.Start, g.s)
		}
		if c.others != nil {
			g.otherBusy = c.others[dev].overlap(g.s, g.e)
		}
	}
	return sp
}

// waitAfterCall adds the gap from from on (after the launch call
// returned) to the cause afterCallCause gives it.
func (c *causer) waitAfterCall(sp *split, g *gapRec, dev int, next *op, from int64) {
	rest := g.e - from
	if rest <= 0 {
		return
	}
	sid := c.t.Tracks[c.t.Ev(int(next.i)).Track].Stream
	waited := c.waitedOnStream(dev, sid, next, from, g.e)
	sp.ns[afterCallCause(waited, from > g.s, rest)] += rest
}

// afterCallCause is rule 4: dependency when the op's stream waited on a
// recorded event; else dispatch when the call returned after the GPU went
// idle (launched while it was idle, the op started late) or the wait is
// shorter than KernelWaitMaxNs (back to back); else queued (it waited on
// something the trace does not show).
func afterCallCause(waited, returnedIdle bool, rest int64) Cause {
	switch {
	case waited:
		return CauseDependency
	case returnedIdle || rest < KernelWaitMaxNs:
		return CauseDispatch
	}
	return CauseQueued
}

// profilerShare is rule 5: the profiler's events in the gap take the
// time they overlap; its event with the most time is noted.
func (c *causer) profilerShare(g *gapRec) {
	if p, best := c.profilerIn(g.s, g.e); p > 0 {
		g.prof = best
		takeForProfiler(&g.shares, p)
	}
}

// takeForProfiler moves p, less what the profiler holds already (its
// events on the launching thread), from the other causes in takeOrder to
// the profiler.
func takeForProfiler(sh *[numCauses]int64, p int64) {
	take, moved := p-sh[CauseProfiler], int64(0)
	for _, k := range takeOrder {
		if take <= 0 {
			break
		}
		if k == CauseProfiler {
			continue
		}
		d := min(take, sh[k])
		sh[k] -= d
		take -= d
		moved += d
	}
	sh[CauseProfiler] += moved
}

// nameActivity names the event for the cause with its time that counts
// for it, never more than the cause's share (none when that is 0): the
// start-up call part holding most; else the innermost event covering more
// than half the gap when it holds time for the cause; a blocking launch
// call; the profiler's event; the sync the pipeline drained at.
func (g *gapRec) nameActivity(sp *split, call *trace.Event) {
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
