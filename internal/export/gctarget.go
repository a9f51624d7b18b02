package export

import "sync"

// GapsGCPercent is the collector's target while gaps' report is built
// and written: its lists come and go over a heap that is mostly the
// trace's pointer-free event storage, cheap to mark. On tracegen -size
// 200MB -modules (2 pairs, shared machine) 5 instead of 20 lowered the
// peak RSS from 180 to 165 MiB at the same CPU time within the noise.
// Since the report keeps its gaps encoded (gaps/gapcodec.go) the phase's
// live heap stays below the lanes' after it (65 against 80 MB on the 200
// MB default shape), so a looser target no longer sets the peak: a sweep
// of 5, 25, 50 and 100 (3 runs each, three shapes) gave the least CPU at
// 25 (medians 2.84/2.38/2.55 s at 5, 2.39/2.05/2.32 at 25) at the same
// peak RSS; paired with the binary before both changes (5 pairs a shape,
// loaded machine) export's CPU fell 9% on the default and export shapes
// and not on Kineto's, peak RSS within 5 MiB either way; 10 measured no
// better than 25.
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
