package viewkit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/units"
)

// SummaryRows is the most rows a list that grows with the input (ranks,
// steps, streams) prints in full by default; above it the view prints
// the list's distribution and the rows that stand out (--all: every row).
const SummaryRows = 20

// SummaryListed is how many rows that stand out a summary lists by
// default, besides the rows the verdict names.
const SummaryListed = 5

// Summary says how Summarise shortens a grid whose rows grow with the
// input.
type Summary struct {
	Noun  string   // what the rows are, plural: "ranks", "steps"
	Label int      // the column that names the distribution rows (min, median, p90, max)
	Cols  []Column // the numeric columns: their figures and what stands out in them
	// Keep are rows always listed: the ones the verdict names (the
	// straggler), described by KeepWhy ("the straggler").
	Keep    []int
	KeepWhy string
	Listed  int // rows that stand out listed at most (0: SummaryListed)
}

// Column is one numeric column of a summarised grid: a value per row
// (Has[i] false: row i has none, its cell says n/a; nil Has: every row
// has one) and how a figure is written.
type Column struct {
	Index  int
	Values []float64
	Has    []bool
	Format func(float64) string
}

// NsColumn is a column of durations in ns, written as units.Dur.
func NsColumn(index int, ns []int64, has []bool) Column {
	v := make([]float64, len(ns))
	for i, x := range ns {
		v[i] = float64(x)
	}
	return Column{Index: index, Values: v, Has: has, Format: func(x float64) string { return units.Dur(int64(math.Round(x))) }}
}

// CountColumn is a column of counts, written as integers (a median
// between two counts keeps its .5).
func CountColumn(index int, n []int, has []bool) Column {
	v := make([]float64, len(n))
	for i, x := range n {
		v[i] = float64(x)
	}
	return Column{Index: index, Values: v, Has: has, Format: func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }}
}

func (c Column) has(i int) bool { return c.Has == nil || (i < len(c.Has) && c.Has[i]) }

// deviation is how far row i stands from the column's median in MADs
// (stats.Dist.Deviation); a row without a value where most rows have one
// is infinitely far, one without a value otherwise not at all.
func (c Column) deviation(d stats.Dist, i, rows int) float64 {
	if !c.has(i) {
		if d.N*2 > rows {
			return math.Inf(1)
		}
		return 0
	}
	return d.Deviation(c.Values[i])
}

// Summarise shortens g in place when it has more than SummaryRows rows:
// its rows become the distribution of each numeric column (min, median,
// p90, max, under a rule in text), then, in their order, the rows the
// verdict names and at most s.Listed rows that stand out (a value more
// than stats.StandOutMADs MADs from its column's median, or n/a where
// most rows have a value; the farthest first: in MADs, then relative to
// the median). It returns the footnote
// that says so ("" when g is left as it is).
func Summarise(g *layout.Grid, s Summary) string {
	n := len(g.Rows)
	if n <= SummaryRows {
		return ""
	}
	listed := s.Listed
	if listed <= 0 {
		listed = SummaryListed
	}
	dists := make([]stats.Dist, len(s.Cols))
	for k, c := range s.Cols {
		var xs []float64
		for i := range n {
			if c.has(i) {
				xs = append(xs, c.Values[i])
			}
		}
		dists[k] = stats.Distribution(xs)
	}
	type far struct {
		row      int
		dev, rel float64
	}
	var out []far
	for i := range n {
		f := far{row: i}
		for k, c := range s.Cols {
			f.dev = max(f.dev, c.deviation(dists[k], i, n))
			if c.has(i) {
				f.rel = max(f.rel, math.Abs(c.Values[i]-dists[k].Median)/max(math.Abs(dists[k].Median), 1))
			}
		}
		if f.dev > stats.StandOutMADs {
			out = append(out, f)
		}
	}
	// the farthest first: in MADs, then (a MAD of 0 makes every other
	// value infinitely far) relative to the median
	slices.SortStableFunc(out, func(a, b far) int { return cmp.Or(cmp.Compare(b.dev, a.dev), cmp.Compare(b.rel, a.rel)) })
	show := map[int]bool{}
	for _, i := range s.Keep {
		if i >= 0 && i < n {
			show[i] = true
		}
	}
	kept := len(show)
	shownOut, keptOut := 0, 0
	for _, f := range out {
		switch {
		case show[f.row]:
			keptOut++
		case shownOut < listed:
			show[f.row] = true
			shownOut++
		}
	}
	rows := distRows(g, s, dists)
	for i := range n {
		if show[i] {
			rows = append(rows, g.Rows[i])
		}
	}
	g.Rows, g.RuleAfter = rows, 4
	return summaryFoot(s, n, len(out), shownOut+keptOut, kept-keptOut)
}

// distRows are the min, median, p90 and max rows: the label in s.Label,
// each numeric column's figure (n/a without values), other cells empty.
func distRows(g *layout.Grid, s Summary, dists []stats.Dist) [][]string {
	labels := []string{"min", "median", "p90", "max"}
	rows := make([][]string, len(labels))
	for j, l := range labels {
		r := make([]string, len(g.Headers))
		r[s.Label] = l
		for k, c := range s.Cols {
			d := dists[k]
			if d.N == 0 {
				r[c.Index] = "n/a"
				continue
			}
			r[c.Index] = c.Format([]float64{d.Min, d.Median, d.P90, d.Max}[j])
		}
		rows[j] = r
	}
	return rows
}

// summaryFoot says what the summary shows: n rows, standing of which
// stand out, listed of them listed, kept others the verdict names. The
// full rule (n/a where most rows have a value stands out too) is in the
// command's help and docs/commands.md.
func summaryFoot(s Summary, n, standing, listed, kept int) string {
	rule := fmt.Sprintf("more than %d MADs from its column's median", stats.StandOutMADs)
	var stand string
	switch {
	case standing == 0:
		stand = "none stands out (" + rule + ")"
	case listed == standing && standing == 1:
		stand = "the 1 that stands out (" + rule + ")"
	case listed == standing:
		stand = fmt.Sprintf("the %d that stand out (%s)", standing, rule)
	default:
		stand = fmt.Sprintf("the %d farthest of the %d that stand out (%s)", listed, standing, rule)
	}
	head := fmt.Sprintf("%d %s: min, median, p90, max; ", n, s.Noun)
	tail := "; --all lists every one"
	switch {
	case kept > 0 && s.KeepWhy != "" && standing == 0:
		return head + "below, " + s.KeepWhy + "; " + stand + tail
	case kept > 0 && s.KeepWhy != "":
		return head + "below, " + s.KeepWhy + " and " + stand + tail
	case standing == 0:
		return head + stand + tail
	}
	return head + "below, " + stand + tail
}
