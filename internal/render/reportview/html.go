package reportview

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/render/infoview"
	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

//go:embed assets/page.html
var pageHTML string

//go:embed assets/page.css
var pageCSS string

//go:embed assets/page.js
var pageJS string

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

// fact is one line of tracetab info's text: a label and its value.
type fact struct{ Label, Value string }

// figure is a number shown on the page: its key (the gaps JSON field),
// the integer ns and the text shown.
type figure struct {
	Key, Label, Text, Share string
	Ns                      int64
	Color                   string
}

type stepDetail struct {
	Step      int64
	Cold      bool
	Title     string
	Total     figure
	Roles     []figure
	Row       []figure // the gaps step row: cpu_ns, gpu_busy_ns, gpu_idle_ns, largest_gap_ns
	Extended  string
	Hist      template.HTML
	HistTitle string
	StartNs   int64
	EndNs     int64
}

type cellView struct {
	Text  string
	Title string        // the full name, on hover, when Text is its label
	HTML  template.HTML // drawn instead of Text (a histogram)
	Sort  string        // the value the column sorts by
	Num   bool
}

type tableView struct {
	ID      string
	Caption string
	Headers []string
	Num     []bool
	Rows    [][]cellView
	Body    template.HTML // the rows' markup (tableBody)
	Note    string
}

type verdictView struct {
	Class, Headline, Advice, Span string
	Also                          []string
	Causes                        []figure
}

type view struct {
	Title     string
	File      string
	Verdict   *verdictView
	NoGPU     string
	Facts     []fact
	Notes     []string
	Warnings  []string
	Chart     template.HTML
	ChartNote []string
	Steps     []stepDetail
	StepsHTML template.HTML // the steps' markup (stepsHTML)
	Limits    []string
	Legend    []figure
	HasMemory bool
	Cats      *categoriesView
	Modules   *modulesView
	Tables    []tableView
	CSS       template.CSS
	JS        template.JS
	Data      template.JS
}

