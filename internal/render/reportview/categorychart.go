package reportview

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/units"
)

// CategoryColors colour the categories of table --by category, one each.
var CategoryColors = map[opclass.Category]string{
	opclass.CatGEMM: "#3f6fb5", opclass.CatAttention: "#8a63c2", opclass.CatConv: "#2a9d8f", opclass.CatElementwise: "#e0a030",
	opclass.CatReduction: "#d9603b", opclass.CatCommunication: "#c8609c", opclass.CatMemory: "#6b8e23", opclass.CatOther: "#9aa5b1",
}

// MaxCategoryBars is how many steps the category chart draws: the first
// ones; the table beside it holds the whole trace.
const MaxCategoryBars = 100

// CategoryBar is one bar of the category chart: a step's device work, or
// the whole trace's when it has no steps.
type CategoryBar struct {
	Step     int64
	HasStep  bool
	DeviceNs int64
	Kernels  int
	Cells    categories.Cells
}

// Label names the bar: "step N", or "trace".
func (b *CategoryBar) Label() string {
	if b.HasStep {
		return "step " + itoa(b.Step)
	}
	return "trace"
}

// CategoryChart is the device time by category (the categories model,
// as table --by category computes it) as the page draws it.
type CategoryChart struct {
	R     *categories.Result
	Bars  []CategoryBar
	Notes []string
}

// NewCategoryChart lays out r: one bar per step in order (at most
// MaxCategoryBars), or one for the whole trace without steps; nil when
// the trace has no device time.
func NewCategoryChart(r *categories.Result) *CategoryChart {
	if r == nil || r.DeviceNs == 0 {
		return nil
	}
	c := &CategoryChart{R: r}
	stepsWork := false
	for _, s := range r.Steps {
		stepsWork = stepsWork || s.DeviceNs > 0
		if len(c.Bars) < MaxCategoryBars {
			c.Bars = append(c.Bars, CategoryBar{Step: s.N, HasStep: true, DeviceNs: s.DeviceNs, Kernels: s.Kernels, Cells: s.Cells})
		}
	}
	switch {
	case len(r.Steps) == 0:
		c.Notes = append(c.Notes, "the trace has no ProfilerStep#N annotations: one bar for the whole trace")
	case !stepsWork:
		c.Notes = append(c.Notes, "no ProfilerStep#N launched device time: one bar for the whole trace")
	}
	if !stepsWork {
		c.Bars = []CategoryBar{{DeviceNs: r.DeviceNs, Kernels: r.Kernels, Cells: r.Cells}}
	}
	if n := len(r.Steps); stepsWork && n > MaxCategoryBars {
		c.Notes = append(c.Notes, "the first "+strconv.Itoa(MaxCategoryBars)+" of "+strconv.Itoa(n)+" steps are drawn; the table holds them all")
	}
	if o := r.Outside; stepsWork && o.Kernels > 0 {
		c.Notes = append(c.Notes, units.Dur(o.DeviceNs)+" of device work ("+units.Plural(o.Kernels, "device op", "device ops")+
			") was launched outside every step: it is in the table, in no bar")
	}
	if r.Unlinked > 0 {
		c.Notes = append(c.Notes, units.Plural(r.Unlinked, "device op is", "device ops are")+" linked to no op: filed by the kernel's name")
	}
	return c
}

func categoryName(k int) string { return string(opclass.Categories[k]) }

func categoryColor(k int) string { return CategoryColors[opclass.Categories[k]] }

// Category chart geometry: a label column, the plot, a legend below.
const (
	catW, catLeft, catRight = 760, 64, 16
	catTop, catLegendH      = 22, 22
)

