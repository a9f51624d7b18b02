package diff

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Reuse holds analyses of the one trace given to Reduce that its caller
// has already made (export, which writes the whole trace's table and
// gaps' report before its trend row), so that Reduce does not make them
// again. Either may be nil: Reduce then makes it. Reduce ignores Reuse
// when it is given more than one trace.
type Reuse struct {
	// Table is table.Compute(t, table.Options{Torch: o.Torch,
	// GroupByShape: o.GroupByShape}) of the trace.
	Table *table.Result
	// Gaps is a gaps.Analyze of the whole trace (Device and Stream -1, not
	// narrowed to steps, with any Top or AllGaps): its Verdict and Devices
	// are read.
	Gaps *gaps.Report
}

// table is the whole trace's table: Reuse's or computed.
func (u *Reuse) table(t *trace.Trace, o table.Options) (*table.Result, error) {
	if u != nil && u.Table != nil {
		return u.Table, nil
	}
	return table.Compute(t, o)
}

// gaps is the whole trace's gaps report: Reuse's or analyzed.
func (u *Reuse) gaps(t *trace.Trace) *gaps.Report {
	if u != nil && u.Gaps != nil {
		return u.Gaps
	}
	return gaps.Analyze(t, gaps.Options{Device: -1, Stream: -1, Top: 1})
}