// WriteHTML writes the page.
func (p *Page) WriteHTML(w io.Writer, t *trace.Trace) error {
	// the timeline's data (3.5-5 ms on the 200 MB bench traces) is
	// written beside the markup (4.5-7.5 ms): both only read the page
	var data []byte
	var dataErr error
	wait := safe.Go(func() { data, dataErr = p.data(t) }) // a panic there is raised again by wait
	v := view{Title: "tracetab report: " + p.In.File, File: p.In.File, Notes: p.In.Notes, Warnings: p.In.Warnings,
		CSS: template.CSS(pageCSS), JS: template.JS(pageJS), HasMemory: len(p.In.Memory) > 0}
	v.verdict(p)
	v.facts(p)
	if c := p.Chart; c != nil {
		v.Chart = c.SVG(false)
		if c.Note != "" {
			v.ChartNote = append(v.ChartNote, c.Note)
		}
		// one voice: the verdict's advice (and its "also" lines) speaks
		// for the step breakdown too
		if n := c.ShownNote(); n != "" {
			v.ChartNote = append(v.ChartNote, n)
		}
		for _, k := range c.Shown {
			v.Steps = append(v.Steps, p.stepDetail(&c.Bars[k]))
		}
		v.StepsHTML = stepsHTML(v.Steps)
	}
	v.categories(p)
	v.modules(p)
	v.Limits = p.limitNotes()
	v.Legend = p.legend()
	v.Tables = append(v.Tables, p.kernelTable(), p.opTable())
	for i := range v.Tables {
		v.Tables[i].Body = tableBody(v.Tables[i].Rows)
	}
	wait()
	if dataErr != nil {
		return dataErr
	}
	v.Data = template.JS(data)
	// The page goes out as the template writes it, through a small
	// buffer: the whole page in one buffer (sized ahead at its data,
	// script and style and 1 MB of markup) was grown past the markup of a
	// 200 MB trace's steps and tables, a copy into 7.7 MB for a 3.9 MB
	// page, and then copied again to w.
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := pageTmpl.Execute(bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

func (v *view) verdict(p *Page) {
	r := p.In.Gaps
	if r == nil {
		return
	}
	vd := r.Verdict
	if r.NoGPU {
		v.NoGPU = vd.Headline
		return
	}
	vv := &verdictView{Class: vd.Class, Headline: vd.Headline, Advice: vd.Advice, Also: vd.Also,
		Span: vd.Denominator + ": " + units.Dur(vd.SpanNs) + " per device; GPU busy " + units.Dur(vd.BusyNs) + ", idle " +
			units.Dur(vd.IdleNs) + " (" + units.Pct(vd.IdlePct) + "%); CPU active on the launching threads " + units.Dur(vd.CPUActiveNs) +
			" of " + units.Dur(vd.CPUWindowNs)}
	for _, c := range gaps.Causes() {
		if ns := vd.IdleByCause[c]; ns > 0 {
			vv.Causes = append(vv.Causes, figure{Key: c.String(), Label: c.String(), Ns: ns, Text: units.Dur(ns), Share: pct(ns, vd.IdleNs) + "%",
				Color: CauseColors[c]})
		}
	}
	v.Verdict = vv
}

// facts are tracetab info's text lines, label and value.
func (v *view) facts(p *Page) {
	if p.In.Info == nil {
		return
	}
	var b strings.Builder
	infoview.Text(&b, p.In.Info, 0)
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		// a label fills 12 columns; a longer one (a device's name) ends at ": "
		label, value := "", line
		switch k := strings.Index(line, ": "); {
		case len(line) > 12 && line[11] == ' ':
			label, value = strings.TrimSpace(line[:12]), line[12:]
		case k > 0:
			label, value = line[:k], line[k+2:]
		}
		v.Facts = append(v.Facts, fact{label, value})
	}
}

func (p *Page) stepDetail(b *Bar) stepDetail {
	d := stepDetail{Step: b.Step, Cold: b.Cold, StartNs: b.StartNs, EndNs: b.StartNs + b.TotalNs,
		Total: figure{Key: "total_ns", Label: "Total", Ns: b.TotalNs, Text: units.Dur(b.TotalNs), Share: "100.00%"}}
	d.Title = "ProfilerStep#" + itoa(b.Step) + " from " + units.Dur(b.StartNs)
	if b.Cold {
		d.Title += " (cold: much longer than the median step)"
	}
	for r, ns := range b.Ns {
		d.Roles = append(d.Roles, figure{Key: RoleKeys[r], Label: roleName(r), Ns: ns, Text: units.Dur(ns), Share: pct(ns, b.TotalNs) + "%", Color: RoleColors[r]})
	}
	if b.ExtendedByNs > 0 {
		d.Extended = "extended by " + units.Dur(b.ExtendedByNs) + " past its CPU end, to the end of the GPU work it launched"
	}
	if s := b.Row; s != nil {
		d.Row = []figure{
			{Key: "cpu_ns", Label: "CPU time", Ns: s.CPUNs, Text: units.Dur(s.CPUNs)},
			{Key: "gpu_busy_ns", Label: "GPU busy", Ns: s.GPUBusyNs, Text: units.Dur(s.GPUBusyNs)},
			{Key: "gpu_idle_ns", Label: "GPU idle", Ns: s.GPUIdleNs, Text: units.Dur(s.GPUIdleNs)},
			{Key: "largest_gap_ns", Label: "Largest gap", Ns: s.LargestGap, Text: units.Dur(s.LargestGap)},
		}
	}
	if durs := p.In.StepDurs[b.Step]; len(durs) > 0 {
		h := stats.NewLogHist(durs, p.Opts.HistBins)
		d.Hist = histSVG(h, 320, 60)
		d.HistTitle = units.Plural(len(durs), "device op", "device ops") + " launched in the step, durations in " +
			units.Plural(len(h.Counts), "log bin", "log bins") + " from " + units.Dur(h.MinNs) + " to " + units.Dur(h.MaxNs)
	}
	return d
}

// histSVG draws a histogram's bins as bars, each with its range and count.
//
// The bins are appended by hand, the bytes fmt's verbs wrote (%d as
// strconv.AppendInt, %.2f as strconv.AppendFloat with 'f' and 2): the
// page has some 5,700 of them (a histogram per shown step and per kernel
// row): fmt.Fprintf with its nine arguments took 13.5 M of fmt's 26 M
// instructions on the 20 MB export-shape trace, these appends 2 M
// (cachegrind).
func histSVG(h stats.LogHist, w, ht int) template.HTML {
	b := make([]byte, 0, 160*(len(h.Counts)+1))
	b = fmt.Appendf(b, `<svg class="hist" viewBox="0 0 %d %d" width="%d" height="%d" data-bins="%d">`, w, ht, w, ht, len(h.Counts))
	bw := float64(w) / float64(max(len(h.Counts), 1))
	for k, c := range h.Counts {
		bh := 0.0
		if h.MaxCount > 0 && c > 0 {
			bh = math.Max(float64(ht-2)*float64(c)/float64(h.MaxCount), 1)
		}
		hi := "<"
		if k == len(h.Counts)-1 {
			hi = "<="
		}
		b = append(b, `<rect data-count="`...)
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, `" x="`...)
		b = strconv.AppendFloat(b, bw*float64(k)+0.5, 'f', 2, 64)
		b = append(b, `" y="`...)
		b = strconv.AppendFloat(b, float64(ht)-bh, 'f', 2, 64)
		b = append(b, `" width="`...)
		b = strconv.AppendFloat(b, math.Max(bw-1, 0.5), 'f', 2, 64)
		b = append(b, `" height="`...)
		b = strconv.AppendFloat(b, bh, 'f', 2, 64)
		b = append(b, `" fill="#3f8f3a"><title>`...)
		b = append(b, esc(units.Dur(h.EdgesNs[k]))...)
		b = append(b, " to "...)
		b = append(b, hi...)
		b = append(b, ' ')
		b = append(b, esc(units.Dur(h.EdgesNs[k+1]))...)
		b = append(b, ": "...)
		b = append(b, esc(strconv.Itoa(c))...)
		b = append(b, "</title></rect>"...)
	}
	b = append(b, `</svg>`...)
	return template.HTML(b)
}

