// Package trendview lays out tracetab trend: one line per metric with a
// sparkline of its series, its newest value and its change points (text),
// and the tracetab.trend/1 document (JSON). It computes no number.
package trendview

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/trend"
	"github.com/tracetab/tracetab/internal/units"
)

// View is how the text is laid out.
type View struct {
	Width  int     // columns (0: no limit)
	Glyphs [9]rune // sparkline levels, empty to full (the cli picks blocks or ASCII)
	Window int     // --window: the newest runs --fail-on looks at, marked in the header
}

// Value formats one value of a metric in its unit ("n/a" for NaN).
func Value(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case unit == trend.UnitNs:
		return units.Dur(int64(math.Round(v)))
	case unit == trend.UnitBytes:
		return units.Bytes(int64(math.Round(v)))
	case unit == trend.UnitPct:
		return units.Pct(v) + "%"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// shift is a change point's size for people: "+13.70%" (n/a from 0).
func shift(c trend.Change) string {
	if math.IsNaN(c.ChangePct) {
		return "from 0"
	}
	s := units.Pct(c.ChangePct) + "%"
	if c.ChangePct > 0 && s != "0.00%" {
		s = "+" + s
	}
	return s
}

// spark draws the values as levels: the lowest value is the lowest mark,
// and a series that moves less than a fifth of its median draws in the
// lower marks only, so noise does not look like a change.
func spark(vals []float64, g [9]rune) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	var present []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
			present = append(present, v)
		}
	}
	if len(present) == 0 {
		return strings.Repeat(string(g[0]), len(vals))
	}
	span := hi - lo
	if med := math.Abs(medianOf(present)); span < 0.2*med {
		span = 0.2 * med
	}
	var b strings.Builder
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
			b.WriteRune(g[0])
		case span == 0:
			b.WriteRune(g[1])
		default:
			k := 1 + int(math.Round((v-lo)/span*7))
			b.WriteRune(g[min(max(k, 1), 8)])
		}
	}
	return b.String()
}

