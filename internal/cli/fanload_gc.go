package cli

import "runtime/metrics"

// fanoutHeapFloor is the least heap goal while loadEach reads many files:
// Go's own least goal (4 MB at a target of 100) is far below what reading
// even a small trace allocates, so over many small files the collector
// ran every 2-4 MB allocated, and its fixed costs (stacks, sweeping,
// assists) were paid per collection, not per byte. Measured on ranks over
// 1,024 generated ranks of 0.7 MB (727 MB): one worker, 888 collections
// at 4-9 MB goals; two workers, 209 at 10-17 MB goals (9% of the CPU).
// The floor is a floor on the goal, never above it: a trace whose live
// heap is more than half of it gets the plain target, so the peak of a
// large file is what it was.
const fanoutHeapFloor = 32 << 20

// fanoutPacer is the pacer for reading n files, nil (the target left as
// it is) for one file or when --max-memory is below 16 floors: there the
// few MB the floor adds are better left to the traces.
func (e *env) fanoutPacer(n int) *gcPacer {
	if b := e.maxMemory.bytes; n < 2 || (b > 0 && b < 16*fanoutHeapFloor) {
		return nil
	}
	return newGCPacer(fanoutGCPercent, fanoutHeapFloor)
}

// gcPacer raises the collector's target while files are read so that its
// heap goal, live*(1+target/100), stays at least floor; below that the
// target is base. Its calls are on one goroutine (the one that emits).
type gcPacer struct {
	floor  uint64
	base   int
	cur    int
	sample []metrics.Sample
}

func newGCPacer(base int, floor uint64) *gcPacer {
	return &gcPacer{floor: floor, base: base, cur: base, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// target is the GC target for a live heap of live bytes: base, or more
// when live*(1+base/100) is below floor.
func (g *gcPacer) target(live uint64) int {
	if live >= g.floor {
		return g.base
	}
	// Go's least goal is itself 4 MB times target/100: past floor/4 MB
	// the target would raise it above the floor
	most := int(g.floor * 100 / runtimeHeapMin)
	if live == 0 {
		return max(g.base, most)
	}
	return max(g.base, min(most, int((g.floor-live)*100/live)))
}

// runtimeHeapMin is the Go runtime's least heap goal at a target of 100
// (defaultHeapMinimum in runtime/mgcpacer.go), scaled by the target.
const runtimeHeapMin = 4 << 20

// update sets the target for the live heap of the last collection, and
// returns it; on a nil pacer it does nothing.
func (g *gcPacer) update() int {
	if g == nil {
		return -1
	}
	metrics.Read(g.sample)
	var live uint64
	if s := g.sample[0]; s.Value.Kind() == metrics.KindUint64 {
		live = s.Value.Uint64()
	}
	if p := g.target(live); p != g.cur {
		setGCPercent(p)
		g.cur = p
	}
	return g.cur
}