func (p *Page) limitNotes() []string {
	tl := p.Timeline
	var out []string
	out = append(out, units.Plural(tl.Written, "event is", "events are")+" drawn one by one, of "+strconv.Itoa(tl.Events)+
		"; at each zoom, events narrower than a pixel are drawn as density bands (the share of the time they cover)")
	if tl.ShortestWrittenNs > 0 {
		s := "the page holds at most " + strconv.Itoa(p.Opts.Limits.MaxEvents) + " events one by one: "
		if tl.Detail != nil {
			s += "every event of ProfilerStep#" + itoa(tl.Detail.Step) + " (drawn in full detail), then "
		}
		s += "each lane's longest events, shared among the lanes; the shorter ones (the lane's name says from which length) are in the bands only, at every zoom"
		out = append(out, s)
	}
	if n := len(tl.Levels); n > 0 {
		s := "the bands have " + units.Plural(n, "level", "levels") + " of detail, bins from " + units.Dur(tl.Levels[0].BinNs) + " to " +
			units.Dur(tl.Levels[n-1].BinNs)
		if tl.Detail != nil && tl.Levels[n-1].FromNs != tl.StartNs {
			s += " (the finer ones within ProfilerStep#" + itoa(tl.Detail.Step) + ")"
		}
		out = append(out, s)
	}
	if tl.CPULanesLeftOut > 0 {
		out = append(out, units.Plural(tl.CPULanesLeftOut, "CPU thread", "CPU threads")+" with fewer events are not drawn (at most "+
			strconv.Itoa(p.Opts.Limits.MaxCPULanes)+")")
	}
	if tl.DeeperRowsFolded > 0 {
		out = append(out, units.Plural(tl.DeeperRowsFolded, "CPU event nested", "CPU events nested")+" deeper than "+
			strconv.Itoa(p.Opts.Limits.MaxCPURows)+" levels are drawn in the last row")
	}
	if tl.OverlapRowsFolded > 0 {
		out = append(out, units.Plural(tl.OverlapRowsFolded, "device op overlaps", "device ops overlap")+" more than "+
			strconv.Itoa(p.Opts.Limits.MaxGPURows-1)+" others on its stream and is drawn in the last row")
	}
	if len(p.In.Memory) == 0 {
		out = append(out, "no memory curves: the trace has no [memory] events (torch.profiler records them with profile_memory=True)")
	}
	if r := p.In.Gaps; r != nil && len(r.Gaps) > 0 {
		out = append(out, "shaded: the "+units.Plural(len(r.Gaps), "largest GPU gap", "largest GPU gaps")+" of tracetab gaps, by cause")
	}
	return out
}

