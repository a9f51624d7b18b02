package render

import (
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/stats"
)

// Glyphs are the nine levels of a sparkline cell, empty to full: Unicode
// blocks for a terminal, plain ASCII for a file or a pipe (the cli picks).
type Glyphs [9]rune

// The two glyph sets.
var (
	Blocks = Glyphs{' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}
	ASCII  = Glyphs{' ', '.', ':', '-', '=', '+', '*', '#', '@'}
)

// level maps a share from 0 to 1 to a glyph: exactly 0 is empty, anything
// above it at least the lowest mark, 1 the full one.
func (g *Glyphs) level(num, den int64) rune {
	if num <= 0 || den <= 0 {
		return g[0]
	}
	k := 1 + num*8/den // 1..9
	return g[min(k, 8)]
}

// Spark draws one cell per share num[k]/den[k] between brackets, so that
// empty cells stay visible: "[██▇  ▁██]".
func (g *Glyphs) Spark(num, den []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for k := range num {
		b.WriteRune(g.level(num[k], den[k]))
	}
	b.WriteByte(']')
	return b.String()
}

// Hist draws a histogram's bins, each count as a share of the largest.
func (g *Glyphs) Hist(h stats.LogHist) string {
	num, den := make([]int64, len(h.Counts)), make([]int64, len(h.Counts))
	for k, c := range h.Counts {
		num[k], den[k] = int64(c), int64(h.MaxCount)
	}
	return g.Spark(num, den)
}

// StepSparks is what the gaps text draws on each step line: where in the
// step's GPU span the GPU was busy (gaps.BusyCells), in these glyphs.
type StepSparks struct {
	Cells  []gaps.StepCells
	Glyphs Glyphs
}

// addStepSparks adds a column to the gaps step rows (Step first, Note last)
// drawing each step's busy cells; a step with no device work gets none.
func addStepSparks(sg *Grid, sp []StepSparks) {
	if len(sp) == 0 || len(sg.Headers) == 0 {
		return
	}
	by := map[string]string{}
	for _, c := range sp[0].Cells {
		if len(c.BusyNs) > 0 {
			by[strconv.FormatInt(c.Step, 10)] = sp[0].Glyphs.Spark(c.BusyNs, c.WidthNs)
		}
	}
	last := len(sg.Headers) - 1
	insertColumn(sg, last, "Busy over GPU window")
	for i, row := range sg.Rows {
		sg.Rows[i] = insertAt(row, last, by[row[0]])
	}
}

// insertColumn makes room in g's column settings for a new column k (not
// a name, not right-aligned); the caller inserts the cells.
func insertColumn(g *Grid, k int, header string) {
	g.Headers = insertAt(g.Headers, k, header)
	g.RightAlign = insertBool(g.RightAlign, k)
	if g.Names != nil {
		g.Names = insertBool(g.Names, k)
	}
	for i, c := range g.Optional {
		if c >= k {
			g.Optional[i] = c + 1
		}
	}
}

func insertAt(s []string, k int, v string) []string {
	out := append([]string{}, s[:k]...)
	return append(append(out, v), s[k:]...)
}

func insertBool(s []bool, k int) []bool {
	for len(s) < k {
		s = append(s, false)
	}
	out := append([]bool{}, s[:k]...)
	return append(append(out, false), s[k:]...)
}

// KernelHists are the kernel view's duration histograms, one per row in
// the rows' order (stats.NewLogHist of each kernel's durations), drawn in
// these glyphs.
type KernelHists struct {
	ByRow  []stats.LogHist
	Glyphs Glyphs
}

// addKernelHists adds a column before the kernel view's Name column (the
// last) drawing each row's histogram.
func addKernelHists(g *Grid, kh []KernelHists) {
	if len(kh) == 0 || len(g.Headers) == 0 {
		return
	}
	last := len(g.Headers) - 1
	insertColumn(g, last, "Spread (log bins)")
	if g.Names != nil {
		g.Names[last] = true // a code span in Markdown: the glyphs as drawn, in a fixed-width font
	}
	for i, row := range g.Rows {
		cell := ""
		if i < len(kh[0].ByRow) {
			cell = kh[0].Glyphs.Hist(kh[0].ByRow[i])
		}
		g.Rows[i] = insertAt(row, last, cell)
	}
}
