package table

import (
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

func cpuMemType(dt int8) bool { return dt == 0 || dt == 2 || dt == 5 }

func devMemType(dt int8, v Version) bool {
	return dt == 1 || dt == 6 || dt == 20 || (dt == 12 && v.skipsPythonFunctions())
}

// attachMemory is torch's memory attribution (semantics §2.7): every CPU
// event adds the bytes of every [memory] record whose time lies in its
// interval, both ends included, on any thread; records no event claimed
// become zero-length "[memory]" events of their own.
func (f *fevents) attachMemory(t *trace.Trace, v Version) {
	m := f.n()
	f.cpuMem = make([]int64, m)
	f.devMem = make([]int64, m)
	if len(t.Mem) == 0 {
		return
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
	used := make([]bool, len(t.Mem))
	for i := 0; i < m; i++ {
		if f.device[i] {
			continue
		}
		// torch compares the integer record times with start_ns/1000*1000
		// in floating point; reproduce the rounding.
		lo := int64(math.Ceil(float64(f.absNs[i][0]) / 1000 * 1000))
		hi := int64(math.Floor(float64(f.absNs[i][1]) / 1000 * 1000))
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
			if cpuMemType(r.DevType) {
				f.cpuMem[i] += r.Bytes
			}
			if devMemType(r.DevType, v) {
				f.devMem[i] += r.Bytes
			}
			used[recs[j].idx] = true
		}
	}
	memKey := int32(len(f.keys))
	f.keys = append(f.keys, "[memory]")
	for _, rc := range recs {
		r := &t.Mem[rc.idx]
		if used[rc.idx] && !r.OOM {
			continue
		}
		key := memKey
		if r.OOM {
			key = int32(len(f.keys))
			f.keys = append(f.keys, "[OutOfMemory]")
		}
		rel := float64(r.Ts-t.TraceStart) / 1000
		f.ev = append(f.ev, -1)
		f.key = append(f.key, key)
		f.start = append(f.start, rel)
		f.end = append(f.end, rel)
		f.absNs = append(f.absNs, [2]int64{rc.ns, rc.ns})
		f.kind = append(f.kind, trace.KindCPUOp)
		f.device = append(f.device, false)
		f.ann = append(f.ann, false)
		f.thread = append(f.thread, r.Track)
		f.id = append(f.id, 0)
		f.link = append(f.link, 0)
		f.firstKern = append(f.firstKern, -1)
		f.lastKern = append(f.lastKern, -1)
		var c, d int64
		if cpuMemType(r.DevType) {
			c = r.Bytes
		}
		if devMemType(r.DevType, v) {
			d = r.Bytes
		}
		f.cpuMem = append(f.cpuMem, c)
		f.devMem = append(f.devMem, d)
	}
}
