package gaps

import (
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestAfterCallCause: rule 4's choice after the launch call returned.
func TestAfterCallCause(t *testing.T) {
	long, short := int64(KernelWaitMaxNs), int64(KernelWaitMaxNs-1)
	for _, c := range []struct {
		waited, returnedIdle bool
		rest                 int64
		want                 Cause
	}{
		{true, false, long, CauseDependency}, // a recorded wait beats everything
		{true, true, short, CauseDependency},
		{false, true, long, CauseDispatch},   // returned after the GPU went idle: late start
		{false, false, short, CauseDispatch}, // queued but shorter than 30us: back to back
		{false, false, long, CauseQueued},    // queued, 30us or more, no wait shown
	} {
		if got := afterCallCause(c.waited, c.returnedIdle, c.rest); got != c.want {
			t.Errorf("waited %v returned-idle %v rest %d: %v, want %v", c.waited, c.returnedIdle, c.rest, got, c.want)
		}
	}
}

// TestTakeForProfiler: the profiler's overlap less what it holds comes
// from untraced, dispatch, queued, dependency first, then the rest in
// display order; the gap's total is unchanged.
func TestTakeForProfiler(t *testing.T) {
	var sh [numCauses]int64
	sh[CauseUntraced], sh[CauseDispatch], sh[CauseCPU], sh[CauseProfiler] = 10, 5, 20, 3
	takeForProfiler(&sh, 25)
	// take 25 - 3 = 22: untraced 10 (12 left), dispatch 5 (7 left), queued
	// and dependency 0, input 0, cpu 7 of 20 -> 13; profiler 3 + 22 = 25
	var want [numCauses]int64
	want[CauseCPU], want[CauseProfiler] = 13, 25
	if sh != want {
		t.Errorf("shares %v, want %v", sh, want)
	}
	sh = [numCauses]int64{}
	sh[CauseCPU], sh[CauseProfiler] = 20, 3
	takeForProfiler(&sh, 2) // it holds more than it overlaps: nothing moves
	if sh[CauseCPU] != 20 || sh[CauseProfiler] != 3 {
		t.Errorf("overlap below the profiler's share: %v, want unchanged", sh)
	}
}

// TestNameActivity: the event named for the cause and its time, capped at
// the cause's share; none when no rule names one.
func TestNameActivity(t *testing.T) {
	newGap := func(cause Cause, share int64) *gapRec {
		g := &gapRec{s: 50, e: 120, cause: cause, act: -1, prof: -1, call: -1}
		g.shares[cause] = share
		return g
	}
	noSplit := split{inside: -1, drained: -1, prepTop: -1}

	g := newGap(CauseSync, 30)
	sp := noSplit
	sp.drained, sp.drainNs = 7, 40
	g.nameActivity(&sp, nil)
	if g.act != 7 || g.actNs != 30 { // the drain's 40 capped at the share 30
		t.Errorf("sync: %d %d, want 7 30", g.act, g.actNs)
	}

	g = newGap(CauseCPU, 30)
	sp = noSplit
	sp.inside = 5 // covers the gap but holds nothing for cpu
	g.nameActivity(&sp, nil)
	if g.act != -1 || g.actNs != 0 {
		t.Errorf("cpu, inside event without cpu time: %d %d, want none", g.act, g.actNs)
	}

	g = newGap(CauseLaunch, 80)
	g.blocking, g.call = true, 9
	sp = noSplit
	g.nameActivity(&sp, &trace.Event{Start: 0, Dur: 100}) // the call ends at 100: 100 - 50 = 50 of the gap
	if g.act != 9 || g.actNs != 50 {
		t.Errorf("blocking launch: %d %d, want 9 50", g.act, g.actNs)
	}

	g = newGap(CauseStartup, 20)
	g.suParts = []callPart{{3, 10}, {4, 25}, {5, 25}} // the first of the largest: 4
	sp = noSplit
	g.nameActivity(&sp, nil)
	if g.act != 4 || g.actNs != 20 { // 25 capped at 20
		t.Errorf("startup: %d %d, want 4 20", g.act, g.actNs)
	}
}
