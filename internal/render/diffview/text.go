package diffview

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// dfShort maps each trace path of a diff to the part that tells the
// traces apart (layout.DistinctPaths).
func dfShort(d *diff.Diff) map[string]string {
	var all []string
	for _, s := range []*diff.Side{d.Base, d.New} {
		for _, t := range s.Traces {
			if !slices.Contains(all, t.File) {
				all = append(all, t.File)
			}
		}
	}
	short := layout.DistinctPaths(all)
	m := map[string]string{}
	for i, p := range all {
		m[p] = short[i]
	}
	return m
}

func dfSteps(s *diff.Side, short map[string]string) string {
	var parts []string
	for _, t := range s.Traces {
		p := short[t.File] + " (" + units.Plural(len(t.Steps), "step", "steps")
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

// dfTested counts the rows tested per row metric (the families --correct
// holm corrects).
func dfTested(d *diff.Diff) map[string]int {
	n := map[string]int{}
	rows := d.Rows
	if d.Outside != nil {
		rows = append(slices.Clone(rows), *d.Outside)
	}
	for _, r := range rows {
		for m, c := range r.Metrics {
			if !math.IsNaN(c.P) {
				n[m]++
			}
		}
	}
	return n
}

// dfMostTested is the largest family among the metrics shown.
func dfMostTested(d *diff.Diff) int {
	n, t := 0, dfTested(d)
	for _, m := range d.Metrics {
		n = max(n, t[m])
	}
	return n
}

// dfHeader is the prose above the tables: the sides, the samples, the
// test and what it does not correct for.
func dfHeader(d *diff.Diff, short map[string]string) []string {
	per := "one sample per trace: whole-trace values"
	switch {
	case d.Base.PerStep && d.Base.By == "step":
		per = "one row per step position, one sample per row and side"
	case d.Base.PerStep && isModules(d):
		per = modulePerStep
		if k := max(d.Base.StepsPerSample, d.New.StepsPerSample); k > 1 {
			per += fmt.Sprintf("; a trace of more than %d steps has its row samples over groups of up to %d consecutive steps, each divided by its step count, while gpu_busy, gpu_idle and step_time keep one sample per step", diff.MaxSamplesPerTrace, k)
		}
	case d.Base.PerStep:
		per = "one sample per profiler step for every row, op and kernel alike (the work inside the ProfilerStep#N windows; a device op counts in the step of its launch call; the work outside the steps is the row (outside steps), one sample per trace)"
		if k := max(d.Base.StepsPerSample, d.New.StepsPerSample); k > 1 {
			per += fmt.Sprintf("; a trace of more than %d steps has its row samples over groups of up to %d consecutive steps, each divided by its step count, while gpu_busy, gpu_idle and step_time keep one sample per step", diff.MaxSamplesPerTrace, k)
		}
	}
	test := "~ = not significant at alpha " + strconv.FormatFloat(d.Alpha, 'g', -1, 64) + " (two-sided Mann-Whitney U over the samples; n: samples per side)"
	if d.Correct == diff.CorrectHolm {
		test += fmt.Sprintf("; p-values corrected with Holm-Bonferroni over the rows of each metric (up to %s per metric), so no row of a metric is called changed by chance more often than alpha", units.Plural(dfMostTested(d), "test", "tests"))
	} else if n := dfMostTested(d); n > 1 {
		test += fmt.Sprintf("; p-values are per row, not corrected for the %d rows tested: about alpha x %d of them may pass alpha by chance (--correct holm corrects for it)", n, n)
	}
	lines := []string{"base " + dfSteps(d.Base, short) + " -> new " + dfSteps(d.New, short), per, test}
	if isModules(d) {
		lines = append(lines, moduleMetricsLine)
	}
	return lines
}

// dfN is "a+b", the samples per side of a change ("" when not measured).
func dfN(c diff.Change) string {
	if c.Verdict == diff.Unmeasured {
		return ""
	}
	return strconv.Itoa(c.Base.N) + "+" + strconv.Itoa(c.New.N)
}

// dfNs says whether the changes share one sample count; the count.
func dfNs(cs []diff.Change) (string, bool) {
	n := ""
	for _, c := range cs {
		if c.Verdict == diff.Unmeasured {
			continue
		}
		switch x := dfN(c); {
		case n == "":
			n = x
		case n != x:
			return "", false
		}
	}
	return n, true
}

func dfP(c diff.Change) string {
	if !math.IsNaN(c.PAdj) {
		return diff.PText(c.PAdj)
	}
	return pCell(c)
}

// dfTotals is the totals table.
func dfTotals(d *diff.Diff, w int) viewkit.Titled {
	var cs []diff.Change
	for _, m := range diff.TotalMetrics {
		cs = append(cs, d.Totals[m])
	}
	n, same := dfNs(cs)
	// Δ% goes first on a narrow terminal: Δ says the change in the metric's unit
	g := &layout.Grid{Headers: []string{"total", "base", "new", "Δ", "Δ%", "p"}, RightAlign: []bool{false, true, true, true, true, true}, Width: w, Optional: []int{4}}
	if !same { // n goes next: the title says how samples are counted
		g.Headers, g.RightAlign, g.Optional = append(g.Headers, "n"), append(g.RightAlign, true), append(g.Optional, 6)
	}
	for _, m := range diff.TotalMetrics {
		c := d.Totals[m]
		row := []string{m, "n/a", "n/a", "", "n/a", ""}
		if c.Verdict != diff.Unmeasured {
			row = []string{m, valueCell(c, true), valueCell(c, false), diff.FormatDelta(m, c.Abs), deltaCell(c), dfP(c)}
		}
		if !same {
			row = append(row, dfN(c))
		}
		g.Rows = append(g.Rows, row)
	}
	title := "Totals (medians, ± the spread of their 95% confidence interval"
	if same && n != "" {
		title += "; n = " + n + " samples per side"
	}
	return viewkit.Titled{Title: title + ")", Grid: g}
}

// dfName is a row's name: its key, the step labels of --by step, the
// kernels behind a --key op row.
func dfName(r diff.DiffRow) string {
	name := r.Key
	if r.BaseLabel != "" || r.NewLabel != "" {
		l := r.BaseLabel
		if r.NewLabel != r.BaseLabel {
			l = r.BaseLabel + " -> " + r.NewLabel
		}
		name += " (" + l + ")"
	}
	if len(r.Kernels) > 0 {
		name += " -> [" + units.Plural(len(r.Kernels), "kernel", "kernels") + "]"
	}
	return name
}

func dfStatus(r diff.DiffRow) string {
	if r.Status == diff.FormChanged {
		return "form"
	}
	return r.Status
}

// dfMetricTable is one metric over the rows, the largest absolute change
// first (the row outside the steps on top), at most limit rows.
func dfMetricTable(d *diff.Diff, m string, w, limit int) viewkit.Titled {
	rows := slices.Clone(d.Rows)
	slices.SortStableFunc(rows, func(x, y diff.DiffRow) int {
		ax, ay := math.Abs(x.Metrics[m].Abs), math.Abs(y.Metrics[m].Abs)
		switch {
		case ax > ay:
			return -1
		case ax < ay:
			return 1
		}
		return strings.Compare(x.Key, y.Key)
	})
	more := 0
	if limit >= 0 && len(rows) > limit {
		rows, more = rows[:limit], len(rows)-limit
	}
	if d.Outside != nil {
		rows = append([]diff.DiffRow{*d.Outside}, rows...)
	}
	var cs []diff.Change
	for _, r := range rows {
		if r.Key != diff.OutsideKey {
			cs = append(cs, r.Metrics[m])
		}
	}
	n, same := dfNs(cs)
	// status goes first on a narrow terminal: Δ says "new" of an added
	// row and -100% of a removed one, and changed forms have a table of
	// their own (dfForms)
	g := &layout.Grid{Headers: []string{"name", "status", "base", "new", "Δ", "p"}, RightAlign: []bool{false, false, true, true, true, true},
		Names: []bool{true}, Width: w, Labels: []func([]string, int) []string{rowLabels}, Optional: []int{1}}
	if !same {
		g.Headers, g.RightAlign = append(g.Headers, "n"), append(g.RightAlign, true)
	}
	for _, r := range rows {
		c := r.Metrics[m]
		row := []string{dfName(r), dfStatus(r), valueCell(c, true), valueCell(c, false), deltaCell(c), dfP(c)}
		if !same {
			row = append(row, dfN(c))
		}
		g.Rows = append(g.Rows, row)
	}
	for _, gm := range d.GeoMeans {
		if gm.Metric != m || gm.Rows == 0 {
			continue
		}
		row := []string{"[geomean]", "", diff.FormatValue(m, gm.Base), diff.FormatValue(m, gm.New), diff.RelText(diff.Change{Metric: m, Rel: gm.Rel}), ""}
		if !same {
			row = append(row, "")
		}
		g.Rows = append(g.Rows, row)
	}
	if isModules(d) {
		g.Headers[0] = "module"
		fitModulePaths(g, w)
	}
	title := m + " (median per sample, ± its 95% CI spread; the largest changes first"
	if same && n != "" {
		title += "; n = " + n + " samples per side"
		if d.Outside != nil {
			title += ", " + diff.OutsideKey + " one per trace"
		}
	}
	title += ")"
	foot := ""
	if more > 0 {
		foot = units.Plural(more, "row", "rows") + " more (--limit; --format json or csv lists every row)"
	}
	return viewkit.Titled{Title: title, Grid: g, Foot: foot}
}

// dfForms is the table of rows that changed form.
func dfForms(d *diff.Diff, w int) *viewkit.Titled {
	if len(d.Forms) == 0 {
		return nil
	}
	g := &layout.Grid{Headers: []string{"gone from base", "new in new", "cpu_total base", "cpu_total new", "Δ"},
		RightAlign: []bool{false, false, true, true, true}, Names: []bool{true, true}, Width: w}
	for _, f := range d.Forms {
		g.Rows = append(g.Rows, []string{f.Base, f.New, diff.FormatValue("cpu_total", f.BaseNs), diff.FormatValue("cpu_total", f.NewNs), diff.FormatDelta("cpu_total", f.NewNs-f.BaseNs)})
	}
	return &viewkit.Titled{Title: "Changed form (a CPU row gone from base and one new in new with the same calls and half to twice its time, their names sharing most words: the same work renamed; status form below)", Grid: g}
}

// Text writes a diff for a person (format text or md): the verdict
// first, then the violations, the totals, the rows that changed form and
// the rows, the largest absolute changes first.
func Text(w io.Writer, format string, d *diff.Diff, g *diff.Gate, v View) error {
	if format == "md" {
		return diffMarkdown(w, d, g, v)
	}
	var b strings.Builder
	width := v.Width
	short := dfShort(d)
	b.WriteString(verdictLine("rule", g) + "\n")
	// the gate's lines, the files named by what tells them apart, wrapped
	sg := *g
	sg.Mismatches = nil
	for _, m := range g.Mismatches {
		m.BaseFile, m.NewFile = short[m.BaseFile], short[m.NewFile]
		sg.Mismatches = append(sg.Mismatches, m)
	}
	var gl strings.Builder
	gateLines(&gl, &sg, false, false)
	for _, l := range strings.Split(strings.TrimSuffix(gl.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		body := strings.TrimLeft(l, " ")
		lead := l[:len(l)-len(body)]
		w := width
		if w > 0 {
			w = max(w-len(lead), 20)
		}
		for _, x := range layout.Wrap(body, w, "    ") {
			b.WriteString(lead + x + "\n")
		}
	}
	b.WriteString("\n")
	for _, l := range dfHeader(d, short) {
		for _, x := range layout.Wrap(l, width, "  ") {
			b.WriteString(x + "\n")
		}
	}
	tables := []viewkit.Titled{dfTotals(d, width)}
	if f := dfForms(d, width); f != nil {
		tables = append(tables, *f)
	}
	for _, m := range d.Metrics {
		tables = append(tables, dfMetricTable(d, m, width, v.Limit))
	}
	for _, t := range tables {
		b.WriteString("\n")
		for _, l := range layout.Wrap(t.Title, width, "  ") {
			b.WriteString(l + "\n")
		}
		if err := t.Grid.Write(&b, "text"); err != nil {
			return err
		}
		if t.Foot != "" {
			for _, l := range layout.Wrap(t.Foot, width, "  ") {
				b.WriteString(l + "\n")
			}
		}
	}
	if d.Ignored > 0 {
		fmt.Fprintf(&b, "\n%s found on one side only left out (--ignore-added-removed)\n", units.Plural(d.Ignored, "device row", "device rows"))
	}
	_, err := io.WriteString(w, trimLines(b.String()))
	return err
}

// mdNameWidth is how long a name may be in a Markdown row (cut in the
// middle beyond): a CI summary stays readable and small.
const mdNameWidth = 80

// diffMarkdown is the CI summary: PASS or FAIL, the violations as bullets,
// the totals, one table of every metric with the first --top rows and the
// rest folded into <details>.
func diffMarkdown(w io.Writer, d *diff.Diff, g *diff.Gate, v View) error {
	var b strings.Builder
	res := "PASS"
	if g.Failed() {
		res = "FAIL"
	}
	line := verdictLine("rule", g)
	fmt.Fprintf(&b, "**%s**: tracetab diff, %s\n\n", res, strings.TrimPrefix(line, res+": "))
	gateLines(&b, g, true, false)
	if len(g.Violations)+len(g.NA)+len(g.Mismatches) > 0 {
		b.WriteString("\n")
	}
	for _, l := range dfHeader(d, dfShort(d)) {
		b.WriteString(layout.MdText(l) + "\n\n")
	}
	tt := dfTotals(d, 0)
	if err := tt.Grid.WriteMarkdownCompact(&b, 0); err != nil {
		return err
	}
	if f := dfForms(d, 0); f != nil {
		b.WriteString("\n**" + layout.MdText(f.Title) + "**\n\n")
		if err := f.Grid.WriteMarkdownCompact(&b, mdNameWidth); err != nil {
			return err
		}
	}
	rows := d.Rows
	if v.Limit >= 0 && len(rows) > v.Limit {
		rows = rows[:v.Limit]
	}
	if d.Outside != nil {
		rows = append([]diff.DiffRow{*d.Outside}, rows...)
	}
	top := min(max(v.Top, 0), len(rows))
	grid := func(rs []diff.DiffRow, geo bool) *layout.Grid {
		gr := &layout.Grid{Headers: []string{"Name", "Status"}, RightAlign: []bool{false, false}, Names: []bool{true}}
		for _, m := range d.Metrics {
			gr.Headers = append(gr.Headers, m+" base", m+" new", "Δ", "p", "n")
			gr.RightAlign = append(gr.RightAlign, true, true, true, true, true)
		}
		if isModules(d) {
			gr.Headers[0] = "Module"
		}
		for _, r := range rs {
			name := dfName(r)
			if isModules(d) {
				name = viewkit.CutPath(name, mdNameWidth) // the leading modules give way, as in the module view
			}
			cells := []string{name, dfStatus(r)}
			for _, m := range d.Metrics {
				c := r.Metrics[m]
				cells = append(cells, valueCell(c, true), valueCell(c, false), deltaCell(c), dfP(c), dfN(c))
			}
			gr.Rows = append(gr.Rows, cells)
		}
		if geo {
			cells := []string{"[geomean]", ""}
			for _, gm := range d.GeoMeans {
				if gm.Rows == 0 {
					cells = append(cells, "-", "-", "", "", "")
					continue
				}
				cells = append(cells, diff.FormatValue(gm.Metric, gm.Base), diff.FormatValue(gm.Metric, gm.New),
					diff.RelText(diff.Change{Metric: gm.Metric, Rel: gm.Rel}), "", "")
			}
			gr.Rows = append(gr.Rows, cells)
		}
		return gr
	}
	b.WriteString("\n")
	if err := grid(rows[:top], true).WriteMarkdownCompact(&b, mdNameWidth); err != nil {
		return err
	}
	if rest := rows[top:]; len(rest) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%s more</summary>\n\n", units.Plural(len(rest), "row", "rows"))
		if err := grid(rest, false).WriteMarkdownCompact(&b, mdNameWidth); err != nil {
			return err
		}
		b.WriteString("\n</details>\n")
	}
	if n := len(d.Rows) + boolInt(d.Outside != nil) - len(rows); n > 0 {
		fmt.Fprintf(&b, "\n%s not shown (--limit); --format json or csv lists every row\n", units.Plural(n, "row", "rows"))
	}
	if d.Ignored > 0 {
		fmt.Fprintf(&b, "\n%s found on one side only left out (--ignore-added-removed)\n", units.Plural(d.Ignored, "device row", "device rows"))
	}
	_, err := io.WriteString(w, trimLines(b.String()))
	return err
}
