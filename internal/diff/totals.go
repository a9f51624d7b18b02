package diff

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Totals is one trace reduced to what a series of traces follows (trend):
// Reduce's totals steps, step_time and gpu_idle_pct and its op rows'
// self_cuda, each the value Reduce gives for the trace alone with
// Options{By: "op"} (one sample of the whole trace), by the same
// arithmetic. It is computed without what Reduce builds besides: the
// gaps report (only its verdict's idle accounting is read), the steps'
// GPU shares, the rows' other metrics and their sample maps.
type Totals struct {
	Steps int // total.steps
	// StepTimeNs is total.step_time, the median step; HasStepTime is false
	// without steps.
	StepTimeNs  float64
	HasStepTime bool
	// GPUIdlePct is total.gpu_idle_pct; HasGPUIdlePct is false without
	// device work.
	GPUIdlePct    float64
	HasGPUIdlePct bool
	Rows          []TotalsRow // in Reduce's row order
}

// TotalsRow is one op row's key and self device time (Row.Key, Row.Device
// and Samples["self_cuda"][0]).
type TotalsRow struct {
	Key      string
	Device   bool
	SelfCuda float64
}

// ReduceTotals computes t's Totals. u (nil: none) holds the whole
// trace's op table and gaps report when the caller has them (export):
// they are read, not computed again.
func ReduceTotals(t *trace.Trace, u *Reuse) (*Totals, error) {
	all, err := u.table(t, table.Options{})
	if err != nil {
		return nil, err
	}
	steps := t.StepWindows()
	s := &Totals{Steps: len(steps)}
	s.StepTimeNs, s.HasStepTime = medianStepTime(steps)
	var g gaps.IdleTotals
	if u != nil && u.Gaps != nil {
		v := u.Gaps.Verdict
		g = gaps.IdleTotals{SpanNs: v.SpanNs, Devices: v.Devices, BusyNs: v.BusyNs, IdleNs: v.IdleNs}
	} else {
		g = gaps.IdleTotalsOf(t)
	}
	s.GPUIdlePct, s.HasGPUIdlePct = idlePct(g.IdleNs, g.SpanNs, g.Devices)
	at := make(map[string]int, len(all.Rows))
	for i := range all.Rows {
		r := &all.Rows[i]
		key := opKey(r, false)
		k, ok := at[key]
		if !ok {
			k = len(s.Rows)
			at[key] = k
			s.Rows = append(s.Rows, TotalsRow{Key: key, Device: r.Device})
		}
		// acc.add's sum of rowVals' self_cuda, in the same order
		s.Rows[k].SelfCuda += rowVals(r)[iSelfCuda]
	}
	return s, nil
}

// medianStepTime is total.step_time of one trace: the median step window
// (false without steps).
func medianStepTime(steps []trace.Step) (float64, bool) {
	if len(steps) == 0 {
		return 0, false
	}
	d := make([]int64, 0, len(steps))
	for _, st := range steps {
		d = append(d, st.End-st.Start)
	}
	return float64(stats.MedianNs(d)), true
}

// idlePct is total.gpu_idle_pct: the verdict's idle time over its span
// times its devices (false when that is 0: no device work).
func idlePct(idleNs, spanNs int64, devices int) (float64, bool) {
	if den := spanNs * int64(devices); den > 0 {
		return pct2(idleNs, den), true
	}
	return 0, false
}
