package cli

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/trace"
)

// kernelEff gathers the kernel view's efficiency part: the per-device
// metrics over the plugin's span of the (selected) steps, and whether the
// kernels carry the args; a trace whose kernels carry none says so once.
func kernelEff(e *env, o *tableOptions, t *trace.Trace) *tableview.KernelEff {
	var keep func(n int64) bool
	if o.stepsEnabled {
		keep = func(n int64) bool { return n >= o.stepLo && n <= o.stepHi }
	}
	w := gaps.EffWindow(t, gaps.PluginSteps(t, keep))
	eff := &tableview.KernelEff{HasArgs: kerneleff.HasArgs(t), Window: w, Devices: kerneleff.Devices(t, w, nil)}
	if !eff.HasArgs && len(eff.Devices) > 0 {
		note(e.stderr, "the kernels carry no 'blocks per SM' or 'est. achieved occupancy %' args (Kineto writes them on CUDA kernels): mean blocks per SM, mean est. achieved occupancy and est. SM efficiency are not measured (null in JSON; the TC, Blk/SM and Occ% columns are left out)")
	}
	return eff
}
