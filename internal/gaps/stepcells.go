package gaps

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// StepCells is where in one step the GPU was busy: the step's GPU window
// (trace.FillGPU, the window the step rows and the verdict measure GPU
// idle over) cut into equal cells, with the device work's time in each,
// summed over the devices. The busy times add up to the step row's GPU
// busy, the widths (times the devices) to its window on every device.
type StepCells struct {
	Step    int64
	StartNs int64   // the window's start, from the trace start
	WidthNs []int64 // cell k covers [start + w*k/n, start + w*(k+1)/n) (integer division), times the devices
	BusyNs  []int64
}

// BusyCells splits each step's GPU window into n cells (n >= 1) for the
// steps and device ops the options select (--device, --stream,
// --linked-only, --steps), the same device ops the step rows count; a step
// with an empty window has no cells.
func BusyCells(t *trace.Trace, o Options, n int) []StepCells {
	l := t.Links()
	steps := t.StepWindows()
	if o.HasStep {
		steps = slices.DeleteFunc(steps, func(s trace.Step) bool { return s.N < o.StepLo || s.N > o.StepHi })
	}
	var work []trace.DeviceWork
	byDev := map[int][][2]int64{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		tr := &t.Tracks[e.Track]
		if (o.Device >= 0 && tr.Device != o.Device) || (o.Stream >= 0 && tr.Stream != o.Stream) || (o.LinkedOnly && l.Launch[i] < 0) {
			continue
		}
		k := trace.StepAt(steps, t.LaunchTime(i))
		if o.HasStep && k < 0 {
			continue // work of the steps left out, as the verdict leaves it out
		}
		work = append(work, trace.DeviceWork{Start: e.Start, End: e.End(), Device: int32(tr.Device), Step: int32(k)})
		byDev[tr.Device] = append(byDev[tr.Device], [2]int64{e.Start, e.End()})
	}
	trace.FillGPU(steps, work, len(byDev))
	unions := make([]ivs, 0, len(byDev))
	for _, w := range byDev {
		unions = append(unions, mergeIvs(w))
	}
	out := make([]StepCells, 0, len(steps))
	for _, s := range steps {
		c := StepCells{Step: s.N, WidthNs: []int64{}, BusyNs: []int64{}}
		if s.GPUWindowNs > 0 && n >= 1 && len(unions) > 0 {
			lo, w := s.GPUFrom, s.GPUWindowNs
			c.StartNs = lo - t.TraceStart
			c.WidthNs, c.BusyNs = make([]int64, n), make([]int64, n)
			for q := range n {
				a, b := lo+w*int64(q)/int64(n), lo+w*int64(q+1)/int64(n)
				c.WidthNs[q] = (b - a) * int64(len(unions))
				for _, u := range unions {
					c.BusyNs[q] += u.overlap(a, b)
				}
			}
		}
		out = append(out, c)
	}
	return out
}