func durCell(ns int64) cellView { return cellView{Text: units.Dur(ns), Sort: itoa(ns), Num: true} }
func usDurCell(us float64) cellView {
	return durCell(int64(math.Round(us * 1e3)))
}
func intCell(n int64) cellView   { return cellView{Text: itoa(n), Sort: itoa(n), Num: true} }
func textCell(s string) cellView { return cellView{Text: s, Sort: s} }

func (p *Page) kernelTable() tableView {
	tv := tableView{ID: "kernels", Caption: "Kernels, memcpys and memsets by name (tracetab table --by kernel)",
		Headers: []string{"Name", "Kind", "Class", "Calls", "Total", "Time %", "Avg", "Median", "Min", "Max", "Durations (log bins, min to max)"},
		Num:     []bool{false, false, false, true, true, true, true, true, true, true, false}}
	rows := p.In.Kernels
	if len(rows) > p.Opts.TopOps {
		tv.Note = "the " + strconv.Itoa(p.Opts.TopOps) + " with the largest total time of " + strconv.Itoa(len(rows))
		rows = rows[:p.Opts.TopOps]
	}
	if len(rows) == 0 {
		tv.Note = "the trace has no GPU kernels, memcpys or memsets"
	}
	rnd := func(ns float64) int64 { return int64(math.Round(ns)) }
	full := make([]string, len(rows))
	for i, r := range rows {
		full[i] = names.Demangle(r.Name)
	}
	labels := names.Labels(full, reportLabelWidth)
	for i, r := range rows {
		h := stats.NewLogHist(p.In.KernelDurs[r.Name], p.Opts.HistBins)
		hist := histSVG(h, 160, 22)
		tv.Rows = append(tv.Rows, []cellView{{Text: labels[i], Title: full[i], Sort: r.Name}, textCell(r.Kind.String()), textCell(r.Class),
			intCell(r.Count), durCell(r.TotalNs), {Text: units.Pct(r.Pct), Sort: strconv.FormatFloat(r.Pct, 'f', 4, 64), Num: true},
			durCell(rnd(r.MeanNs)), durCell(r.MedianNs), durCell(r.MinNs), durCell(r.MaxNs), {HTML: hist, Sort: itoa(r.MaxNs - r.MinNs)}})
	}
	return tv
}

func (p *Page) opTable() tableView {
	tv := tableView{ID: "ops", Caption: "Ops (tracetab table: torch's key_averages by the recording torch's rules)",
		Headers: []string{"Name", "Calls", "Self CPU", "CPU total", "CPU avg", "Self CUDA", "CUDA total"},
		Num:     []bool{false, true, true, true, true, true, true}}
	res := p.In.Ops
	if res == nil || len(res.Rows) == 0 {
		tv.Note = "the trace has no op rows"
		return tv
	}
	rows := res.Rows
	if len(rows) > p.Opts.TopOps {
		tv.Note = "the " + strconv.Itoa(p.Opts.TopOps) + " first in torch's order (sorted by self CUDA time, else self CPU time) of " + strconv.Itoa(len(rows))
		rows = rows[:p.Opts.TopOps]
	}
	full := make([]string, len(rows))
	for i, r := range rows {
		full[i] = names.Demangle(r.Name)
	}
	labels := names.Labels(full, reportLabelWidth)
	for i, r := range rows {
		name := r.Name
		if r.Device {
			name += tableview.GPUMarker
			labels[i] += tableview.GPUMarker
			full[i] += tableview.GPUMarker
		}
		tv.Rows = append(tv.Rows, []cellView{{Text: labels[i], Title: full[i], Sort: name}, intCell(r.Count), usDurCell(r.SelfCPU), usDurCell(r.CPUTotal),
			usDurCell(r.CPUAvg()), usDurCell(r.SelfDev), usDurCell(r.DevTotal)})
	}
	return tv
}

