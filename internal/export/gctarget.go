package export

import "sync"

// GapsGCPercent is the collector's target while gaps' report is built
// and written: its lists come and go over a heap that is mostly the
// trace's pointer-free event storage, cheap to mark. On tracegen -size
// 200MB -modules (2 pairs, shared machine) 5 instead of 20 lowered the
// peak RSS from 180 to 165 MiB at the same CPU time within the noise.
// Since the report keeps its gaps encoded (gaps/gapcodec.go) the phase's
// live heap stays below the lanes' after it, and 25 took 0.3-0.45 s of
// CPU off 5's on the 200 MB bench shapes at the same peak RSS (3 runs
// each of 5, 25, 50 and 100 on three shapes: medians 2.84/2.38/2.55 s
// at 5, 2.39/2.05/2.32 at 25; peak 110/93/101 MiB at 5, 107/92/96 at 25).
const GapsGCPercent = 25

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
