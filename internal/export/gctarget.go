package export

import "sync"

// GapsGCPercent is the collector's target while gaps' report is built
// and written: its lists come and go over a heap that is mostly the
// trace's pointer-free event storage, cheap to mark. On tracegen -size
// 200MB -modules (2 pairs, shared machine) 5 instead of 20 lowered the
// peak RSS from 180 to 165 MiB at the same CPU time within the noise.
const GapsGCPercent = 5

// gcTarget lowers the collector's target while at least one of the
// traces exported at once is in its gaps phase, and sets the one before
// again when the last leaves it.
type gcTarget struct {
	set    func(int) int // gctune.Percent (a test's own); nil: left alone
	mu     sync.Mutex
	in     int
	before int
}

func (g *gcTarget) enter() {
	if g.set == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.in == 0 {
		g.before = g.set(GapsGCPercent)
	}
	g.in++
}

func (g *gcTarget) leave() {
	if g.set == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.in--
	if g.in == 0 {
		g.set(g.before)
	}
}
