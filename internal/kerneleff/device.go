package kerneleff

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// Window is the span the device metrics are measured over: the plugin's
// span of all steps (from the first step's start to the last one's end,
// each step extended to the device work it launched), or, in a trace
// without steps, the trace's span.
type Window struct {
	StartNs, EndNs int64  // trace time (as Event.Start)
	Of             string // "steps" or "trace"
}

// Device is one GPU's metrics over the window, by the plugin's GPU
// Summary definitions. Only kernels count (not memcpy or memset).
type Device struct {
	Device   int
	Kernels  int   // kernels on the device (all, not only in the window)
	WindowNs int64 // the window's length
	// BusyNs is the time in the window at least one kernel runs;
	// UtilizationPct is BusyNs over WindowNs.
	BusyNs         int64
	UtilizationPct float64
	// SMEfficiencyPct: at each instant the blocks per SM of the kernels
	// running then, summed and capped at 1, integrated over the window and
	// divided by its length. Kernels without the arg (or with a value <= 0)
	// add nothing; ok false when no kernel in the window carries it.
	SMEfficiencyPct float64
	HasSMEfficiency bool
	// OccupancyPct: the kernels' estimated achieved occupancy, weighted
	// by the part of each kernel inside the window; kernels without the arg
	// (or with a negative one) are left out, not counted as 0. ok false
	// when no kernel in the window carries it.
	OccupancyPct float64
	HasOccupancy bool
}

type kernelSpan struct {
	s, e   int64
	blocks int64 // trace.Nano units, NoValue when absent
	occ    int64
}

// Devices measures every device with kernels over w, by device index.
// kernel, when set, selects the kernels that count.
func Devices(t *trace.Trace, w Window, kernel func(i int) bool) []Device {
	byDev := map[int][]kernelSpan{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if e.Kind != trace.KindKernel || (kernel != nil && !kernel(i)) {
			continue
		}
		tr := &t.Tracks[e.Track]
		if tr.Kind != trace.TrackDevice {
			continue
		}
		k := kernelSpan{s: e.Start, e: e.End(), blocks: trace.NoValue, occ: trace.NoValue}
		if a := t.AuxOf(i); a != nil {
			k.blocks, k.occ = a.BlocksPerSM, a.OccupancyPct
		}
		byDev[tr.Device] = append(byDev[tr.Device], k)
	}
	var out []Device
	for dev, ks := range byDev {
		out = append(out, measure(dev, ks, w))
	}
	slices.SortFunc(out, func(a, b Device) int { return cmp.Compare(a.Device, b.Device) })
	return out
}

func measure(dev int, ks []kernelSpan, w Window) Device {
	d := Device{Device: dev, Kernels: len(ks), WindowNs: max(0, w.EndNs-w.StartNs)}
	clip := func(s, e int64) int64 { return max(0, min(e, w.EndNs)-max(s, w.StartNs)) }
	// utilization: the union of the kernels, clipped to the window
	slices.SortFunc(ks, func(a, b kernelSpan) int { return cmp.Compare(a.s, b.s) })
	var cs, ce int64
	open := false
	for _, k := range ks {
		if open && k.s <= ce {
			ce = max(ce, k.e)
			continue
		}
		if open {
			d.BusyNs += clip(cs, ce)
		}
		cs, ce, open = k.s, k.e, true
	}
	if open {
		d.BusyNs += clip(cs, ce)
	}
	if d.WindowNs > 0 {
		d.UtilizationPct = float64(d.BusyNs) * 100 / float64(d.WindowNs)
	}
	d.SMEfficiencyPct, d.HasSMEfficiency = smEfficiency(ks, w, clip, d.WindowNs)
	// occupancy: weighted by the part of each kernel in the window
	var occW float64
	var occNs int64
	for _, k := range ks {
		if k.occ == trace.NoValue || k.occ < 0 {
			continue
		}
		if c := clip(k.s, k.e); c > 0 {
			occW += float64(k.occ) / trace.Nano * float64(c)
			occNs += c
		}
	}
	if occNs > 0 {
		d.OccupancyPct, d.HasOccupancy = occW/float64(occNs), true
	}
	return d
}

// smEfficiency sweeps the kernels' starts and ends in time order (at
// equal times starts first): between two endpoints the blocks per SM of
// the running kernels, summed and capped at 1, count for the part of the
// stretch inside the window.
func smEfficiency(ks []kernelSpan, w Window, clip func(s, e int64) int64, windowNs int64) (float64, bool) {
	type point struct {
		t     int64
		end   bool
		value int64
	}
	var pts []point
	for _, k := range ks {
		if k.blocks == trace.NoValue || k.blocks <= 0 {
			continue
		}
		pts = append(pts, point{k.s, false, k.blocks}, point{k.e, true, k.blocks})
	}
	if len(pts) == 0 || windowNs <= 0 {
		return 0, false
	}
	slices.SortFunc(pts, func(a, b point) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		switch {
		case !a.end && b.end:
			return -1
		case a.end && !b.end:
			return 1
		}
		return 0
	})
	var sum float64 // capped blocks per SM x ns
	any := false
	cur := int64(0)
	last := pts[0].t
	for _, p := range pts {
		if p.t > last && cur > 0 {
			if c := clip(last, p.t); c > 0 {
				sum += float64(min(cur, trace.Nano)) / trace.Nano * float64(c)
				any = true
			}
		}
		last = p.t
		if p.end {
			cur -= p.value
		} else {
			cur += p.value
		}
	}
	if !any {
		return 0, false
	}
	return sum * 100 / float64(windowNs), true
}