// reportLabelWidth is the name cells' width: a label (names.Labels, the
// rule of the text views) on one or two lines of the table, the full name
// on hover.
const reportLabelWidth = 60

// kindColors colour the timeline's events by kind.
var kindColors = map[trace.Kind]string{
	trace.KindCPUOp: "#4a7fc1", trace.KindAnnotation: "#8a63c2", trace.KindPython: "#9aa5b1", trace.KindRuntime: "#d9603b",
	trace.KindDriver: "#d9603b", trace.KindOverhead: "#777777", trace.KindKernel: "#3f8f3a", trace.KindMemcpy: "#e0a030",
	trace.KindMemset: "#c8609c", trace.KindOther: "#b0b0b0",
}

var legendKinds = []struct {
	k     trace.Kind
	label string
}{{trace.KindCPUOp, "CPU op"}, {trace.KindAnnotation, "annotation"}, {trace.KindPython, "Python"}, {trace.KindRuntime, "runtime/driver call"},
	{trace.KindOverhead, "profiler overhead"}, {trace.KindKernel, "kernel"}, {trace.KindMemcpy, "memcpy"}, {trace.KindMemset, "memset"}}

func (p *Page) legend() []figure {
	var out []figure
	for _, lk := range legendKinds {
		out = append(out, figure{Label: lk.label, Color: kindColors[lk.k]})
	}
	if r := p.In.Gaps; r != nil {
		seen := map[gaps.Cause]bool{}
		for _, g := range r.Gaps {
			if !seen[g.Cause] {
				seen[g.Cause] = true
				out = append(out, figure{Label: "GPU idle: " + g.Cause.String(), Color: CauseColors[g.Cause]})
			}
		}
	}
	return out
}

// tableBody is the markup of a table's rows, as the page's template wrote
// it from the cells before, with html/template's escapes of text in an
// element and in a quoted attribute (escapeText): the template's
// reflection and escaping per field of 2,200 cells (several fields each)
// took 16 M instructions of the 20 MB export-shape trace's 1,155 M
// (cachegrind); TestTableBodyMatchesTemplate holds it to the template.
func tableBody(rows [][]cellView) template.HTML {
	var b []byte
	for _, row := range rows {
		b = append(b, "<tr>"...)
		for i := range row {
			c := &row[i]
			b = append(b, "<td"...)
			if c.Num {
				b = append(b, ` class="num"`...)
			}
			if c.Title != "" && c.Title != c.Text {
				b = append(b, ` title="`...)
				b = escapeText(b, c.Title)
				b = append(b, '"')
			}
			b = append(b, ` data-sort="`...)
			b = escapeText(b, c.Sort)
			b = append(b, `">`...)
			if c.HTML != "" {
				b = append(b, c.HTML...)
			} else {
				b = escapeText(b, c.Text)
			}
			b = append(b, "</td>"...)
		}
		b = append(b, "</tr>\n"...)
	}
	return template.HTML(b)
}

// escapeText appends s with html/template's escapes of a plain string in
// an element's text or a quoted attribute's value (its htmlEscaper and
// attrEscaper: htmlReplacementTable, bad runes kept): NUL, ", &, ', +, <
// and >; every other byte as it is.
func escapeText(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, r...)
		start = i + 1
	}
	return append(b, s[start:]...)
}

