package table

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// StepRow is one ProfilerStep#N. Times in ns.
type StepRow struct {
	Step      int64
	StartNs   int64 // offset from the trace start
	CPUNs     int64 // the step annotation's duration
	GPUBusyNs int64 // union of the device work launched from the step
	Kernels   int   // kernels launched from the step
	DeviceOps int   // kernels, memcpys and memsets launched from the step
	GPUSpanNs int64 // first start to last end of that device work
	Cold      bool  // much wider than the median step (warm-up, cold start)
}

// StepView lists the profiler steps. Device work belongs to a step when its
// launch call lies inside the step's annotation (on any thread); unlinked
// device ops belong to the step whose window holds their start.
func StepView(t *trace.Trace) []StepRow {
	l := t.Links()
	type win struct {
		n          int64
		start, end int64
	}
	var wins []win
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if e.Kind != trace.KindAnnotation && e.Kind != trace.KindCPUOp {
			continue
		}
		if n, ok := trace.StepNumber(t.NameOf(i)); ok {
			wins = append(wins, win{n, e.Start, e.End()})
		}
	}
	slices.SortFunc(wins, func(a, b win) int { return int(a.start - b.start) })
	find := func(ts int64) int {
		k, _ := slices.BinarySearchFunc(wins, ts, func(w win, x int64) int {
			switch {
			case w.start > x:
				return 1
			case w.end <= x:
				return -1
			}
			return 0
		})
		if k < len(wins) && wins[k].start <= ts && ts < wins[k].end {
			return k
		}
		if k > 0 && wins[k-1].start <= ts && ts < wins[k-1].end {
			return k - 1
		}
		return -1
	}
	rows := make([]StepRow, len(wins))
	ivs := make([][][2]int64, len(wins))
	for k, w := range wins {
		rows[k] = StepRow{Step: w.n, StartNs: w.start - t.TraceStart, CPUNs: w.end - w.start}
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		at := e.Start
		if r := l.Launch[i]; r >= 0 {
			at = t.Ev(int(r)).Start
		}
		k := find(at)
		if k < 0 {
			continue
		}
		rows[k].DeviceOps++
		if e.Kind == trace.KindKernel {
			rows[k].Kernels++
		}
		ivs[k] = append(ivs[k], [2]int64{e.Start, e.End()})
	}
	var cpu []int64
	for k := range rows {
		busy, lo, hi := Union(ivs[k])
		rows[k].GPUBusyNs = busy
		rows[k].GPUSpanNs = hi - lo
		cpu = append(cpu, rows[k].CPUNs)
	}
	if len(rows) >= 3 {
		slices.Sort(cpu)
		med := cpu[len(cpu)/2]
		rows[0].Cold = rows[0].CPUNs > med*3/2
	}
	return rows
}

// Union returns the total length of the union of intervals, and the first
// start and last end. It sorts ivs.
func Union(ivs [][2]int64) (total, lo, hi int64) {
	if len(ivs) == 0 {
		return 0, 0, 0
	}
	slices.SortFunc(ivs, func(a, b [2]int64) int {
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		return 0
	})
	lo, hi = ivs[0][0], ivs[0][1]
	cs, ce := ivs[0][0], ivs[0][1]
	for _, iv := range ivs[1:] {
		if iv[0] > ce {
			total += ce - cs
			cs, ce = iv[0], iv[1]
		} else if iv[1] > ce {
			ce = iv[1]
		}
		hi = max(hi, iv[1])
	}
	total += ce - cs
	return total, lo, hi
}
