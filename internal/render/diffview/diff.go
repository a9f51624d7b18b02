// Package diffview lays out diff.Diff for tracetab diff and the budget
// outcomes of tracetab check: text fitting a width, Markdown, CSV, JSON
// (tracetab.diff/3, tracetab.check/2) and JUnit XML. It computes nothing.
package diffview

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/textwidth"
	"github.com/tracetab/tracetab/internal/units"
)

// DiffSchema and CheckSchema version the JSON forms.
const (
	DiffSchema  = "tracetab.diff/3"
	CheckSchema = "tracetab.check/2"
)

// View chooses how much of a diff a person sees.
type View struct {
	Top   int // md: rows in the main table (the rest fold into <details>)
	Limit int // rows per table in all (negative: all)
	Width int // text: the width to fit (0: no limit)
}

// middle shortens s to at most n columns by cutting its middle, so the
// tail (template arguments, tile sizes) that tells kernels apart stays.
func middle(s string, n int) string {
	if n <= 0 || textwidth.Width(s) <= n {
		return s
	}
	head := textwidth.Head(s, (n-1)/3)
	return head + "…" + textwidth.Tail(s, n-1-textwidth.Width(head))
}

// code puts s in a Markdown code span that survives a table cell: `|` is
// escaped, and a name holding backticks gets a longer fence. Inside a code
// span GitHub shows < and * as they are.
func code(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// verdictLine is the first line: PASS or FAIL with the counts.
func verdictLine(what string, g *diff.Gate) string {
	res := "PASS"
	if g.Failed() {
		res = "FAIL"
	}
	parts := []string{units.Plural(len(g.Rules), what, what+"s")}
	if len(g.Violations) > 0 {
		parts = append(parts, units.Plural(len(g.Violations), "violation", "violations"))
	}
	if len(g.NA) > 0 {
		s := units.Plural(len(g.NA), "not measured (n/a)", "not measured (n/a)")
		if g.AllowMissing {
			s += ", allowed"
		}
		parts = append(parts, s)
	}
	if len(g.Mismatches) > 0 {
		s := units.Plural(len(g.Mismatches), "environment mismatch", "environment mismatches")
		if g.RequireSameEnv {
			s += ", not allowed"
		}
		parts = append(parts, s)
	}
	return res + ": " + strings.Join(parts, ", ")
}

func mismatchText(m diff.Mismatch, md bool) string {
	q := func(s string) string {
		if md {
			return code(s)
		}
		return s
	}
	return fmt.Sprintf("%s differs: %s (%s) vs %s (%s)", diff.MismatchLabel(m.Field), q(m.Base), q(m.BaseFile), q(m.New), q(m.NewFile))
}

func stepsText(s *diff.Side) string {
	var parts []string
	for _, t := range s.Traces {
		p := t.File + " (" + units.Plural(len(t.Steps), "step", "steps")
		if n := len(t.Steps); n > 0 {
			p += ": ProfilerStep#" + strconv.FormatInt(t.Steps[0], 10)
			if n > 1 {
				p += " to #" + strconv.FormatInt(t.Steps[n-1], 10)
			}
		}
		parts = append(parts, p+")")
	}
	return strings.Join(parts, ", ")
}

// spread is benchstat's "± x%" of a median's confidence interval.
func spread(c diff.Change, base bool) string {
	s := c.New
	if base {
		s = c.Base
	}
	if s.N == 0 {
		return ""
	}
	sp := s.Spread()
	switch {
	case math.IsInf(sp, 1):
		return "±∞"
	case math.IsNaN(sp):
		return "±?"
	}
	return "±" + strconv.FormatFloat(sp*100, 'f', 0, 64) + "%"
}

func valueCell(c diff.Change, base bool) string {
	s := c.New
	if base {
		s = c.Base
	}
	if c.Verdict == diff.Unmeasured {
		return "n/a" // as null in JSON: a metric the trace lacks is not 0
	}
	if s.N == 0 {
		return "-"
	}
	v := diff.FormatValue(c.Metric, s.Median)
	if sp := spread(c, base); sp != "" && sp != "±∞" && s.N > 1 {
		v += " " + sp
	}
	return v
}

func deltaCell(c diff.Change) string {
	switch c.Verdict {
	case diff.Unmeasured:
		return "n/a"
	case diff.Noise, diff.Same:
		return "~"
	}
	return diff.RelText(c)
}

func pCell(c diff.Change) string {
	if math.IsNaN(c.P) {
		if c.Verdict == diff.TooFew {
			return "few"
		}
		return ""
	}
	return diff.PText(c.P)
}

// dtable is the budget table of check (text and Markdown).
type dtable struct {
	headers []string
	right   []bool
	rows    [][]string
}

func (t *dtable) grid() *layout.Grid {
	return &layout.Grid{Headers: t.headers, Rows: t.rows, RightAlign: t.right}
}

func (t *dtable) md(b *strings.Builder) {
	b.WriteString("| " + strings.Join(t.headers, " | ") + " |\n|")
	for i := range t.headers {
		if t.right[i] {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		for i, c := range r {
			if i > 0 && !strings.HasPrefix(c, "`") {
				r[i] = strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "<", "&lt;")
			}
		}
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
}

func violationLine(v diff.Violation, md bool) string {
	row := v.Row
	if md {
		if row == "" {
			return "- " + code(v.Rule) + ": " + code(v.Metric) + " " + diff.ChangeText(v.Change)
		}
		return "- " + code(v.Rule) + ": " + code(middle(row, 100)) + ": " + v.Metric + " " + diff.ChangeText(v.Change)
	}
	return "  - [" + v.Rule + "] " + v.Msg
}

func budgetViolationLine(v diff.Violation, md bool) string {
	if !md {
		return "  - [" + v.Rule + "] " + v.Msg
	}
	s := "- " + code(v.Rule) + ": "
	if v.Row != "" {
		s += code(middle(v.Row, 100)) + ": "
		return s + strings.TrimPrefix(v.Msg, v.Row+": ")
	}
	return s + v.Msg
}

func naLine(n diff.NA, md bool) string {
	if md {
		return "- n/a " + code(n.Rule) + ": " + strings.ReplaceAll(n.Reason, "<", "&lt;")
	}
	return "  - n/a [" + n.Rule + "] " + n.Reason
}

func gateLines(b *strings.Builder, g *diff.Gate, md, budgets bool) {
	for _, v := range g.Violations {
		if budgets {
			b.WriteString(budgetViolationLine(v, md) + "\n")
		} else {
			b.WriteString(violationLine(v, md) + "\n")
		}
	}
	for _, n := range g.NA {
		b.WriteString(naLine(n, md) + "\n")
	}
	for _, m := range g.Mismatches {
		if md {
			b.WriteString("- warning: " + mismatchText(m, true) + "\n")
		} else {
			b.WriteString("  - warning: " + mismatchText(m, false) + "\n")
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