// stepsHTML is the markup of the steps' details, as the page's template
// wrote it from them before, with html/template's escapes (escapeText,
// and a colour as a CSS value, cssColor): the template's reflection and
// escaper calls for the 70 or so fields of each of the 139 steps shown
// took 45 M instructions of the 20 MB export-shape trace's 1,093 M
// (cachegrind: reflect 24 M, text/template 13 M, html/template 4 M, fmt
// 3 M; 1,033 M after); TestStepsHTMLMatchesTemplate holds it to the
// template.
func stepsHTML(steps []stepDetail) template.HTML {
	var b []byte
	for i := range steps {
		d := &steps[i]
		b = append(b, `<div class="step-detail" data-step="`...)
		b = strconv.AppendInt(b, d.Step, 10)
		b = append(b, `" data-start-ns="`...)
		b = strconv.AppendInt(b, d.StartNs, 10)
		b = append(b, `" data-end-ns="`...)
		b = strconv.AppendInt(b, d.EndNs, 10)
		b = append(b, "\" hidden>\n<h3>"...)
		b = escapeText(b, d.Title)
		b = append(b, "</h3>\n<table class=\"step-roles\">\n"...)
		for j := range d.Roles {
			f := &d.Roles[j]
			b = figureRow(b, `<tr class="role" data-key="`, f)
			b = append(b, `"><td><i style="background:`...)
			b = cssColor(b, f.Color)
			b = append(b, `"></i>`...)
			b = escapeText(b, f.Label)
			b = append(b, `</td><td class="num">`...)
			b = escapeText(b, f.Text)
			b = append(b, `</td><td class="num">`...)
			b = escapeText(b, f.Share)
			b = append(b, "</td></tr>\n"...)
		}
		f := &d.Total
		b = figureRow(b, `<tr class="role total" data-key="`, f)
		b = append(b, `"><th>`...)
		b = escapeText(b, f.Label)
		b = append(b, `</th><th class="num">`...)
		b = escapeText(b, f.Text)
		b = append(b, `</th><th class="num">`...)
		b = escapeText(b, f.Share)
		b = append(b, "</th></tr>\n</table>\n"...)
		if d.Extended != "" {
			b = append(b, `<p class="hint">`...)
			b = escapeText(b, d.Extended)
			b = append(b, `</p>`...)
		}
		b = append(b, '\n')
		if len(d.Row) > 0 {
			b = append(b, `<table class="step-row">`...)
			for j := range d.Row {
				f := &d.Row[j]
				b = figureRow(b, `<tr class="figure" data-key="`, f)
				b = append(b, `"><td>`...)
				b = escapeText(b, f.Label)
				b = append(b, `</td><td class="num">`...)
				b = escapeText(b, f.Text)
				b = append(b, `</td></tr>`...)
			}
			b = append(b, `</table>`...)
		}
		b = append(b, '\n')
		if d.Hist != "" {
			b = append(b, `<div class="hint">`...)
			b = escapeText(b, d.HistTitle)
			b = append(b, `</div>`...)
			b = append(b, d.Hist...)
		}
		b = append(b, "\n</div>\n"...)
	}
	return template.HTML(b)
}

// figureRow appends the start of a figure's row: open, its key and
// `" data-ns="` and its ns (the attribute left open).
func figureRow(b []byte, open string, f *figure) []byte {
	b = append(b, open...)
	b = escapeText(b, f.Key)
	b = append(b, `" data-ns="`...)
	return strconv.AppendInt(b, f.Ns, 10)
}

// cssColor appends a colour as html/template writes it in a style
// attribute: a "#" and hex digits (every colour of the page) as they are,
// anything else through html/template itself.
func cssColor(b []byte, c string) []byte {
	if isHexColor(c) {
		return append(b, c...)
	}
	var s strings.Builder
	if err := colorTmpl.Execute(&s, c); err != nil {
		panic(err)
	}
	return append(b, strings.TrimSuffix(strings.TrimPrefix(s.String(), `<i style="background:`), `"></i>`)...)
}

var colorTmpl = template.Must(template.New("color").Parse(`<i style="background:{{.}}"></i>`))

func isHexColor(c string) bool {
	if len(c) < 2 || c[0] != '#' {
		return false
	}
	for i := 1; i < len(c); i++ {
		if x := c[i]; !('0' <= x && x <= '9' || 'a' <= x && x <= 'f' || 'A' <= x && x <= 'F') {
			return false
		}
	}
	return true
}
