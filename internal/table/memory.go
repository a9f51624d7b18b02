package table

import (
	"cmp"
	"math"
	"math/big"
	"slices"

	"github.com/tracetab/tracetab/internal/bitset"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

func cpuMemType(dt int8) bool { return dt == 0 || dt == 2 || dt == 5 }

func devMemType(dt int8, v Version) bool {
	return dt == 1 || dt == 6 || dt == 20 || (dt == 12 && v.skipsPythonFunctions())
}

func memBytes(r *trace.MemEvent, v Version) (cpu, dev int64) {
	if cpuMemType(r.DevType) {
		cpu = r.Bytes
	}
	if devMemType(r.DevType, v) {
		dev = r.Bytes
	}
	return
}

// memIndex is the [memory] records in time order (absolute ns, ties in
// file order): their indexes into t.Mem, 4 bytes a record. A record's time
// is read back from t.Mem.
type memIndex struct {
	t   *trace.Trace
	idx []int32
}

func newMemIndex(t *trace.Trace) *memIndex {
	less := func(a, b int32) int {
		if c := cmp.Compare(t.Mem[a].Ts, t.Mem[b].Ts); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	idx := make([]int32, 0, len(t.Mem))
	// A thread's records come in time order in the file, as a rule: then
	// the few threads' runs are merged, a cursor each (a few comparisons a
	// record, not a sort's twenty); any other order is sorted.
	const maxRuns = 8
	var cur [maxRuns]int // each thread's next record
	var tracks [maxRuns]int32
	var last [maxRuns]int64 // each thread's last time (a map of them was 3 M instructions on the 20 MB export bench trace)
	runs := 0
	inOrder := true
	for i := range t.Mem {
		r := &t.Mem[i]
		k := 0
		for k < runs && tracks[k] != r.Track {
			k++
		}
		if k == runs {
			if runs == maxRuns {
				inOrder = false
				break
			}
			tracks[runs], cur[runs] = r.Track, i
			runs++
		} else if r.Ts < last[k] {
			inOrder = false
			break
		}
		last[k] = r.Ts
	}
	if !inOrder {
		for i := range t.Mem {
			idx = append(idx, int32(i))
		}
		slices.SortFunc(idx, less)
		return &memIndex{t: t, idx: idx}
	}
	for {
		best := -1
		for k := 0; k < runs; k++ {
			if cur[k] < len(t.Mem) && (best < 0 || less(int32(cur[k]), int32(cur[best])) < 0) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		idx = append(idx, int32(cur[best]))
		c := cur[best] + 1
		for c < len(t.Mem) && t.Mem[c].Track != tracks[best] {
			c++
		}
		cur[best] = c
	}
	return &memIndex{t: t, idx: idx}
}

func (m *memIndex) ns(k int) int64 { return m.t.Base + m.t.Mem[m.idx[k]].Ts }

// unusedMemory is the first half of torch's memory attribution (semantics
// §2.7): every CPU event adds the bytes of every [memory] record whose time
// lies in its interval, both ends included, on any thread. It finds the
// records no event claims (and the [OutOfMemory] ones), which become
// "[memory]" events of their own, and returns them in time order; with
// keepMem (a selection of steps), only the records it keeps. Each track's
// events come in start order, so one cursor per track finds the first
// record of each window. The bytes are added up later, by the rows
// (memTotals).
func (f *fevents) unusedMemory(t *trace.Trace, l *trace.Links, v Version, isFE, isFE2 func(int, *trace.Event) bool, keepMem []bool) []int {
	if len(t.Mem) == 0 {
		return nil
	}
	mi := newMemIndex(t)
	f.mem = mi
	var runs, devRuns [][]int32 // each track's order: CPU tracks, device tracks (whose ops are skipped)
	total := 0
	for k := range t.Tracks {
		if ord := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]; len(ord) == 0 {
			continue
		} else if t.Tracks[k].Kind == trace.TrackDevice {
			devRuns = append(devRuns, ord)
		} else {
			runs = append(runs, ord)
			total += len(ord)
		}
	}
	used := bitset.New(len(t.Mem))
	if isFE2 == nil || total < listSplitMin {
		f.markUsed(t, v, isFE, append(runs, devRuns...), used)
	} else {
		// Marking is a bit set: two goroutines mark halves of the CPU
		// tracks' events (a track's order cut in two, its second half's
		// cursor from the start) in sets of their own, joined after
		// (the Kineto bench shape at 200 MB: 5 of the 6 ms here).
		lo, hi := cutRuns(runs, total/2)
		lo = append(lo, devRuns...)
		used2 := bitset.New(len(t.Mem))
		wait := safe.Go(func() { f.markUsed(t, v, isFE2, hi, used2) }) // a panic there is raised again by wait
		f.markUsed(t, v, isFE, lo, used)
		wait()
		used.Union(used2)
	}
	var out []int
	for _, r := range mi.idx {
		if (!used.Has(int(r)) || t.Mem[r].OOM) && (keepMem == nil || keepMem[r]) {
			out = append(out, int(r))
		}
	}
	return out
}

// markUsed marks in used the records inside the window of each CPU
// FunctionEvent of runs (each in time order, CompareInTrack).
func (f *fevents) markUsed(t *trace.Trace, v Version, isFE func(int, *trace.Event) bool, runs [][]int32, used bitset.Set) {
	mi := f.mem
	n := len(mi.idx)
	for _, ord := range runs {
		// the windows come by their start (lo): the records a window
		// claims are a run of the index from its first, and the runs
		// already marked on the track end at done; what lies between
		// the window's first record and done is marked already (it is
		// inside an earlier run, which began at or before that record).
		// So each record is marked once per track, not once per
		// enclosing event (a deep stack of ops marked each record as
		// many times: 7.3 M instructions, now 5.4 M, on the 20 MB export
		// bench trace).
		j, done := 0, 0
		for _, i := range ord {
			e := t.Ev(int(i))
			if e.Kind.IsDevice() || !isFE(int(i), e) {
				continue
			}
			lo, hi := memWindow(t.Base+e.Start, t.Base+e.End(), v)
			for j < n && mi.ns(j) < lo {
				j++
			}
			q := max(j, done)
			for ; q < n && mi.ns(q) <= hi; q++ {
				used.Add(int(mi.idx[q]))
			}
			done = max(done, q)
		}
	}
}

// cutRuns cuts runs after their first k elements: lo holds those, hi the
// rest (a run cut in two has a part in each).
func cutRuns(runs [][]int32, k int) (lo, hi [][]int32) {
	for i, r := range runs {
		if k >= len(r) {
			lo = append(lo, r)
			k -= len(r)
			continue
		}
		if k > 0 {
			lo = append(lo, r[:k])
		}
		hi = append(hi, r[k:])
		return lo, append(hi, runs[i+1:]...)
	}
	return lo, nil
}

// memTotals adds up the memory of each list position for the rows, in list
// order: an event's usage is the bytes of the records in its window (the
// [OutOfMemory] ones aside), a synthetic [memory] event's its record's.
// List order is start order, so one cursor finds each window's first
// record. A parent's self memory loses its children's usage: the row of
// each position's parent is noted when the parent is met (parentRow).
type memTotals struct {
	f         *fevents
	v         Version
	j         int
	parentRow []int32 // row index + 1 of the position's CPU parent, 0 none
}

func newMemTotals(f *fevents, v Version) *memTotals {
	return &memTotals{f: f, v: v, parentRow: make([]int32, f.n())}
}

// at is the usage of position p; positions are asked for in order.
func (m *memTotals) at(p int) (cpu, dev int64) {
	f, t := m.f, m.f.t
	x := f.ev[p]
	if x < 0 {
		return memBytes(&t.Mem[^x], m.v)
	}
	e := t.Ev(int(x))
	if e.Kind.IsDevice() {
		return 0, 0
	}
	mi := f.mem
	lo, hi := memWindow(t.Base+e.Start, t.Base+e.End(), m.v)
	for m.j < len(mi.idx) && mi.ns(m.j) < lo {
		m.j++
	}
	for q := m.j; q < len(mi.idx) && mi.ns(q) <= hi; q++ {
		r := &t.Mem[mi.idx[q]]
		if r.OOM {
			continue
		}
		c, d := memBytes(r, m.v)
		cpu += c
		dev += d
	}
	return cpu, dev
}

// memWindow is the interval of record times [lo, hi] (integer ns, both
// ends included) that torch's MemRecordsAcc.in_interval selects for an op
// from abs ns start to abs ns end. 2.10 and later pass the integer
// nanoseconds; 2.4 to 2.9 pass start_ns/1000 (one correctly rounded
// division) and multiply by 1000 again in floating point, which moves the
// ends by up to half a float step on epoch timestamps; before 2.4 all
// times are integer microseconds.
func memWindow(start, end int64, v Version) (lo, hi int64) {
	if v.memoryWindowExactNs() {
		return start, end
	}
	a := roundTrip(start)
	b := roundTrip(end)
	return int64(math.Ceil(a)), int64(math.Floor(b))
}

// roundTrip is Python's float(ns / 1000) * 1000: ns/1000 correctly rounded
// to a float64, then multiplied by 1000 in float64.
func roundTrip(ns int64) float64 {
	return divRound(ns, 1000) * 1000
}

// divRound is a/b correctly rounded to float64 (Python's int / int).
func divRound(a, b int64) float64 {
	const exact = 1 << 53
	if a > -exact && a < exact {
		return float64(a) / float64(b)
	}
	f, _ := new(big.Rat).SetFrac64(a, b).Float64()
	return f
}