func medianOf(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ { // insertion sort: a series is short
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

const (
	valueW  = 10 // the newest value: "122.149ms", "2.52 GiB", "18.24%"
	changeW = 13 // one change point: "#18 +13.70%", and the heading "change points"
	minName = 16
	maxName = 40 // the name column without a width limit
)

// Text writes the trend for people.
func Text(w io.Writer, res *trend.Result, v View) error {
	var b strings.Builder
	n := len(res.Runs)
	line := func(s string) {
		for _, l := range layout.Wrap(s, v.Width, "  ") {
			b.WriteString(strings.TrimRight(l, " ") + "\n")
		}
	}
	order := "by wall-clock start"
	if res.Order == "name" {
		order = "by name"
	}
	head := fmt.Sprintf("trend: %s %s", units.Plural(n, "run", "runs"), order)
	if res.Order == "time" && n > 0 {
		head += ", " + day(res.Runs[0].StartNs) + " to " + day(res.Runs[n-1].StartNs)
	}
	if k := len(res.LeftOut); k > 0 {
		head += "; " + units.Plural(k, "run", "runs") + " not comparable left out"
	}
	line(head)
	m := res.Method
	line(fmt.Sprintf("change points: E-divisive means (Matteson & James 2014), alpha %s, %d permutations, at least %s on each side, seed %d",
		strconv.FormatFloat(m.Alpha, 'f', -1, 64), m.Permutations, units.Plural(m.MinSize, "run", "runs"), m.Seed))
	if n == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	if res.TooShort {
		line(fmt.Sprintf("fewer than %d runs: no change point can be found yet", 2*m.MinSize))
	}
	if len(res.Metrics) == 0 {
		line("no metric to follow: the runs have no profiler steps, no device work and no [memory] records")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n")

	// columns: name, sparkline, newest value, change points
	cells := n
	if v.Width > 0 {
		cells = min(n, max(v.Width-minName-valueW-changeW-4, 8))
	}
	first := n - cells // the first run drawn
	longest := len("metric")
	for _, mt := range res.Metrics {
		longest = max(longest, layout.Width(mt.Name))
	}
	// without a width limit, a name longer than the column pushes its own
	// line to the right, uncut, and the others stay aligned
	nameW := min(longest, maxName)
	if v.Width > 0 {
		nameW = min(longest, max(v.Width-cells-valueW-changeW-4, minName))
	}
	all := make([]string, len(res.Metrics))
	for k, mt := range res.Metrics {
		all[k] = mt.Name
	}
	shown, told := all, all // the metric column's names, and the change points'
	if v.Width > 0 {
		shown, told = fitNames(all, nameW), fitNames(all, names.LabelWidth)
	}
	sparkHead := "runs 1-" + strconv.Itoa(n)
	if first > 0 {
		sparkHead = "runs " + strconv.Itoa(first+1) + "-" + strconv.Itoa(n)
	}
	if layout.Width(sparkHead) > cells {
		sparkHead = ""
	}
	row := func(name, sp, val, changes string) string {
		s := pad(name, nameW) + " " + pad(sp, cells) + " " + padLeft(val, valueW) + "  " + changes
		return strings.TrimRight(s, " ")
	}
	b.WriteString(row("metric", sparkHead, "newest", "change points") + "\n")
	indent := nameW + 1 + cells + 1 + valueW + 2 // where the change points start
	marked := map[int]bool{}
	for k, mt := range res.Metrics {
		var parts []string
		for _, c := range mt.Points {
			parts = append(parts, "#"+strconv.Itoa(c.Index+1)+" "+shift(c))
			marked[c.Index] = true
		}
		ch := "none"
		if len(parts) > 0 {
			ch = strings.Join(parts, ", ")
		}
		newest := mt.Values[n-1]
		text := row(shown[k], spark(mt.Values[first:], v.Glyphs), Value(newest, mt.Unit), "")
		// the change points, wrapped under their column when the line is full
		lines := []string{ch}
		if v.Width > 0 {
			lines = layout.Wrap(ch, max(v.Width-indent, changeW), "")
		}
		text = pad(text, indent+layout.Width(shown[k])-min(layout.Width(shown[k]), nameW)) + lines[0]
		b.WriteString(strings.TrimRight(text, " ") + "\n")
		for _, l := range lines[1:] {
			b.WriteString(strings.Repeat(" ", indent) + l + "\n")
		}
	}
	if len(marked) > 0 {
		b.WriteString("\n")
		for i := range n {
			if !marked[i] {
				continue
			}
			var what []string
			for k, mt := range res.Metrics {
				for _, c := range mt.Points {
					if c.Index == i {
						what = append(what, fmt.Sprintf("%s %s to %s (p %s)", told[k], Value(c.Before, mt.Unit), Value(c.After, mt.Unit), pval(c.PValue)))
					}
				}
			}
			line(fmt.Sprintf("#%d %s: %s", i+1, res.Runs[i].Path, strings.Join(what, "; ")))
		}
	}
	if v.Window > 0 && n > 0 {
		line(fmt.Sprintf("--fail-on looks at change points in the newest %s (#%d to #%d)", units.Plural(min(v.Window, n), "run", "runs"), max(n-v.Window, 0)+1, n))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pval(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// day is a wall-clock start in UTC to the minute.
func day(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04 UTC") }

func pad(s string, w int) string {
	if n := layout.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func padLeft(s string, w int) string {
	if n := layout.Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// fitNames fits the names to width, keeping an op: or kernel: prefix
// whole: the ops and kernels labelled by the rule of the table views
// (names.Labels over the rest of each group: a kernel reads
// vectorized_elementwise_kernel<CUDAFunctorOnSelf_add>, not
// "void at...*, 3>)"), the other metrics cut in the middle
// (names.Column); two names that still look alike get #2.
func fitNames(all []string, width int) []string {
	out := make([]string, len(all))
	groups := map[string][]int{}
	var order []string
	for k, name := range all {
		prefix := ""
		for _, p := range []string{trend.OpPrefix, trend.KernelPrefix} {
			if strings.HasPrefix(name, p) && width-len(p) >= minName/2 {
				prefix = p
			}
		}
		if _, ok := groups[prefix]; !ok {
			order = append(order, prefix)
		}
		groups[prefix] = append(groups[prefix], k)
	}
	for _, prefix := range order {
		idx := groups[prefix]
		rest := make([]string, len(idx))
		for i, k := range idx {
			rest[i] = strings.TrimPrefix(all[k], prefix)
		}
		fit := names.Column(rest, width-len(prefix))
		if prefix != "" {
			fit = names.Labels(rest, width-len(prefix)) // the one labelling rule
		}
		for i, s := range fit {
			out[idx[i]] = prefix + s
		}
	}
	return out
}
