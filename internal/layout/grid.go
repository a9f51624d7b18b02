package layout

// Why the text grid is written by hand while Markdown goes through
// tablewriter: speed. BenchmarkGridText and BenchmarkTablewriterText
// (grid_bench_test.go) lay out the same 2,000 rows x 8 columns (a kernel
// name, seven numbers; one name in fifty CJK or emoji) as text, the hand
// grid beside tablewriter v1.1.5's text renderer (Blueprint, borders and
// column separators off). On the shared 2-core dev machine, median of 5
// interleaved runs of 10 iterations, 2026-12-07:
//
//	hand grid     11.9 ms/op   2.3 MB/op     7,050 allocs/op
//	tablewriter  221.9 ms/op  18.5 MB/op   392,103 allocs/op
//
// (the runs scattered 4-27 ms and 112-350 ms with the machine's load; the
// hand grid was 8 to 28 times faster in each pair). Both measure a cell's
// width the same way: internal/textwidth uses the width tables
// tablewriter itself uses (clipperhouse/displaywidth). A kernel view of a
// large trace lists thousands of rows, so text keeps the hand grid;
// Markdown, read in a review and never that long, keeps tablewriter.

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/textwidth"
)

// Grid is a plain table of cells, rendered as an aligned text table, a
// GitHub Markdown table or CSV.
type Grid struct {
	Headers []string
	Rows    [][]string
	// RightAlign marks numeric columns.
	RightAlign []bool
	// Names marks the columns that hold names (ops, kernels, files): in
	// text they are the columns cut to fit Width, in Markdown their cells
	// are code spans, so that <built-in function f> or MulFunctor<float>
	// is shown as written and never read as HTML.
	Names []bool
	// Width is the text width the grid fits in (0: no limit). Only the
	// name columns give way, each no narrower than MinName; a grid whose
	// other columns alone are wider than Width is printed at that width.
	Width int
	// Labels holds a name column's own rule for cutting its cells to a
	// width (nil, or no entry: names.Labels, the one labelling rule); a
	// column of module paths cuts them by path (viewkit.FitPaths).
	Labels []func(cells []string, width int) []string
	// MinName is the narrowest a name column is cut to (0: 16).
	MinName int
	// RuleAfter > 0 draws in text a dashed rule under the first RuleAfter
	// rows too (a summary's distribution rows above the rows it lists).
	RuleAfter int
	// Optional lists columns that text may leave out, in the order they
	// go, when the grid does not fit Width even with its names cut; a
	// footnote says which were left out (CSV, Markdown and JSON keep all).
	Optional []int
}

// Write renders g in format "text", "md" or "csv".
func (g *Grid) Write(w io.Writer, format string) error {
	switch format {
	case "csv":
		return WriteCSV(w, g.Headers, g.Rows)
	case "text":
		return g.writeText(w)
	case "md":
		return g.writeMarkdown(w)
	}
	return fmt.Errorf("unknown format %q", format)
}

func (g *Grid) isName(i int) bool  { return i < len(g.Names) && g.Names[i] }
func (g *Grid) isRight(i int) bool { return i < len(g.RightAlign) && g.RightAlign[i] }

