package export

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// deviceKinds names c10::DeviceType, the "Device Type" of a [memory]
// record.
var deviceKinds = map[int8]string{
	0: "cpu", 1: "cuda", 2: "mkldnn", 3: "opengl", 4: "opencl", 5: "ideep", 6: "hip", 7: "fpga", 8: "maia",
	9: "xla", 10: "vulkan", 11: "metal", 12: "xpu", 13: "mps", 14: "meta", 15: "hpu", 16: "ve", 17: "lazy",
	18: "ipu", 19: "mtia", 20: "privateuse1",
}

func deviceKind(dt int8) string {
	if k, ok := deviceKinds[dt]; ok {
		return k
	}
	if dt < 0 {
		return "unknown"
	}
	return "type " + strconv.Itoa(int(dt))
}

// memoryRows calls emit with the [memory] and [OutOfMemory] records as
// the trace holds them, a batch at a time (tracegen -shape export at 200
// MB holds 96k: all at once they were 14 MiB of export's peak), each with
// the op that made it: the innermost cpu_op on the record's own thread
// whose interval holds the record's time, both ends included (torch
// counts a record in an op's memory when start <= ts <= end; the
// innermost such op is the one whose Self Mem it is).
//
// memOf is each record's step (memSteps).
func memoryRows(c *common, t *trace.Trace, memOf []int32, emit func([]MemoryRow) error) error {
	if len(t.Mem) == 0 {
		return nil
	}
	op := allocatingOps(t)
	steps := t.StepWindows()
	lanes := laneCols(t)
	rows := make([]MemoryRow, 0, min(len(t.Mem), batchRows))
	sl := newSlab(cap(rows), 4, 0, 1, 0)
	for k := range t.Mem {
		m := &t.Mem[k]
		r := MemoryRow{TraceID: c.id, Rank: c.rank, Record: int64(k), StartNs: m.Ts - t.TraceStart,
			DeviceType: int32(m.DevType), DeviceKind: deviceKind(m.DevType), DeviceID: int32(m.DevID),
			Bytes: m.Bytes, TotalAlloc: m.TotalAlloc, OOM: m.OOM}
		if m.DevType < 0 {
			r.DeviceType = -1
		}
		r.Pid, r.Tid = lanes[m.Track].pid, lanes[m.Track].tid // shared by the track's rows (read only)
		if m.Has&trace.MemHasAddr != 0 {
			r.Addr = sl.p64(m.Addr)
		}
		if m.Has&trace.MemHasReserved != 0 {
			r.TotalReserved = sl.p64(m.TotalReserved)
		}
		if s := memOf[k]; s >= 0 {
			r.Step = sl.p64(steps[s].N)
		}
		if o := op[k]; o >= 0 {
			r.Op = sl.p64(int64(o))
			r.OpName = sl.pstr(t.NameOf(int(o)))
		}
		rows = append(rows, r)
		if len(rows) == batchRows {
			if err := emit(rows); err != nil {
				return err
			}
			rows = rows[:0]
			sl.reset()
		}
	}
	if len(rows) > 0 {
		return emit(rows)
	}
	return nil
}

// allocatingOps finds each record's op (see memoryRows), -1 when none: per
// thread, a sweep over its cpu_ops in start order and its records in time
// order, keeping the ops still open. A thread is its pid and tid by value:
// 2021 traces write an op's tid as text ("25738") and a record's as a
// number (25738).
func allocatingOps(t *trace.Trace) []int32 {
	l := t.Links()
	op := make([]int32, len(t.Mem))
	lanes := map[string][]int32{} // thread -> its tracks with events
	for k := range t.Tracks {
		if l.TrackStart[k+1] > l.TrackStart[k] {
			key := threadKey(t, &t.Tracks[k])
			lanes[key] = append(lanes[key], int32(k))
		}
	}
	// each track's records in one flat list (a thread's key is made once
	// per track and looked up once per track, not per record: a string
	// per record was 30 ms of CPU on tracegen -shape export at 200 MB,
	// 96k records), sorted by time then index, as a stable sort by time
	// of the thread's records in file order leaves them; a track's
	// records come in time order as a rule and are only checked
	at := make([]int32, len(t.Tracks)+1)
	for k := range t.Mem {
		op[k] = -1
		at[t.Mem[k].Track+1]++
	}
	for k := range t.Tracks {
		at[k+1] += at[k]
	}
	flat := make([]int32, len(t.Mem))
	next := slices.Clone(at)
	for k := range t.Mem {
		tr := t.Mem[k].Track
		flat[next[tr]] = int32(k)
		next[tr]++
	}
	byThread := map[string][]int32{} // thread -> its tracks with records
	var keys []string                // in track order (the map's order is not needed: threads are apart)
	for k := range t.Tracks {
		if at[k+1] > at[k] {
			key := threadKey(t, &t.Tracks[k])
			if byThread[key] == nil {
				keys = append(keys, key)
			}
			byThread[key] = append(byThread[key], int32(k))
		}
	}
	byTime := func(a, b int32) int {
		if c := cmp.Compare(t.Mem[a].Ts, t.Mem[b].Ts); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	var open, buf []int32
	for _, key := range keys {
		trs := byThread[key]
		recs := flat[at[trs[0]]:at[trs[0]+1]]
		if len(trs) > 1 {
			buf = buf[:0]
			for _, tr := range trs {
				buf = append(buf, flat[at[tr]:at[tr+1]]...)
			}
			recs = buf
		}
		if !slices.IsSortedFunc(recs, byTime) {
			slices.SortFunc(recs, byTime)
		}
		var ord []int32
		if ls := lanes[key]; len(ls) == 1 {
			ord = l.Order[l.TrackStart[ls[0]]:l.TrackStart[ls[0]+1]] // read only
		} else {
			for _, tr := range ls {
				ord = append(ord, l.Order[l.TrackStart[tr]:l.TrackStart[tr+1]]...)
			}
			slices.SortFunc(ord, t.CompareInTrack)
		}
		open = open[:0]
		j := 0
		for _, k := range recs {
			ts := t.Mem[k].Ts
			for ; j < len(ord) && t.Ev(int(ord[j])).Start <= ts; j++ {
				e := t.Ev(int(ord[j]))
				if e.Kind != trace.KindCPUOp {
					continue
				}
				for len(open) > 0 && t.Ev(int(open[len(open)-1])).End() < e.Start {
					open = open[:len(open)-1]
				}
				open = append(open, ord[j])
			}
			for len(open) > 0 && t.Ev(int(open[len(open)-1])).End() < ts {
				open = open[:len(open)-1]
			}
			if len(open) > 0 {
				op[k] = open[len(open)-1]
			}
		}
	}
	return op
}

// threadKey names a track's thread by the values of its pid and tid.
func threadKey(t *trace.Trace, tr *trace.Track) string {
	id := func(v trace.ID) string {
		n, s := idCols(t, v)
		if n != nil {
			return strconv.FormatInt(*n, 10)
		}
		return "\x00" + *s
	}
	return id(tr.Pid) + "/" + id(tr.Tid)
}
