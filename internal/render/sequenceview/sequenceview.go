// Package sequenceview lays out sequences.Result, table --by sequence: a
// text table fitting a width (one line per device op of each sequence),
// Markdown, CSV, and the JSON document tracetab.sequences/1. It computes
// nothing but the short kernel labels (names.Labels).
package sequenceview

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/sequences"
	"github.com/tracetab/tracetab/internal/units"
)

// Schema versions the JSON form of the sequence view.
const Schema = "tracetab.sequences/1"

// Options say how many sequences are shown and how wide.
type Options struct {
	Top   int // sequences shown; 0: all
	Width int // text width; 0: no limit
}

// shown returns the sequences shown and how many were left out.
func shown(r *sequences.Result, o Options) ([]sequences.Sequence, int) {
	s := r.Sequences
	if o.Top > 0 && len(s) > o.Top {
		return s[:o.Top], len(s) - o.Top
	}
	return s, 0
}

// labels gives every device op name of the shown sequences its label
// (one names.Labels over them all, so equal names read the same), in
// sequence order.
func labels(seqs []sequences.Sequence) [][]string {
	var all []string
	for _, s := range seqs {
		all = append(all, s.Kernels...)
	}
	lab := names.Labels(all, 0)
	out := make([][]string, len(seqs))
	k := 0
	for i, s := range seqs {
		out[i] = lab[k : k+len(s.Kernels)]
		k += len(s.Kernels)
	}
	return out
}

// kernelRoom is the width the kernel labels keep before columns are left
// out of a narrow text table.
const kernelRoom = 36

// Write writes the view in format text, md, csv or json.
func Write(w io.Writer, format, file string, r *sequences.Result, o Options) error {
	seqs, more := shown(r, o)
	switch format {
	case "json":
		return writeJSON(w, file, r, o, seqs)
	case "csv":
		return writeCSV(w, seqs)
	}
	return writeTable(w, format, r, o, seqs, more)
}

// writeTable is the text and Markdown table: a sequence's first line
// holds its figures and first device op, the next lines its other device
// ops; then the footer.
func writeTable(w io.Writer, format string, r *sequences.Result, o Options, seqs []sequences.Sequence, more int) error {
	g := &layout.Grid{
		Headers:    []string{"#", "Op", "Stream", "Count", "Device time", "Mean", "Host time", "Ops", "Kernels"},
		RightAlign: []bool{true, false, true, true, true, true, true, true, false},
		Names:      []bool{false, true, false, false, false, false, false, false, true},
		MinName:    16,
	}
	lab := labels(seqs)
	for i, s := range seqs {
		for k := range s.Kernels {
			row := make([]string, len(g.Headers))
			if k == 0 {
				copy(row, []string{strconv.Itoa(i + 1), s.Op, strconv.FormatInt(s.Stream, 10), strconv.FormatInt(s.Count, 10),
					units.Dur(s.DeviceNs), units.Dur(s.MeanNs()), units.Dur(s.HostNs), strconv.Itoa(len(s.Kernels))})
			}
			row[8] = lab[i][k]
			g.Rows = append(g.Rows, row)
		}
	}
	var dropped []string
	if format == "text" {
		// on a narrow terminal the host time goes first, then the length,
		// the stream, the mean and the rank, while the kernel labels would
		// get fewer than kernelRoom columns (the grid keeps 16 for each
		// name column: the rest is held back while columns are dropped)
		kw := 0
		for _, r := range g.Rows {
			kw = max(kw, layout.Width(r[8]))
		}
		g.Width = o.Width
		if o.Width > 0 {
			g.Width = o.Width - max(min(kw, kernelRoom)-16, 0)
		}
		dropped = g.DropToFit(6, 7, 2, 5, 0)
		g.Width = o.Width
		// still too wide: names are cut shorter
		g.MinName = 8
		shareNames(g)
	}
	if err := g.Write(w, format); err != nil {
		return err
	}
	var foot []string
	if len(dropped) > 0 {
		foot = append(foot, "(to fit "+strconv.Itoa(o.Width)+" columns, left out: "+strings.Join(dropped, ", ")+")")
	}
	if more > 0 {
		foot = append(foot, units.Plural(more, "more sequence", "more sequences")+" not shown (--top 0 shows all)")
	}
	foot = append(foot, Summary(r))
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

// shareNames cuts, in a grid wider than its Width, the op column to two
// fifths of the room the names have, so the kernel labels keep the rest:
// the grid alone takes from the widest name column first, and the two end
// up equally cut.
func shareNames(g *layout.Grid) {
	if g.Width <= 0 {
		return
	}
	op, kern := slices.Index(g.Headers, "Op"), slices.Index(g.Headers, "Kernels")
	room := g.Width
	widest := make([]int, len(g.Headers))
	for c, h := range g.Headers {
		widest[c] = layout.Width(h)
		for _, r := range g.Rows {
			widest[c] = max(widest[c], layout.Width(r[c]))
		}
		room -= 2
		if c != op && c != kern {
			room -= widest[c]
		}
	}
	if widest[op]+widest[kern] <= room {
		return
	}
	w := max(room*2/5, 8)
	if widest[op] <= w {
		return
	}
	cells := make([]string, len(g.Rows))
	for i, r := range g.Rows {
		cells[i] = r[op]
	}
	cut := names.Labels(cells, w)
	for i, r := range g.Rows {
		if r[op] != "" {
			r[op] = cut[i]
		}
	}
}

// Summary is the footer line: which roots, how many sequences, how much
// of the device time they hold, and what could not be placed.
func Summary(r *sequences.Result) string {
	roots := "top-level ops"
	if r.Options.Op != "" {
		roots = "events named *" + r.Options.Op + "* at depth " + strconv.Itoa(r.RootDepth)
	}
	s := units.Plural(len(r.Sequences), "sequence", "sequences") + " of at least " + units.Plural(r.Options.MinLen, "device op", "device ops") +
		" from " + units.Plural(r.Roots, "occurrence", "occurrences") + " of " + roots
	if r.DeviceNs > 0 {
		s += "; device time in them: " + units.Dur(r.InSequencesNs) + " of " + units.Dur(r.DeviceNs) + " (" + units.Pct(pct(r.InSequencesNs, r.DeviceNs)) + "%)"
	}
	if r.Unlinked > 0 {
		s += "; " + units.Plural(r.Unlinked, "device op has", "device ops have") + " no launch call in the trace"
	}
	if r.NoRoot > 0 {
		s += "; " + units.Plural(r.NoRoot, "device op was", "device ops were") + " launched outside them"
	}
	return s
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) * 100 / float64(b)
}
