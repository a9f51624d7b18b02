package diff

import (
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/roofline"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// ModelMetrics are the row metrics that come from the roofline's
// performance models (check budgets only; Options.Roofline computes them):
// pct_peak is an op's time-weighted % of the peak of its bound resource
// (tracetab roofline's peak_pct), one sample per step in which a modelled
// call of it ran. A floor ("min") is the budget that holds it.
var ModelMetrics = []string{"pct_peak"}

// IsModelMetric reports whether m is one of ModelMetrics.
func IsModelMetric(m string) bool { return slices.Contains(ModelMetrics, m) }

// peakAcc is, per row key and bucket, the device time of modelled calls
// measured against a peak and that time weighted by their % of peak.
type peakAcc map[string]map[int]*[2]float64

// addPeakSamples computes the roofline of t once per bucket (each group of
// steps, or the whole trace) and adds its modelled rows to a.peak under
// the key of their op row.
func addPeakSamples(s *Side, a *acc, t *trace.Trace, file string, o Options, steps []trace.Step, groups [][2]int, base int) {
	if !table.HasShapes(t) {
		s.Missing["pct_peak"] = file + ": the trace has no input shapes: record it with record_shapes=True"
		return
	}
	if a.peak == nil {
		a.peak = peakAcc{}
	}
	add := func(res *roofline.Result, bucket int) {
		for _, d := range res.Devices {
			if d.Peak == nil {
				s.Missing["pct_peak"] = file + ": device " + itoa(d.Index) + " " + d.Name + " is not in the peak table"
			}
		}
		for _, r := range res.Rows {
			if r.Est == nil || r.PeakPct == nil || r.DeviceOp {
				continue
			}
			key := r.Name
			if o.GroupByShape {
				key += " " + table.PyShapes(r.Dims, r.Types)
			}
			m := a.peak[key]
			if m == nil {
				m = map[int]*[2]float64{}
				a.peak[key] = m
			}
			v := m[bucket]
			if v == nil {
				v = &[2]float64{}
				m[bucket] = v
			}
			v[0] += float64(r.DeviceNs) * *r.PeakPct
			v[1] += float64(r.DeviceNs)
		}
	}
	if groups == nil {
		add(roofline.Compute(t, roofline.Options{Torch: o.Torch}), base)
		return
	}
	for k, g := range groups {
		add(roofline.Compute(t, roofline.Options{Torch: o.Torch, HasSteps: true, StepLo: steps[g[0]].N, StepHi: steps[g[1]].N}), base+k)
	}
}

// peakSamples are a row's pct_peak samples: one per bucket it was measured
// in, in bucket order, rounded to 0.01.
func (a *acc) peakSamples(key string, nb int) []float64 {
	var out []float64
	for b := 0; b < nb; b++ {
		if v := a.peak[key][b]; v != nil && v[1] > 0 {
			out = append(out, math.Round(v[0]/v[1]*100)/100)
		}
	}
	return out
}
