package cli

import (
	"strings"

	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/roofline"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// needsModel reports whether --columns asks for a roofline column (flops,
// tflops_s, pct_peak): the trace is then read with its shapes.
func (c *compactOptions) needsModel() bool {
	if c == nil || !c.cmd.Flags().Changed("columns") {
		return false
	}
	for _, k := range strings.Split(c.columns, ",") {
		if tableview.IsModelColumn(columnKey(strings.TrimSpace(k))) {
			return true
		}
	}
	return false
}

// tableRowModels computes the roofline of t and gives each op row of the
// table its figures: over the roofline rows of the same op (and shapes,
// when the table is grouped by them) that have a model, the FLOPs, the
// achieved TFLOP/s and the time-weighted % of peak.
func tableRowModels(t *trace.Trace, opts table.Options) (func(r *table.Row) *tableview.RowModel, []string) {
	res := roofline.Compute(t, roofline.Options{Torch: opts.Torch, HasSteps: opts.HasSteps, StepLo: opts.StepLo, StepHi: opts.StepHi})
	type agg struct {
		flops, ns, peakNs int64
		weighted          float64
		any               bool
	}
	by := map[string]*agg{}
	for _, r := range res.Rows {
		if r.Est == nil || r.FLOPs == nil {
			continue
		}
		key := r.Name
		if opts.GroupByShape {
			key += "\x00" + table.PyShapes(r.Dims, r.Types)
		}
		a := by[key]
		if a == nil {
			a = &agg{}
			by[key] = a
		}
		a.any = true
		a.flops += *r.FLOPs
		a.ns += r.DeviceNs
		if r.PeakPct != nil {
			a.peakNs += r.DeviceNs
			a.weighted += float64(r.DeviceNs) * *r.PeakPct
		}
	}
	var notes []string
	if !res.HasShapes {
		notes = append(notes, "--columns flops, tflops_s, pct_peak: the trace has no input shapes; record it with record_shapes=True (n/a)")
	}
	for _, d := range res.Devices {
		if d.Peak == nil {
			notes = append(notes, "--columns pct_peak: device "+itoa(d.Index)+" is not in the peak table (n/a); see tracetab roofline --help")
		}
	}
	return func(r *table.Row) *tableview.RowModel {
		if r.Device {
			return nil
		}
		key := r.Name
		if opts.GroupByShape {
			key += "\x00" + r.Shapes
		}
		a := by[key]
		if a == nil || !a.any {
			return nil
		}
		m := &tableview.RowModel{FLOPs: &a.flops}
		if a.ns > 0 {
			v := float64(a.flops) / float64(a.ns) / 1e3
			m.TFLOPs = &v
		}
		if a.peakNs > 0 {
			v := a.weighted / float64(a.peakNs)
			m.PeakPct = &v
		}
		return m
	}, notes
}
