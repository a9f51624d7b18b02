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
