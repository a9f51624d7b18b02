// Package report draws tracetab's findings: one self-contained HTML page
// (the gaps verdict and the trace's facts, the step-time breakdown as
// stacked bars, a zoomable timeline of CPU threads above GPU streams with
// the idle gaps shaded by cause, memory curves, sortable op and kernel
// tables with duration histograms) and SVG pictures of the step chart and
// of one step's gap timeline for Markdown.
//
// Every figure comes from the models the text commands use (gaps, info,
// table, chain, stats), passed in: the page's JavaScript only draws and
// never computes a figure. Durations are formatted here (units.Dur);
// the script formats only the times of its own axis and hover, with the
// same rule.
package report

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Inputs are the models the page shows for one trace (NewInputs).
type Inputs struct {
	File          string
	Info          *info.Info
	Gaps          *gaps.Report
	Ops           *table.Result // nil: no op table
	Kernels       []table.KernelRow
	KernelTotalNs int64
	KernelDurs    map[string][]int64 // table.KernelDurations
	StepDurs      map[int64][]int64  // table.StepKernelDurations
	Memory        []MemorySeries     // the memory model's curves, per device (none: no memory section)
	Notes         []string           // what the commands would say on stderr
	Warnings      []string
}

// MemorySeries is one device's memory curve as the memory model
// (internal/memory) gives it: the allocated and reserved bytes after each
// record (times from the trace's origin), or for a long series its
// resampled columns; and the peak with the op it happened in.
type MemorySeries struct {
	Device         string
	HasReserved    bool  // the records carry "Total Reserved"
	Relative       bool  // no "Total Allocated": levels are relative to the level before the first record
	StartBytes     int64 // the allocated before the first record
	TimesNs        []int64
	AllocatedBytes []int64
	ReservedBytes  []int64
	Columns        []MemoryColumn // instead of the points, for a long series
	PeakNs         int64
	PeakBytes      int64
	PeakOp         string
}

// MemoryColumn is a stretch of a resampled curve: the lowest and highest
// allocated held in it, and the highest reserved.
type MemoryColumn struct {
	StartNs, EndNs             int64
	MinAllocated, MaxAllocated int64
	MaxReserved                int64
}

// MaxMemoryPoints is how many points of a device's series the page holds;
// a longer one is drawn from MemoryColumns columns of its resampled curve.
const (
	MaxMemoryPoints = 40000
	MemoryColumns   = 8000
)

// Options shape the page.
type Options struct {
	Limits     Limits
	HistBins   int // bins of each kernel's and step's duration histogram
	TopOps     int // op and kernel rows in the tables
	DetailStep int64
	HasDetail  bool // DetailStep was chosen by the user
}

// DefaultOptions are those tracetab report uses.
var DefaultOptions = Options{Limits: DefaultLimits, HistBins: 24, TopOps: 100}

// Page is everything the HTML view lays out.
type Page struct {
	In       *Inputs
	Opts     Options
	Timeline *Timeline
	Chart    *StepChart
}

// Build lays out the page of trace t from the models in in.
func Build(t *trace.Trace, in *Inputs, o Options) *Page {
	p := &Page{In: in, Opts: o}
	p.Chart = NewStepChart(in.Gaps)
	detail := p.detailWindow(o)
	start, end := int64(0), int64(1)
	if in.Info != nil {
		start, end = in.Info.SpanStartNs, in.Info.SpanEndNs
	}
	p.Timeline = BuildTimeline(t, o.Limits, start, end, detail)
	return p
}

// detailWindow is the step to hold in full detail if the whole trace
// does not fit: the one the user chose, else the step of median length
// among those that are not cold, extended to the end of its GPU work as
// the step breakdown extends it.
func (p *Page) detailWindow(o Options) *Window {
	c := p.Chart
	if c == nil || len(c.Bars) == 0 {
		return nil
	}
	if o.HasDetail {
		for _, b := range c.Bars {
			if b.Step == o.DetailStep {
				return &Window{StartNs: b.StartNs, EndNs: b.StartNs + b.TotalNs, Step: b.Step}
			}
		}
		// a step the breakdown left out: its CPU window
		for _, r := range c.Rows {
			if r.Step == o.DetailStep {
				return &Window{StartNs: r.StartNs, EndNs: r.StartNs + r.CPUNs, Step: r.Step}
			}
		}
		return nil
	}
	b := c.MedianBar()
	return &Window{StartNs: b.StartNs, EndNs: b.StartNs + b.TotalNs, Step: b.Step}
}
