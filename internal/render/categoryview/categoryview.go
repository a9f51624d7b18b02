// Package categoryview lays out categories.Result, table --by category:
// the device time per op category as a text table with a bar, a per-step
// grid (or, for many steps, each category's spread over the steps),
// Markdown, CSV, and the JSON document tracetab.categories/1. It computes
// nothing.
package categoryview

import (
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/units"
)

// Schema versions the JSON form of the category view.
const Schema = "tracetab.categories/1"

// MaxSteps is how many steps the per-step grid lists before it gives way
// to each category's spread over the steps (AllSteps lists them all).
const MaxSteps = 12

// barCells is the width of a full bar (100%).
const barCells = 20

// Options say how the view is laid out.
type Options struct {
	Width    int               // text width; 0: no limit
	AllSteps bool              // list every step, however many
	Unicode  bool              // bars in block glyphs (a terminal), else '#'
	Range    *categories.Range // the --steps selection, nil: the whole trace
}

// Write writes the view in format text, md, csv or json.
func Write(w io.Writer, format, file string, r *categories.Result, o Options) error {
	switch format {
	case "json":
		return writeJSON(w, file, r, o)
	case "csv":
		return writeCSV(w, r)
	}
	return writeTables(w, format, r, o)
}

// short names the categories in the per-step grid's headers.
var short = map[opclass.Category]string{
	opclass.CatGEMM: "gemm", opclass.CatAttention: "attn", opclass.CatConv: "conv", opclass.CatElementwise: "elem",
	opclass.CatReduction: "red/norm", opclass.CatCommunication: "comm", opclass.CatMemory: "mem", opclass.CatOther: "other",
}

func pct(part, whole int64) string {
	p := categories.Pct(part, whole)
	if p == nil {
		return "-"
	}
	return units.Pct(*p)
}

// bar is a share drawn in whole cells of barCells for 100%; any time at
// all gets one cell.
func bar(part, whole int64, unicode bool) string {
	if part <= 0 || whole <= 0 {
		return ""
	}
	n := max(int((part*barCells*2+whole)/(whole*2)), 1)
	g := "#"
	if unicode {
		g = "█"
	}
	return strings.Repeat(g, n)
}

// totals is the main grid: one row per category, then the total.
func totals(r *categories.Result, o Options) *layout.Grid {
	g := &layout.Grid{
		Headers:    []string{"Category", "Device time", "%", "Kernels", "Share"},
		RightAlign: []bool{false, true, true, true, false},
	}
	for k, c := range r.Cells {
		g.Rows = append(g.Rows, []string{string(opclass.Categories[k]), units.Dur(c.DeviceNs), pct(c.DeviceNs, r.DeviceNs),
			strconv.Itoa(c.Kernels), bar(c.DeviceNs, r.DeviceNs, o.Unicode)})
	}
	g.Rows = append(g.Rows, []string{"total", units.Dur(r.DeviceNs), pct(r.DeviceNs, r.DeviceNs), strconv.Itoa(r.Kernels), ""})
	return g
}

