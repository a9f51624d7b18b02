package table

import (
	"math"
	"math/big"
	"slices"

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

// unusedMemory is the first half of torch's memory attribution (semantics
// §2.7): every CPU event adds the bytes of every [memory] record whose time
// lies in its interval, both ends included, on any thread. It stores the
// usage per trace event and returns the records no event claimed (and the
// [OutOfMemory] ones), which become "[memory]" events of their own; with
// keepMem (a selection of steps), only the records it keeps do.
func (f *fevents) unusedMemory(t *trace.Trace, v Version, isFE func(int, *trace.Event) bool, keepMem []bool) []int {
	if len(t.Mem) == 0 {
		return nil
	}
	type rec struct {
		ns  int64
		idx int
	}
	recs := make([]rec, len(t.Mem))
	for i, r := range t.Mem {
		recs[i] = rec{t.Base + r.Ts, i}
	}
	slices.SortFunc(recs, func(a, b rec) int {
		if a.ns != b.ns {
			if a.ns < b.ns {
				return -1
			}
			return 1
		}
		return a.idx - b.idx
	})
	n := t.NumEvents()
	f.evCPUMem = make([]int64, n)
	f.evDevMem = make([]int64, n)
	used := make([]bool, len(t.Mem))
	for i := 0; i < n; i++ {
		e := t.Ev(i)
		if e.Kind.IsDevice() || !isFE(i, e) {
			continue
		}
		lo, hi := memWindow(t.Base+e.Start, t.Base+e.End(), v)
		j, _ := slices.BinarySearchFunc(recs, lo, func(r rec, x int64) int {
			if r.ns < x {
				return -1
			}
			return 1
		})
		for ; j < len(recs) && recs[j].ns <= hi; j++ {
			r := &t.Mem[recs[j].idx]
			if r.OOM {
				continue
			}
			c, d := memBytes(r, v)
			f.evCPUMem[i] += c
			f.evDevMem[i] += d
			used[recs[j].idx] = true
		}
	}
	var out []int
	for _, rc := range recs {
		if (!used[rc.idx] || t.Mem[rc.idx].OOM) && (keepMem == nil || keepMem[rc.idx]) {
			out = append(out, rc.idx)
		}
	}
	return out
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

// attachMemory copies the per-event usage to list positions; a synthetic
// [memory] event has its record's bytes.
func (f *fevents) attachMemory(v Version) {
	if f.evCPUMem == nil {
		return
	}
	f.cpuMem = make([]int64, f.n())
	f.devMem = make([]int64, f.n())
	for p, i := range f.ev {
		if i >= 0 {
			f.cpuMem[p], f.devMem[p] = f.evCPUMem[i], f.evDevMem[i]
		} else {
			f.cpuMem[p], f.devMem[p] = memBytes(&f.t.Mem[^i], v)
		}
	}
	f.evCPUMem, f.evDevMem = nil, nil
}
