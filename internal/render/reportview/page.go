// Package reportview draws tracetab's findings: one self-contained HTML page
// (the gaps verdict and the trace's facts, the step-time breakdown as
// stacked bars, a zoomable timeline of CPU threads above GPU streams with
// the idle gaps shaded by cause, memory curves, sortable op and kernel
// tables with duration histograms) and SVG pictures of the step chart and
// of one step's gap timeline for Markdown.
//
// Every figure comes from the models the text commands use (gaps, info,
// table, chain, stats), passed in (report.NewInputs computes them): the
// page's JavaScript only draws and
// never computes a figure. Durations are formatted here (units.Dur);
// the script formats only the times of its own axis and hover, with the
// same rule.
package reportview

import (
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/trace"
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
	In       *report.Inputs
	Opts     Options
	Timeline *Timeline
	Chart    *StepChart
	Cats     *CategoryChart // nil: no device work
	Modules  *ModuleTree    // nil: no module frames
}

// Build lays out the page of trace t from the models in in.
func Build(t *trace.Trace, in *report.Inputs, o Options) *Page {
	return BuildWith(t, in, o, nil)
}

// BuildWith is Build with the timeline laid out already (TimelineOf; nil:
// laid out here).
func BuildWith(t *trace.Trace, in *report.Inputs, o Options, tl *Timeline) *Page {
	p := &Page{In: in, Opts: o}
	p.Chart = NewStepChart(in.Gaps)
	p.Cats = NewCategoryChart(in.Categories)
	p.Modules = NewModuleTree(in.Modules)
	if tl == nil {
		tl = TimelineOf(t, in, o)
	}
	p.Timeline = tl
	return p
}

// TimelineOf lays out the page's timeline: it reads of the models only
// in.Info (the span) and in.Gaps (the steps, for the step held in detail),
// so it can run while the others are computed (report.NewInputsThen).
func TimelineOf(t *trace.Trace, in *report.Inputs, o Options) *Timeline {
	p := &Page{In: in, Opts: o, Chart: NewStepChart(in.Gaps)}
	detail := p.detailWindow(o)
	start, end := int64(0), int64(1)
	if in.Info != nil {
		start, end = in.Info.SpanStartNs, in.Info.SpanEndNs
	}
	return BuildTimeline(t, o.Limits, start, end, detail)
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
