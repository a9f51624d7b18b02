package gaps

import (
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

// effPoint is a kernel's end for the SM efficiency sweep.
type effPoint struct{ t, blocks int64 }

// devicesEff is kerneleff.Devices over the kernels of the device lanes
// (each sorted by start, then event): the same definitions in the same
// order of arithmetic. kerneleff sorts a device's kernels by start alone,
// an order that is unique only when no two start at the same instant: ok
// is false when two do (the occupancy's float sum follows that order), or
// when a kernel ends before it starts, and the caller takes kerneleff's
// own. On the 200 MB default trace kerneleff.Devices allocated 43 MB per
// run (73% of Analyze's, each 2 MB a collection at the command's GC target
// of 5) and took 41 ms of CPU; this allocates nothing per kernel.
func devicesEff(t *trace.Trace, w kerneleff.Window, devices []stream) ([]kerneleff.Device, bool) {
	var out []kerneleff.Device
	var running effHeap
	clip := func(s, e int64) int64 { return max(0, min(e, w.EndNs)-max(s, w.StartNs)) }
	for k := range devices {
		q := &devices[k].seq
		d := kerneleff.Device{Device: devices[k].dev, WindowNs: max(0, w.EndNs-w.StartNs)}
		var cs, ce, prevS int64
		open := false
		var occW float64
		var occNs int64
		sm := smSweep{clip: clip}
		running = running[:0]
		for j := range q.n() {
			x := q.at(j)
			if t.Ev(int(x.i)).Kind != trace.KindKernel {
				continue
			}
			if (d.Kernels > 0 && x.s == prevS) || x.e < x.s {
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
				// the SM efficiency's points in time order: the ends
				// before this start, then the start
				for len(running) > 0 && running[0].t < x.s {
					sm.point(running.pop(), true)
				}
				sm.point(effPoint{x.s, blocks}, false)
				running.push(effPoint{x.e, blocks})
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
		for len(running) > 0 {
			sm.point(running.pop(), true)
		}
		if sm.seen && d.WindowNs > 0 {
			d.SMEfficiencyPct, d.HasSMEfficiency = sm.sum*100/float64(d.WindowNs), true
		}
		if occNs > 0 {
			d.OccupancyPct, d.HasOccupancy = occW/float64(occNs), true
		}
		out = append(out, d)
	}
	return out, true
}

// smSweep is kerneleff's SM efficiency over the kernels' starts and ends
// in time order: between two successive instants, the blocks per SM of
// the running kernels, summed and capped at 1, count for the part of the
// stretch inside the window. The order of points at one instant changes
// nothing (no stretch lies between them).
type smSweep struct {
	clip    func(s, e int64) int64
	sum     float64 // capped blocks per SM x ns
	seen    bool    // some stretch counted
	started bool
	cur     int64
	last    int64
}

func (w *smSweep) point(p effPoint, end bool) {
	if !w.started {
		w.started, w.last = true, p.t
	}
	if p.t > w.last && w.cur > 0 {
		if c := w.clip(w.last, p.t); c > 0 {
			w.sum += float64(min(w.cur, trace.Nano)) / trace.Nano * float64(c)
			w.seen = true
		}
	}
	w.last = p.t
	if end {
		w.cur -= p.blocks
	} else {
		w.cur += p.blocks
	}
}

// effHeap is the running kernels' ends, the earliest first (a binary heap:
// it holds the kernels running at once).
type effHeap []effPoint

func (h *effHeap) push(p effPoint) {
	*h = append(*h, p)
	x := *h
	for k := len(x) - 1; k > 0; {
		up := (k - 1) / 2
		if x[up].t <= x[k].t {
			break
		}
		x[up], x[k] = x[k], x[up]
		k = up
	}
}

func (h *effHeap) pop() effPoint {
	x := *h
	top := x[0]
	n := len(x) - 1
	x[0] = x[n]
	x = x[:n]
	for k := 0; ; {
		c := 2*k + 1
		if c >= n {
			break
		}
		if c+1 < n && x[c+1].t < x[c].t {
			c++
		}
		if x[k].t <= x[c].t {
			break
		}
		x[k], x[c] = x[c], x[k]
		k = c
	}
	*h = x
	return top
}
