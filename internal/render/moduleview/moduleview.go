// Package moduleview lays out modules.Tree, table --by module: the module
// tree as an indented text table fitting a width, Markdown, CSV, and the
// JSON document tracetab.modules/1. It computes nothing.
package moduleview

import (
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// Schema versions the JSON form of the module view.
const Schema = "tracetab.modules/1"

// Options say which rows are shown and how.
type Options struct {
	Depth int         // levels shown (1: the top-level modules only); 0: all
	Sort  modules.Key // KeyTree: the tree; else a flat list by this key
	Limit int         // rows shown; negative: all
	Width int         // text width; 0: no limit
}

const na = "n/a"

// minName is the narrowest the name column is cut to in text before
// columns are left out: an indented name cut shorter reads as noise.
const minName = 24

// indent is the text indentation of one tree level.
const indent = "  "

// rows returns the nodes shown and how many the limit left out.
func rows(t *modules.Tree, o Options) ([]int, int) {
	sel := t.Select(o.Depth, o.Sort)
	if o.Limit >= 0 && len(sel) > o.Limit {
		return sel[:o.Limit], len(sel) - o.Limit
	}
	return sel, 0
}

// Write writes the view in format text, md, csv or json.
func Write(w io.Writer, format, file string, t *modules.Tree, o Options) error {
	sel, more := rows(t, o)
	switch format {
	case "json":
		return writeJSON(w, file, t, o, sel)
	case "csv":
		return writeCSV(w, t, sel)
	}
	return writeTable(w, format, t, o, sel, more)
}

func pct(p *float64) string {
	if p == nil {
		return na
	}
	return units.Pct(*p)
}

// writeTable is the text and Markdown table, with its footer lines.
func writeTable(w io.Writer, format string, t *modules.Tree, o Options, sel []int, more int) error {
	hasDevice := t.DeviceNs > 0
	dev := func(ns int64) string {
		if !hasDevice {
			return na
		}
		return units.Dur(ns)
	}
	tree := o.Sort == modules.KeyTree
	g := &layout.Grid{
		Headers:    []string{"Module", "Occurrences", "Host total", "Host self", "Device total", "Device self", "Host %", "Device %"},
		RightAlign: []bool{false, true, true, true, true, true, true, true},
		Names:      []bool{true},
	}
	if !tree {
		g.Headers[0] = "Module path"
	}
	for _, n := range sel {
		nd := &t.Nodes[n]
		g.Rows = append(g.Rows, []string{nameCell(t, n, tree, format, 0), strconv.FormatInt(nd.Occurrences, 10), units.Dur(nd.HostTotal), units.Dur(nd.HostSelf),
			dev(nd.DeviceTotal), dev(nd.DeviceSelf), pct(t.HostPct(n)), pct(t.DevicePct(n))})
	}
	var dropped []string
	if format == "text" {
		g.Width = o.Width
		g.MinName = minName
		// on a narrow terminal the shares go first, then the host self
		// time, the occurrences and the device self time
		dropped = g.DropToFit(6, 7, 3, 1, 5)
	}
	others := 0 // the width of the columns after the name
	for c := 1; c < len(g.Headers); c++ {
		wd := layout.Width(g.Headers[c])
		for _, r := range g.Rows {
			wd = max(wd, layout.Width(r[c]))
		}
		others += wd + 2
	}
	budget := 0 // the name column's width in text, 0: no limit
	if format == "text" && o.Width > 0 {
		budget = max(o.Width-others-2, 12)
	}
	if tree {
		for i, n := range sel {
			g.Rows[i][0] = nameCell(t, n, tree, format, budget)
		}
	} else {
		// paths cut to their tail can meet: the later ones get #2, #3
		paths := make([]string, len(sel))
		for i, n := range sel {
			paths[i] = t.Path(n)
		}
		for i, c := range viewkit.FitPaths(paths, budget) {
			g.Rows[i][0] = c
		}
	}
	// a tree too deep for the width: the grid cuts whole cells
	g.MinName = 8
	if err := g.Write(w, format); err != nil {
		return err
	}
	var foot []string
	if len(dropped) > 0 {
		foot = append(foot, "(to fit "+strconv.Itoa(o.Width)+" columns, left out: "+strings.Join(dropped, ", ")+")")
	}
	if more > 0 {
		foot = append(foot, units.Plural(more, "more module", "more modules")+" not shown (--limit -1 shows all)")
	}
	if o.Depth > 0 {
		if below := len(t.Nodes) - len(t.Select(o.Depth, modules.KeyTree)); below > 0 {
			foot = append(foot, units.Plural(below, "module", "modules")+" below --depth "+strconv.Itoa(o.Depth)+" not shown (the totals count them)")
		}
	}
	foot = append(foot, summary(t))
	if format == "md" {
		for i := range foot {
			foot[i] = layout.MdText(foot[i])
		}
		_, err := io.WriteString(w, "\n"+strings.Join(foot, "\n\n")+"\n")
		return err
	}
	var b strings.Builder
	for i, f := range foot {
		if i == len(foot)-1 {
			b.WriteString("\n")
		}
		for _, l := range layout.Wrap(f, o.Width, "") {
			b.WriteString(l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// nameCell is a row's name: in the tree the name indented by its depth
// (in Markdown with no-break spaces, which a renderer keeps), cut in the
// middle to fit budget; in a sorted list the path from the top.
func nameCell(t *modules.Tree, n int, tree bool, format string, budget int) string {
	if !tree {
		return viewkit.CutPath(t.Path(n), budget)
	}
	nd := &t.Nodes[n]
	pad := strings.Repeat(indent, nd.Depth-1)
	if format == "md" {
		pad = strings.Repeat("\u00a0\u00a0", nd.Depth-1)
	}
	name := nd.Name
	if budget > 0 && layout.Width(pad)+layout.Width(name) > budget {
		name = names.Truncate(name, max(budget-layout.Width(pad), 8))
	}
	return pad + name
}

// summary is the footer line: what was read and how much of the device
// work the modules launched.
func summary(t *modules.Tree) string {
	s := units.Plural(t.Frames, "module frame", "module frames") + " on " + units.Plural(t.Threads, "thread", "threads") + ", " +
		units.Plural(len(t.Nodes), "module", "modules") + " in the tree; "
	if t.DeviceNs <= 0 {
		return s + "the trace has no device work (kernels, memcpys, memsets)"
	}
	s += "device work launched inside modules: " + units.Dur(t.DeviceInModulesNs) + " of " + units.Dur(t.DeviceNs) + " (" + pct(t.InModulesPct()) + "%)"
	if t.DeviceOpsUnlinked > 0 {
		s += "; " + units.Plural(t.DeviceOpsUnlinked, "device op has", "device ops have") + " no launch call in the trace"
	}
	return s
}
