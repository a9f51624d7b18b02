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
// the span of the breakdown's steps (bd: the selected steps).
func deviceEfficiency(t *trace.Trace, bd *Breakdown, device int) *Efficiency {
	w := EffWindow(t, bd)
	return &Efficiency{Window: w, HasArgs: kerneleff.HasArgs(t), Devices: kerneleff.Devices(t, w, func(i int) bool {
		return device < 0 || t.Tracks[t.Ev(i).Track].Device == device
	})}
}
