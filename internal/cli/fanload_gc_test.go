package cli

import "testing"

// TestGCPacerTarget: the pacer's target keeps the heap goal
// (live*(1+target/100), and at least Go's own 4 MB*target/100) at the
// floor or above for a small live heap, never raises Go's least goal
// above the floor, and leaves the base target where twice the live heap
// already passes the floor.
func TestGCPacerTarget(t *testing.T) {
	const floor = 32 << 20
	g := newGCPacer(100, floor)
	goal := func(live uint64, p int) uint64 {
		return max(live*uint64(100+p)/100, runtimeHeapMin*uint64(p)/100)
	}
	for _, live := range []uint64{0, 1, 1 << 20, 3 << 20, 5 << 20, 10 << 20, 15 << 20, 16 << 20, 20 << 20, 64 << 20, 1 << 30} {
		p := g.target(live)
		if p < 100 {
			t.Errorf("live %d: target %d below the base", live, p)
		}
		if runtimeHeapMin*uint64(p)/100 > floor {
			t.Errorf("live %d: target %d raises Go's least goal to %d, above the floor", live, p, runtimeHeapMin*uint64(p)/100)
		}
		if got := goal(live, p); got < floor*99/100 && 2*live < floor {
			t.Errorf("live %d: target %d gives a goal of %d, below the floor %d", live, p, got, floor)
		}
		if 2*live >= floor && p != 100 {
			t.Errorf("live %d: target %d, want the base where the goal passes the floor by itself", live, p)
		}
	}
	var nilPacer *gcPacer
	if got := nilPacer.update(); got != -1 {
		t.Errorf("nil pacer: update = %d, want -1 (no change)", got)
	}
}
