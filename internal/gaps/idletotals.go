package gaps

import "github.com/tracetab/tracetab/internal/trace"

// IdleTotals is the verdict's GPU idle accounting of a whole trace (Analyze
// over every device and stream, all steps): the denominator's length per
// device, the devices and their busy time inside it. It is the part of
// the report a series of traces follows (trend, diff's totals), computed
// from the same collection, denominator and busy sweep as Analyze's
// verdict without the gaps, their causes or the step breakdown.
type IdleTotals struct {
	SpanNs  int64 // Verdict.SpanNs
	Devices int   // Verdict.Devices
	BusyNs  int64 // Verdict.BusyNs
	IdleNs  int64 // Verdict.IdleNs: SpanNs * Devices - BusyNs
}

// IdleTotalsOf is Analyze(t, Options{Device: -1, Stream: -1}).Verdict's
// SpanNs, Devices, BusyNs and IdleNs; all zero without device work.
func IdleTotalsOf(t *trace.Trace) IdleTotals {
	l := t.Links()
	allSteps := t.StepWindows()
	_, devices := collect(t, l, nil)
	if len(devices) == 0 {
		return IdleTotals{}
	}
	span, _ := denominator(allSteps, allSteps, devices)
	v := IdleTotals{SpanNs: span.total(), Devices: len(devices)}
	for k := range devices {
		// the blocking calls only split the busy time for the sync
		// report: none are needed for the sum
		v.BusyNs += busyInside(&devices[k].seq, span, nil, nil)
	}
	v.IdleNs = v.SpanNs*int64(v.Devices) - v.BusyNs
	return v
}
