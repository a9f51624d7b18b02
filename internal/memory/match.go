package memory

import (
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// liveAlloc is an allocation not yet freed.
type liveAlloc struct {
	j    int32 // position in the device's time order
	op   int32 // opTable index
	step int32 // index of the step holding it, -1 outside the steps
}

// opAgg accumulates one allocating op's figures on one device.
type opAgg struct {
	count, freed, never int
	bytes, maxBytes     int64
	surv                Survivor
}

// match pairs frees with allocations by Addr (the latest allocation of the
// address not yet freed) and fills Alive, Lifetimes and Leak.Survivors.
func (b *builder) match(d *Device, ord []int32) {
	t := b.t
	ops := newOpTable(t)
	aggs := []opAgg{{}}
	agg := func(op int32) *opAgg {
		for int(op) >= len(aggs) {
			aggs = append(aggs, opAgg{})
		}
		return &aggs[op]
	}
	survSteps := map[[2]int32]bool{}
	survive := func(a liveAlloc, bytes int64, never bool) {
		g := agg(a.op)
		g.surv.Bytes += bytes
		g.surv.Count++
		if never {
			g.surv.NeverFreedBytes += bytes
			g.surv.NeverFreedCount++
		}
		if k := [2]int32{a.op, a.step}; !survSteps[k] {
			survSteps[k] = true
			g.surv.Steps++
		}
	}
	peakJ := slices.Index(ord, int32(d.Peak.Record))
	steps := stepCursor{steps: b.steps}
	// the lifetimes of the freed allocations and their ops, in one
	// buffer each (grouped by op at the end: no slice per op to grow)
	lifes := make([]int64, 0, d.Frees)
	lifeOps := make([]int32, 0, d.Frees)
	live := map[int64]liveAlloc{}
	var orphans []liveAlloc // allocations whose address was allocated again before a free: never matched
	for j, i := range ord {
		r := &t.Mem[i]
		switch {
		case r.Bytes > 0:
			name, ok := b.loc.opOf(r.Track, r.Ts)
			a := liveAlloc{j: int32(j), op: ops.of(name, ok), step: int32(steps.at(r.Ts))}
			if old, dup := live[r.Addr]; dup {
				orphans = append(orphans, old)
			}
			live[r.Addr] = a
			g := agg(a.op)
			g.count++
			g.bytes += r.Bytes
			g.maxBytes = max(g.maxBytes, r.Bytes)
		case r.Bytes < 0:
			a, ok := live[r.Addr]
			if !ok {
				d.PreTraceFrees++
				d.PreTraceFreedBytes -= r.Bytes
				if j > peakJ {
					d.Alive.BeforeTraceFreedLater++
					d.Alive.BeforeTraceFreedLaterBytes -= r.Bytes
				}
				break
			}
			delete(live, r.Addr)
			ar := &t.Mem[ord[a.j]]
			if -r.Bytes != ar.Bytes {
				d.SizeMismatches++
			}
			g := agg(a.op)
			g.freed++
			lifes = append(lifes, r.Ts-ar.Ts)
			lifeOps = append(lifeOps, a.op)
			if a.step >= 0 && r.Ts >= b.steps[a.step].End {
				survive(a, ar.Bytes, false)
			}
		}
		if j == peakJ {
			b.alive(d, ord, ops, live, orphans)
		}
	}
	unfreed := func(a liveAlloc) {
		agg(a.op).never++
		if a.step >= 0 {
			survive(a, t.Mem[ord[a.j]].Bytes, true)
		}
	}
	for _, a := range live {
		unfreed(a)
	}
	for _, a := range orphans {
		unfreed(a)
	}
	// counting sort of the lifetimes by op: op k's are byOp[off[k]:off[k+1]]
	off := make([]int, len(aggs)+1)
	for k, g := range aggs {
		off[k+1] = off[k] + g.freed
	}
	byOp := make([]int64, len(lifes))
	next := slices.Clone(off[:len(aggs)])
	for i, v := range lifes {
		byOp[next[lifeOps[i]]] = v
		next[lifeOps[i]]++
	}
	lifes, lifeOps = nil, nil
	for op, g := range aggs {
		if g.count == 0 {
			continue
		}
		lt := Lifetime{Op: ops.names[op], Count: g.count, Bytes: g.bytes, MaxBytes: g.maxBytes, Freed: g.freed, NeverFreed: g.never}
		if l := byOp[off[op]:off[op+1]]; len(l) > 0 {
			slices.Sort(l)
			lt.MedianNs = stats.MedianSortedNs(l)
			lt.MaxNs = l[len(l)-1]
		}
		d.Lifetimes = append(d.Lifetimes, lt)
		if g.surv.Count > 0 {
			s := g.surv
			s.Op = ops.names[op]
			d.Leak.Survivors = append(d.Leak.Survivors, s)
		}
	}
	slices.SortFunc(d.Lifetimes, func(a, c Lifetime) int { return byBytesThenName(a.Bytes, c.Bytes, a.Op, c.Op) })
	slices.SortFunc(d.Leak.Survivors, func(a, c Survivor) int { return byBytesThenName(a.Bytes, c.Bytes, a.Op, c.Op) })
	if d.Leak.Survivors == nil {
		d.Leak.Survivors = []Survivor{}
	}
}

// alive takes the snapshot of the live allocations right after the peak
// record.
func (b *builder) alive(d *Device, ord []int32, ops *opTable, live map[int64]liveAlloc, orphans []liveAlloc) {
	t := b.t
	al := &d.Alive
	al.Measured = true
	groups := map[int32]*AliveGroup{}
	add := func(a liveAlloc) {
		r := &t.Mem[ord[a.j]]
		g := groups[a.op]
		ns := r.Ts - t.TraceStart
		if g == nil {
			g = &AliveGroup{Op: ops.names[a.op], OldestNs: ns}
			groups[a.op] = g
		}
		g.Bytes += r.Bytes
		g.Count++
		g.OldestNs = min(g.OldestNs, ns)
		al.InTraceBytes += r.Bytes
		al.InTraceCount++
	}
	for _, a := range live {
		add(a)
	}
	for _, a := range orphans {
		add(a)
	}
	al.Groups = make([]AliveGroup, 0, len(groups))
	for _, g := range groups {
		g.OldestAgeNs = d.Peak.Ns - g.OldestNs
		al.Groups = append(al.Groups, *g)
	}
	slices.SortFunc(al.Groups, func(a, c AliveGroup) int { return byBytesThenName(a.Bytes, c.Bytes, a.Op, c.Op) })
	if d.Totals {
		al.BeforeTraceBytes = max(d.Peak.Bytes-al.InTraceBytes, 0)
	}
}

// stepCursor is trace.StepAt for times that mostly come in order: it
// walks on from the last answer instead of searching every time.
type stepCursor struct {
	steps []trace.Step
	k     int // the steps starting at or before the last time asked
	last  int64
}

func (c *stepCursor) at(ts int64) int {
	if ts < c.last || c.k == 0 {
		c.k, c.last = 0, ts
		return c.search(ts)
	}
	for n := 0; c.k < len(c.steps) && c.steps[c.k].Start <= ts; n++ {
		if n == 8 {
			return c.search(ts)
		}
		c.k++
	}
	c.last = ts
	return c.check(ts)
}

// search finds k by bisection, then answers as StepAt does.
func (c *stepCursor) search(ts int64) int {
	c.k, _ = slices.BinarySearchFunc(c.steps, ts, func(s trace.Step, x int64) int {
		if s.Start <= x {
			return -1
		}
		return 1
	})
	c.last = ts
	return c.check(ts)
}

// check is StepAt's answer from k: the step holding ts among the two
// that start last at or before it.
func (c *stepCursor) check(ts int64) int {
	for j := c.k - 1; j >= 0 && j >= c.k-2; j-- {
		if s := &c.steps[j]; s.Start <= ts && ts < s.End {
			return j
		}
	}
	return -1
}
