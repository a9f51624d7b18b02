package viewkit

import (
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
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

// InsertColumn inserts column k into g: its header, its column settings
// (not a name, not right-aligned; the optional columns after it shift) and
// in each row the cell cell(i, row) gives.
func InsertColumn(g *layout.Grid, k int, header string, cell func(i int, row []string) string) {
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
	for i, row := range g.Rows {
		g.Rows[i] = insertAt(row, k, cell(i, row))
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
