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
// with an empty window has no cells. Analyze gives the same with
// Options.Cells, in the pass that makes the step rows.
func BusyCells(t *trace.Trace, o Options, n int) []StepCells {
	l := t.Links()
	steps := t.StepWindows()
	if o.HasStep {
		steps = slices.DeleteFunc(steps, func(s trace.Step) bool { return s.N < o.StepLo || s.N > o.StepHi })
	}
	keep := func(i int) bool {
		tr := &t.Tracks[t.Ev(i).Track]
		return (o.Device < 0 || tr.Device == o.Device) && (o.Stream < 0 || tr.Stream == o.Stream) &&
			(!o.LinkedOnly || l.Launch[i] >= 0) && (!o.HasStep || trace.StepAt(steps, t.LaunchTime(i)) >= 0)
	}
	o.Cells = n
	_, cells := stepLanesCells(t, o, keep)
	return cells
}

// stepCells cuts each step's share of GPU time (GPUFrom, GPUWindowNs, as
// FillGPU set them: disjoint and increasing) into n cells and adds each
// device's busy runs into them. work is sorted by device, then start.
func stepCells(steps []trace.Step, work []trace.DeviceWork, devices, n int, origin int64) []StepCells {
	out := make([]StepCells, len(steps))
	for k, s := range steps {
		c := StepCells{Step: s.N, WidthNs: []int64{}, BusyNs: []int64{}}
		if s.GPUWindowNs > 0 && devices > 0 {
			c.StartNs = s.GPUFrom - origin
			c.WidthNs, c.BusyNs = make([]int64, n), make([]int64, n)
			for q := range n {
				c.WidthNs[q] = (cellAt(s, q+1, n) - cellAt(s, q, n)) * int64(devices)
			}
		}
		out[k] = c
	}
	for i := 0; i < len(work); {
		j := i
		for j < len(work) && work[j].Device == work[i].Device {
			j++
		}
		k := 0
		add := func(s, e int64) { // a busy run of the device, runs in increasing order
			for k < len(steps) && steps[k].GPUFrom+steps[k].GPUWindowNs <= s {
				k++
			}
			for m := k; m < len(steps) && steps[m].GPUFrom < e; m++ {
				if len(out[m].BusyNs) > 0 {
					addRun(out[m].BusyNs, steps[m], s, e, n)
				}
			}
		}
		cs, ce := work[i].Start, work[i].End
		for _, w := range work[i+1 : j] {
			if w.Start > ce {
				add(cs, ce)
				cs, ce = w.Start, w.End
			} else {
				ce = max(ce, w.End)
			}
		}
		add(cs, ce)
		i = j
	}
	return out
}

// cellAt is where cell q of the step's window starts (q = n: its end).
func cellAt(s trace.Step, q, n int) int64 {
	return s.GPUFrom + s.GPUWindowNs*int64(q)/int64(n)
}

// addRun adds the part of the run [a, b) inside each cell of the step.
func addRun(busy []int64, s trace.Step, a, b int64, n int) {
	a, b = max(a, s.GPUFrom), min(b, s.GPUFrom+s.GPUWindowNs)
	if a >= b {
		return
	}
	for q := int((a - s.GPUFrom) * int64(n) / s.GPUWindowNs); q < n; q++ {
		lo, hi := cellAt(s, q, n), cellAt(s, q+1, n)
		if lo >= b {
			break
		}
		if o := min(b, hi) - max(a, lo); o > 0 {
			busy[q] += o
		}
	}
}
