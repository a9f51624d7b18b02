package gaps

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// stepLanes is the per-step GPU row: the rows of trace.Steps (a device op
// belongs to the step holding its launch time), found with a cursor over
// launch times that mostly come in order and one flat array for the
// steps' device work instead of a slice per step.
func stepLanes(t *trace.Trace, o Options, keep func(i int) bool) []StepLane {
	steps := t.StepWindows()
	l := t.Links()
	// Two passes over the device ops: the first counts each step's work,
	// the second writes it in place (no per-op record in between).
	off := make([]int, len(steps)+1)
	stepOf := func(cur *stepCursor, i int, e *trace.Event) int {
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			return -1
		}
		lt := e.Start
		if r := l.Launch[i]; r >= 0 {
			lt = t.Ev(int(r)).Start
		}
		return cur.at(lt)
	}
	cur := stepCursor{steps: steps}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		k := stepOf(&cur, i, e)
		if k < 0 {
			continue
		}
		steps[k].DeviceOps++
		if e.Kind == trace.KindKernel {
			steps[k].Kernels++
		}
		off[k+1]++
	}
	for k := range steps {
		off[k+1] += off[k]
	}
	// Each step's work in event order, as trace.Steps appends it.
	work := make([][2]int64, off[len(steps)])
	next := slices.Clone(off[:len(steps)])
	cur = stepCursor{steps: steps}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if k := stepOf(&cur, i, e); k >= 0 {
			work[next[k]] = [2]int64{e.Start, e.End()}
			next[k]++
		}
	}
	for k := range steps {
		steps[k].SetDeviceWork(work[off[k]:off[k+1]])
	}
	trace.MarkCold(steps)
	var out []StepLane
	for _, s := range steps {
		if o.HasStep && (s.N < o.StepLo || s.N > o.StepHi) {
			continue
		}
		out = append(out, StepLane{Step: s.N, StartNs: s.Start - t.TraceStart, CPUNs: s.End - s.Start, GPUBusyNs: s.GPUBusyNs,
			GPUIdleNs: s.GPUSpanNs - s.GPUBusyNs, LargestGap: s.LargestGapNs, Cold: s.Cold})
	}
	return out
}
