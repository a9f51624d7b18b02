package gaps

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// stepLanes is the per-step GPU row: the rows of trace.Steps (a device op
// belongs to the step holding its launch time; the step's share of GPU
// time by trace.FillGPU, the definition the verdict's totals follow), found
// with a cursor over launch times that mostly come in order.
func stepLanes(t *trace.Trace, o Options, keep func(i int) bool) []StepLane {
	rows, _ := stepLanesCells(t, o, keep)
	return rows
}

// stepLanesCells is stepLanes with, when o.Cells > 0, each step's cells
// from the same device work (FillGPU leaves it sorted by device and
// start).
func stepLanesCells(t *trace.Trace, o Options, keep func(i int) bool) ([]StepLane, []StepCells) {
	// the selected steps alone share the GPU time, as the verdict's
	// denominator is their union
	steps := t.StepWindows()
	trace.MarkCold(steps) // among all the steps, by their CPU times
	if o.HasStep {
		steps = slices.DeleteFunc(steps, func(s trace.Step) bool { return s.N < o.StepLo || s.N > o.StepHi })
	}
	l := t.Links()
	// room for the events of the device tracks, where device work lies (a
	// bound counted per track, not a pass over the events and the filter)
	n := 0
	for k := range t.Tracks {
		if t.Tracks[k].Kind == trace.TrackDevice {
			n += int(l.TrackStart[k+1] - l.TrackStart[k])
		}
	}
	work := make([]trace.DeviceWork, 0, n)
	devs := map[int]bool{}
	cur := trace.StepCursor{Steps: steps}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		lt := e.Start
		if r := l.Launch[i]; r >= 0 {
			lt = t.Ev(int(r)).Start
		}
		k := cur.At(lt)
		if k >= 0 {
			steps[k].DeviceOps++
			if e.Kind == trace.KindKernel {
				steps[k].Kernels++
			}
		}
		d := t.Tracks[e.Track].Device
		devs[d] = true
		work = append(work, trace.DeviceWork{Start: e.Start, End: e.End(), Device: int32(d), Step: int32(k)})
	}
	trace.FillGPU(steps, work, len(devs))
	var cells []StepCells
	if o.Cells > 0 {
		cells = stepCells(steps, work, len(devs), o.Cells, t.TraceStart)
	}
	var out []StepLane // nil when there is no step
	if len(steps) > 0 {
		out = make([]StepLane, 0, len(steps))
	}
	for _, s := range steps {
		out = append(out, StepLane{Step: s.N, StartNs: s.Start - t.TraceStart, CPUNs: s.End - s.Start, GPUWindowNs: s.GPUWindowNs,
			GPUBusyNs: s.GPUBusyNs, GPUIdleNs: s.GPUIdleNs, LargestGap: s.LargestGapNs, Cold: s.Cold})
	}
	return out, cells
}