// stepGrid lists every step: its device time and each used category's
// share of it.
func stepGrid(r *categories.Result, used []int) *layout.Grid {
	g := &layout.Grid{Headers: []string{"Step", "Device time"}, RightAlign: []bool{true, true}}
	for _, k := range used {
		g.Headers = append(g.Headers, short[opclass.Categories[k]]+" %")
		g.RightAlign = append(g.RightAlign, true)
	}
	for _, s := range r.Steps {
		row := []string{strconv.FormatInt(s.N, 10), units.Dur(s.DeviceNs)}
		for _, k := range used {
			row = append(row, pct(s.Cells[k].DeviceNs, s.DeviceNs))
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// spreadGrid is each used category's share of a step's device time over
// the steps: the least, the median, the most.
func spreadGrid(r *categories.Result, used []int) *layout.Grid {
	g := &layout.Grid{Headers: []string{"Category", "Min %", "Median %", "Max %"}, RightAlign: []bool{false, true, true, true}}
	for _, k := range used {
		sp, ok := r.SpreadOf(k)
		if !ok {
			continue
		}
		g.Rows = append(g.Rows, []string{string(opclass.Categories[k]), units.Pct(sp.Min), units.Pct(sp.Median), units.Pct(sp.Max)})
	}
	return g
}

// gridWidth is the text width of g's widest line.
func gridWidth(g *layout.Grid) int {
	var b strings.Builder
	if g.Write(&b, "text") != nil {
		return 0
	}
	wd := 0
	for _, l := range strings.Split(b.String(), "\n") {
		wd = max(wd, layout.Width(l))
	}
	return wd
}

// writeTables is the text and Markdown form: the totals, a footer, then
// the steps.
func writeTables(w io.Writer, format string, r *categories.Result, o Options) error {
	var foot []string
	g := totals(r, o)
	if format == "text" {
		g.Width = o.Width
		if d := g.DropToFit(4); len(d) > 0 {
			foot = append(foot, "(to fit "+strconv.Itoa(o.Width)+" columns, left out: "+strings.Join(d, ", ")+")")
		}
	} else {
		// Markdown: no bars (the table states the shares)
		g.Headers, g.RightAlign = g.Headers[:4], g.RightAlign[:4]
		for i := range g.Rows {
			g.Rows[i] = g.Rows[i][:4]
		}
	}
	if err := g.Write(w, format); err != nil {
		return err
	}
	foot = append(foot, summary(r, o))
	if format == "text" {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	if err := writeFoot(w, format, o.Width, foot); err != nil {
		return err
	}
	if len(r.Steps) == 0 {
		return nil
	}
	used := r.Used()
	sg := stepGrid(r, used)
	var note string
	switch {
	case len(r.Steps) > MaxSteps && !o.AllSteps:
		sg = spreadGrid(r, used)
		note = "Share of each step's device time over " + units.Plural(len(r.Steps), "step", "steps") + ": the least, the median and the most (--all lists every step)"
	case format == "text" && o.Width > 0 && gridWidth(sg) > o.Width:
		sg = spreadGrid(r, used)
		note = "Share of each step's device time over " + units.Plural(len(r.Steps), "step", "steps") + " (a grid of every step is wider than " + strconv.Itoa(o.Width) + " columns; --width 0 shows it)"
	default:
		note = "Per step: its device time and each category's share of it (%)"
	}
	if format == "text" {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	if err := writeFoot(w, format, o.Width, []string{note}); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return sg.Write(w, format)
}

// summary is the footer under the totals: what was counted and how.
func summary(r *categories.Result, o Options) string {
	s := "Device time is the summed duration of the kernels, memcpys and memsets"
	if o.Range != nil {
		s += " launched in steps " + strconv.FormatInt(o.Range.First, 10) + "-" + strconv.FormatInt(o.Range.Last, 10)
	}
	s += " (overlapping ops count each); " + units.Plural(r.Kernels, "device op", "device ops")
	if r.Unlinked > 0 {
		s += ", " + strconv.Itoa(r.Unlinked) + " of them launched by no op in the trace (filed by the kernel's name)"
	}
	if o.Range == nil && len(r.Steps) > 0 && r.Outside.Kernels > 0 {
		s += "; " + units.Dur(r.Outside.DeviceNs) + " in " + units.Plural(r.Outside.Kernels, "op", "ops") + " launched outside every step"
	}
	return s + "."
}

// writeFoot writes lines of prose: wrapped to the width in text, escaped
// in Markdown.
func writeFoot(w io.Writer, format string, width int, lines []string) error {
	var b strings.Builder
	for _, f := range lines {
		if format == "md" {
			b.WriteString("\n" + layout.MdText(f) + "\n")
			continue
		}
		for _, l := range layout.Wrap(f, width, "") {
			b.WriteString(l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