// SVG draws one horizontal stacked bar per step, top to bottom in step
// order, the categories left to right in opclass order, on one axis of
// durations (the longest bar's device time), and a legend.
func (c *CategoryChart) SVG() template.HTML {
	n := len(c.Bars)
	barH := min(max(240/float64(n), 8), 22)
	plotH := barH * float64(n)
	used := c.R.Used()
	legendLines := legendLayout(used)
	h := catTop + int(plotH+0.5) + 26 + catLegendH*len(legendLines)
	var b svgBuf
	b.f(`<svg class="category-chart" viewBox="0 0 %d %d" width="%d" height="%d" font-size="11" role="img" aria-label="device time by category per step">`,
		catW, h, catW, h)
	b.f(`<title>Device time by category: the summed durations of the kernels, memcpys and memsets of each category (tracetab table --by category)</title>`)
	var maxNs int64
	for _, bar := range c.Bars {
		maxNs = max(maxNs, bar.DeviceNs)
	}
	step := niceStep(maxNs, 5)
	top := max((maxNs+step-1)/step*step, step)
	plotW := float64(catW - catLeft - catRight)
	x := func(ns int64) float64 { return float64(catLeft) + plotW*float64(ns)/float64(top) }
	b.f(`<g class="axis" fill="#444">`)
	for v := int64(0); v <= top; v += step {
		b.f(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#ddd"/>`, x(v), x(v), catTop, float64(catTop)+plotH)
		anchor := "middle"
		if v+step > top {
			anchor = "end" // the last tick's text ends at the plot's edge
		}
		b.f(`<text x="%.1f" y="%d" text-anchor="%s">%s</text>`, x(v), catTop-6, anchor, esc(units.Dur(v)))
	}
	b.f(`</g>`)
	labelEvery := max(1, int(12/barH)+1)
	for i := range c.Bars {
		bar := &c.Bars[i]
		y := float64(catTop) + barH*float64(i)
		bh := max(barH*0.75, 1)
		b.f(`<g class="cbar" data-step="%d" data-has-step="%t" data-ns="%d" data-kernels="%d">`, bar.Step, bar.HasStep, bar.DeviceNs, bar.Kernels)
		b.f(`<title>%s</title>`, esc(bar.Title()))
		acc := int64(0)
		for _, k := range used {
			ns := bar.Cells[k].DeviceNs
			if ns == 0 {
				continue
			}
			b.f(`<rect class="seg" data-cat="%s" data-ns="%d" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s</title></rect>`,
				esc(categoryName(k)), ns, x(acc), y, x(acc+ns)-x(acc), bh, categoryColor(k), esc(bar.segTitle(k)))
			acc += ns
		}
		if i%labelEvery == 0 {
			label := bar.Label()
			if bar.HasStep {
				label = itoa(bar.Step)
			}
			b.f(`<text x="%d" y="%.2f" text-anchor="end" dominant-baseline="middle" fill="#444">%s</text>`, catLeft-6, y+bh/2, esc(label))
		}
		b.f(`</g>`)
	}
	axisTitle := "device time per step (ProfilerStep#)"
	if !c.Bars[0].HasStep {
		axisTitle = "device time of the whole trace"
	}
	b.f(`<text x="%d" y="%.1f" fill="#444">%s</text>`, catLeft, float64(catTop)+plotH+16, esc(axisTitle))
	b.f(`<g class="legend">`)
	for li, line := range legendLines {
		y := catTop + int(plotH+0.5) + 26 + catLegendH*li + 10
		for _, it := range line {
			b.f(`<rect x="%.1f" y="%d" width="10" height="10" fill="%s"/><text x="%.1f" y="%d" fill="#222">%s</text>`,
				it.x, y-9, categoryColor(it.k), it.x+14, y, esc(categoryName(it.k)))
		}
	}
	b.f(`</g></svg>`)
	return template.HTML(b.String())
}

type legendItem struct {
	k int
	x float64
}

// legendLayout places the legend's entries in lines that fit the chart.
func legendLayout(used []int) [][]legendItem {
	var lines [][]legendItem
	var line []legendItem
	x := float64(catLeft)
	for _, k := range used {
		w := 28 + 7.2*float64(len(categoryName(k))) // wide enough for the widest sans-serif
		if len(line) > 0 && x+w > catW-catRight {
			lines, line, x = append(lines, line), nil, float64(catLeft)
		}
		line = append(line, legendItem{k, x})
		x += w
	}
	if len(line) > 0 {
		lines = append(lines, line)
	}
	return lines
}

// Title is the bar's hover: its device time and each category's share.
func (b *CategoryBar) Title() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s: %s of device work, %s", b.Label(), units.Dur(b.DeviceNs), units.Plural(b.Kernels, "device op", "device ops"))
	for k, c := range b.Cells {
		if c.Kernels > 0 {
			fmt.Fprintf(&s, "\n%s %s (%s%%)", categoryName(k), units.Dur(c.DeviceNs), pct(c.DeviceNs, b.DeviceNs))
		}
	}
	return s.String()
}

func (b *CategoryBar) segTitle(k int) string {
	c := b.Cells[k]
	return fmt.Sprintf("%s, %s: %s (%s%% of its device time), %s", b.Label(), categoryName(k), units.Dur(c.DeviceNs), pct(c.DeviceNs, b.DeviceNs),
		units.Plural(c.Kernels, "device op", "device ops"))
}

// categoryRow is a line of the table beside the chart.
type categoryRow struct {
	Key, Label, Color, Time, Share string
	Ns                             int64
	Kernels                        int
}

// Rows are the table's lines: each category with device work, in opclass
// order, then the total.
func (c *CategoryChart) Rows() []categoryRow {
	r := c.R
	var out []categoryRow
	for _, k := range r.Used() {
		x := r.Cells[k]
		out = append(out, categoryRow{Key: categoryName(k), Label: categoryName(k), Color: categoryColor(k), Ns: x.DeviceNs,
			Time: units.Dur(x.DeviceNs), Share: pct(x.DeviceNs, r.DeviceNs) + "%", Kernels: x.Kernels})
	}
	return append(out, categoryRow{Key: "total", Label: "Total", Ns: r.DeviceNs, Time: units.Dur(r.DeviceNs), Share: "100.00%", Kernels: r.Kernels})
}