// WriteCSV writes one CSV table: a header line and the rows.
func WriteCSV(w io.Writer, headers []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(headers); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// Width is the width of s in a terminal, in columns (display width: 注意
// is four, 🔥 two, a combining accent none; see internal/textwidth).
func Width(s string) int { return textwidth.Width(s) }

// widths returns each column's natural width.
func (g *Grid) widths() []int {
	width := make([]int, len(g.Headers))
	for i, h := range g.Headers {
		width[i] = Width(h)
	}
	for _, r := range g.Rows {
		for i, c := range r {
			if i < len(width) {
				width[i] = max(width[i], Width(c))
			}
		}
	}
	return width
}

// fit returns the rows with the name columns cut so that the text table
// fits g.Width, and the column widths it is then laid out with.
func (g *Grid) fit() ([][]string, []int) {
	width := g.widths()
	rows := g.Rows
	if g.Width <= 0 {
		return rows, width
	}
	total := 0
	for _, wd := range width {
		total += wd + 2
	}
	over := total - g.Width
	if over <= 0 {
		return rows, width
	}
	minName := g.MinName
	if minName <= 0 {
		minName = 16
	}
	// take the excess from the widest name columns first
	target := append([]int(nil), width...)
	for over > 0 {
		widest := -1
		for i := range target {
			if g.isName(i) && target[i] > max(minName, Width(g.Headers[i])) && (widest < 0 || target[i] > target[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		target[widest]--
		over--
	}
	cut := false
	for i := range target {
		if target[i] != width[i] {
			cut = true
		}
	}
	if !cut {
		return rows, width
	}
	rows = make([][]string, len(g.Rows))
	for i, r := range g.Rows {
		rows[i] = append([]string(nil), r...)
	}
	for c := range target {
		if target[c] == width[c] {
			continue
		}
		col := make([]string, len(rows))
		for i, r := range rows {
			if c < len(r) {
				col[i] = r[c]
			}
		}
		if c < len(g.Labels) && g.Labels[c] != nil {
			col = g.Labels[c](col, target[c])
		} else {
			col = names.Labels(col, target[c]) // the one labelling rule
		}
		for i, r := range rows {
			if c < len(r) {
				r[c] = col[i]
			}
		}
	}
	return rows, target
}

// narrowed is g without its optional columns, as many as it takes to fit
// Width (in their order), and the headers of those left out.
func (g *Grid) narrowed() (*Grid, []string) {
	cur := g
	var dropped []string
	// a column goes while the names would be cut below a comfortable
	// width (twice MinName) to keep it
	minName := g.MinName
	if minName <= 0 {
		minName = 16
	}
	for _, c := range g.Optional {
		total := 0
		for i, wd := range cur.widths() {
			if cur.isName(i) {
				wd = min(wd, max(2*minName, Width(cur.Headers[i])))
			}
			total += wd + 2
		}
		if total <= g.Width {
			break
		}
		// column c of g is at index k of cur
		k := c
		for _, d := range dropped {
			if slices.Index(g.Headers, d) < c {
				k--
			}
		}
		dropped = append(dropped, g.Headers[c])
		next := *cur
		next.Optional = nil
		next.Headers = slices.Delete(slices.Clone(cur.Headers), k, k+1)
		next.RightAlign = deleteAt(cur.RightAlign, k)
		next.Names = deleteAt(cur.Names, k)
		next.Labels = deleteAt(cur.Labels, k)
		next.Rows = make([][]string, len(cur.Rows))
		for i, r := range cur.Rows {
			next.Rows[i] = deleteAt(r, k)
		}
		cur = &next
	}
	return cur, dropped
}

// footnote says which columns were left out, wrapped at the commas to fit
// width.
func footnote(width int, dropped []string) string {
	var b strings.Builder
	line := "(to fit " + strconv.Itoa(width) + " columns, left out:"
	for i, d := range dropped {
		word := " " + d
		if i < len(dropped)-1 {
			word += ","
		} else {
			word += ")"
		}
		if Width(line+word) > width && Width(line) > 1 {
			b.WriteString(line + "\n")
			line = strings.TrimPrefix(word, " ")
			continue
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}

func deleteAt[T any](s []T, k int) []T {
	if k >= len(s) {
		return s
	}
	return slices.Delete(slices.Clone(s), k, k+1)
}

// writeText lays the grid out as aligned columns under a dashed rule; a
// line ends at its last character (no text output ends a line with a
// space).
func (g *Grid) writeText(w io.Writer) error {
	if g.Width > 0 && len(g.Optional) > 0 {
		n, dropped := g.narrowed()
		if len(dropped) > 0 {
			if err := n.writeText(w); err != nil {
				return err
			}
			_, err := io.WriteString(w, footnote(g.Width, dropped))
			return err
		}
	}
	rows, width := g.fit()
	var b, l strings.Builder
	line := func(cells []string) {
		l.Reset()
		for i := range g.Headers {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			pad := strings.Repeat(" ", max(0, width[i]-Width(c)))
			l.WriteByte(' ')
			if g.isRight(i) {
				l.WriteString(pad + c)
			} else {
				l.WriteString(c + pad)
			}
			l.WriteByte(' ')
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	line(g.Headers)
	// the rule spans the lines' extent: the last column's trailing blank
	// is trimmed from every line, so a rule one longer was the one line
	// past a terminal's width when the rows just fit
	total := -1
	for _, wd := range width {
		total += wd + 2
	}
	b.WriteString(strings.Repeat("-", total))
	b.WriteByte('\n')
	for i, r := range rows {
		if i > 0 && i == g.RuleAfter {
			b.WriteString(strings.Repeat("-", total) + "\n")
		}
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdown writes a GitHub table through tablewriter: name cells as
// code spans, every other cell escaped (MdText).
func (g *Grid) writeMarkdown(w io.Writer) error {
	align := make([]tw.Align, len(g.Headers))
	for i := range align {
		align[i] = tw.AlignLeft
		if g.isRight(i) {
			align[i] = tw.AlignRight
		}
	}
	cfg := tablewriter.Config{
		Header: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
		Row: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
	}
	t := tablewriter.NewTable(w, tablewriter.WithConfig(cfg), tablewriter.WithRenderer(renderer.NewMarkdown()))
	head := make([]any, len(g.Headers))
	for i, h := range g.Headers {
		head[i] = MdText(h)
	}
	t.Header(head...)
	for _, r := range g.Rows {
		cells := make([]any, len(r))
		for i, c := range r {
			if g.isName(i) {
				cells[i] = MdCode(c)
			} else {
				cells[i] = MdText(c)
			}
		}
		if err := t.Append(cells...); err != nil {
			return err
		}
	}
	return t.Render()
}
