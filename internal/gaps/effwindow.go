package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/trace"
)

// PluginSteps is the TensorBoard plugin's steps of t (the Overview's step
// breakdown): each step extended to the device work it launched, trailing
// steps that launched too little left out; keep selects steps by number
// (nil: all). Nil when t has no ProfilerStep#N.
func PluginSteps(t *trace.Trace, keep func(n int64) bool) *Breakdown {
	if keep == nil {
		keep = func(int64) bool { return true }
	}
	return stepBreakdown(t, t.Links(), keep)
}

// EffWindow is the window of the device efficiency metrics
// (kerneleff.Devices), as the plugin's GPU Summary takes it: from the
// start of the first step of b to the end of its last, or, when b has no
// steps, the span of t's events (the plugin then takes the span of the
// CPU ops, extended to their device work).
func EffWindow(t *trace.Trace, b *Breakdown) kerneleff.Window {
	if b != nil && len(b.Steps) > 0 {
		first, last := b.Steps[0], b.Steps[len(b.Steps)-1]
		return kerneleff.Window{StartNs: t.TraceStart + first.StartNs, EndNs: t.TraceStart + last.StartNs + last.TotalNs, Of: "steps"}
	}
	w := kerneleff.Window{Of: "trace"}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if i == 0 || e.Start < w.StartNs {
			w.StartNs = e.Start
		}
		if i == 0 || e.End() > w.EndNs {
			w.EndNs = e.End()
		}
	}
	return w
}

// Efficiency is the TensorBoard plugin's GPU Summary of each device over
// the window; HasArgs says whether the kernels carry Kineto's efficiency
// args (without them only the utilization is measured).
type Efficiency struct {
	Window  kerneleff.Window
	Devices []kerneleff.Device
	HasArgs bool
}

// Of returns device d's metrics, or nil.
func (e *Efficiency) Of(d int) *kerneleff.Device {
	if e == nil {
		return nil
	}
	for k := range e.Devices {
		if e.Devices[k].Device == d {
			return &e.Devices[k]
		}
	}
	return nil
}

// deviceEfficiency measures the devices (device >= 0: that one only) over
// the span of the breakdown's steps (bd: the selected steps). devices, when
// not nil, are the collected device lanes holding every op of their
// devices (no --stream, --linked-only or --steps): their kernels, already
// in start order, give the same figures as kerneleff.Devices without its
// gathering and sorts (devicesEff).
func deviceEfficiency(t *trace.Trace, bd *Breakdown, device int, devices []stream) *Efficiency {
	w := EffWindow(t, bd)
	e := &Efficiency{Window: w, HasArgs: kerneleff.HasArgs(t)}
	if devices != nil {
		if ds, ok := devicesEff(t, w, devices); ok {
			e.Devices = ds
			return e
		}
	}
	e.Devices = kerneleff.Devices(t, w, func(i int) bool {
		return device < 0 || t.Tracks[t.Ev(i).Track].Device == device
	})
	return e
}

// effPoint is a kernel's start or end for the SM efficiency sweep.
type effPoint struct{ t, blocks int64 }

// devicesEff is kerneleff.Devices over the kernels of the device lanes
// (each sorted by start, then event): the same definitions in the same
// order of arithmetic. kerneleff sorts a device's kernels by start alone,
// an order that is unique only when no two start at the same instant: ok
// is false when two do (the occupancy's float sum follows that order), and
// the caller takes kerneleff's own. On the 200 MB default trace this took
// kerneleff.Devices' 43 MB of allocation per run (73% of Analyze's, each 2
// MB a collection at the command's GC target of 5) and 41 ms of CPU down
// to two reused point lists.
func devicesEff(t *trace.Trace, w kerneleff.Window, devices []stream) ([]kerneleff.Device, bool) {
	var out []kerneleff.Device
	var starts, ends []effPoint
	clip := func(s, e int64) int64 { return max(0, min(e, w.EndNs)-max(s, w.StartNs)) }
	for k := range devices {
		q := &devices[k].seq
		d := kerneleff.Device{Device: devices[k].dev, WindowNs: max(0, w.EndNs-w.StartNs)}
		starts, ends = starts[:0], ends[:0]
		var cs, ce, prevS int64
		open := false
		var occW float64
		var occNs int64
		for j := range q.n() {
			x := q.at(j)
			if t.Ev(int(x.i)).Kind != trace.KindKernel {
				continue
			}
			if d.Kernels > 0 && x.s == prevS {
				return nil, false
			}
			d.Kernels++
			prevS = x.s
			// utilization: the union of the kernels, clipped to the window
			if open && x.s <= ce {
				ce = max(ce, x.e)
			} else {
				if open {
					d.BusyNs += clip(cs, ce)
				}
				cs, ce, open = x.s, x.e, true
			}
			blocks, occ := int64(trace.NoValue), int64(trace.NoValue)
			if a := t.AuxOf(int(x.i)); a != nil {
				blocks, occ = a.BlocksPerSM, a.OccupancyPct
			}
			if blocks != trace.NoValue && blocks > 0 {
				starts = append(starts, effPoint{x.s, blocks})
				ends = append(ends, effPoint{x.e, blocks})
			}
			// occupancy: weighted by the part of each kernel in the window
			if occ != trace.NoValue && occ >= 0 {
				if c := clip(x.s, x.e); c > 0 {
					occW += float64(occ) / trace.Nano * float64(c)
					occNs += c
				}
			}
		}
		if d.Kernels == 0 {
			continue
		}
		if open {
			d.BusyNs += clip(cs, ce)
		}
		if d.WindowNs > 0 {
			d.UtilizationPct = float64(d.BusyNs) * 100 / float64(d.WindowNs)
		}
		d.SMEfficiencyPct, d.HasSMEfficiency = smEff(starts, ends, clip, d.WindowNs)
		if occNs > 0 {
			d.OccupancyPct, d.HasOccupancy = occW/float64(occNs), true
		}
		out = append(out, d)
	}
	return out, true
}

// smEff is kerneleff's SM efficiency from the kernels' starts (sorted) and
// ends: between two successive instants of the points in time order, the
// blocks per SM of the running kernels, summed and capped at 1, count for
// the part of the stretch inside the window. The order of points at one
// instant changes nothing (no stretch lies between them).
func smEff(starts, ends []effPoint, clip func(s, e int64) int64, windowNs int64) (float64, bool) {
	if len(starts) == 0 || windowNs <= 0 {
		return 0, false
	}
	byT := func(a, b effPoint) int { return cmp.Compare(a.t, b.t) }
	if !slices.IsSortedFunc(ends, byT) {
		slices.SortFunc(ends, byT)
	}
	var sum float64
	seen := false
	cur := int64(0)
	last := min(starts[0].t, ends[0].t)
	i, j := 0, 0
	for i < len(starts) || j < len(ends) {
		var p effPoint
		end := false
		if j == len(ends) || (i < len(starts) && starts[i].t <= ends[j].t) {
			p = starts[i]
			i++
		} else {
			p, end = ends[j], true
			j++
		}
		if p.t > last && cur > 0 {
			if c := clip(last, p.t); c > 0 {
				sum += float64(min(cur, trace.Nano)) / trace.Nano * float64(c)
				seen = true
			}
		}
		last = p.t
		if end {
			cur -= p.blocks
		} else {
			cur += p.blocks
		}
	}
	if !seen {
		return 0, false
	}
	return sum * 100 / float64(windowNs), true
}
