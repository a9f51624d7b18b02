package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/memoryview"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// DiffSchema and CheckSchema version the JSON forms.
const (
	DiffSchema  = "tracetab.diff/3"
	CheckSchema = "tracetab.check/2"
)

// DiffView chooses how much of a diff a person sees.
type DiffView struct {
	Top   int // md: rows in the main table (the rest fold into <details>)
	Limit int // rows per table in all (negative: all)
	Width int // text: the width to fit (0: no limit)
}

// Middle shortens s to at most n runes by cutting its middle, so the tail
// (template arguments, tile sizes) that tells kernels apart stays.
func Middle(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := (n - 1) / 3
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
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
		return "- " + code(v.Rule) + ": " + code(Middle(row, 100)) + ": " + v.Metric + " " + diff.ChangeText(v.Change)
	}
	return "  - [" + v.Rule + "] " + v.Msg
}

func budgetViolationLine(v diff.Violation, md bool) string {
	if !md {
		return "  - [" + v.Rule + "] " + v.Msg
	}
	s := "- " + code(v.Rule) + ": "
	if v.Row != "" {
		s += code(Middle(v.Row, 100)) + ": "
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

// DiffCSV writes one line per row and metric, values in ns, counts, bytes
// or percent as the unit column says.
func DiffCSV(w io.Writer, d *diff.Diff) error {
	g := &layout.Grid{Headers: []string{"row", "status", "paired_with", "metric", "unit", "base", "new", "delta", "delta_pct", "p_value", "p_value_adjusted", "verdict", "base_samples", "new_samples"}}
	add := func(r diff.DiffRow, total bool) {
		ms := diff.RowMetrics
		if total {
			ms = diff.TotalMetrics
		}
		for _, m := range ms {
			c := r.Metrics[m]
			j := changeOf(c)
			u := diff.UnitOf(m).Suffix()
			g.Rows = append(g.Rows, []string{r.Key, r.Status, r.Pair, m, u, csvNum(j["base_"+u]), csvNum(j["new_"+u]),
				csvNum(j[deltaKey(m)]), csvNum(j["delta_pct"]), csvNum(j["p_value"]), csvNum(j["p_value_adjusted"]), c.Verdict,
				strconv.Itoa(c.Base.N), strconv.Itoa(c.New.N)})
		}
	}
	add(diff.DiffRow{Key: "[total]", Metrics: d.Totals}, true)
	if d.Outside != nil {
		add(*d.Outside, false)
	}
	for _, r := range d.Rows {
		add(r, false)
	}
	return g.Write(w, "csv")
}

func csvNum(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func deltaKey(m string) string {
	if diff.UnitOf(m) == diff.Pct {
		return "delta_pp"
	}
	return "delta_" + diff.UnitOf(m).Suffix()
}

// exact converts a value of a unit for JSON: integers for ns, counts and
// bytes, two decimals for percentages.
func exact(m string, v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	if diff.UnitOf(m) == diff.Pct {
		return viewkit.Round2(v)
	}
	r := int64(math.Round(v))
	return r
}

func changeOf(c diff.Change) map[string]any {
	u := diff.UnitOf(c.Metric).Suffix()
	j := map[string]any{"verdict": c.Verdict, "base_samples_count": c.Base.N, "new_samples_count": c.New.N}
	if c.Verdict == diff.Unmeasured {
		j["base_"+u], j["new_"+u], j[deltaKey(c.Metric)], j["delta_pct"], j["p_value"], j["p_value_adjusted"] = nil, nil, nil, nil, nil, nil
		j["missing"] = c.Missing
		return j
	}
	med := func(s float64) any {
		if math.IsNaN(s) {
			return nil
		}
		return exact(c.Metric, s)
	}
	j["base_"+u], j["new_"+u] = med(c.Base.Median), med(c.New.Median)
	bm, nm := 0.0, 0.0
	if !math.IsNaN(c.Base.Median) {
		bm = c.Base.Median
	}
	if !math.IsNaN(c.New.Median) {
		nm = c.New.Median
	}
	// the delta of the exact values, so base + delta == new in the JSON
	if diff.UnitOf(c.Metric) == diff.Pct {
		j[deltaKey(c.Metric)] = viewkit.Round2(viewkit.Round2(nm) - viewkit.Round2(bm))
	} else {
		j[deltaKey(c.Metric)] = int64(math.Round(nm)) - int64(math.Round(bm))
	}
	j["delta_pct"] = nil
	if diff.UnitOf(c.Metric) != diff.Pct && !math.IsNaN(c.Rel) && !math.IsInf(c.Rel, 0) {
		j["delta_pct"] = viewkit.Round2(c.Rel * 100)
	} else if math.IsNaN(c.Rel) && diff.UnitOf(c.Metric) != diff.Pct {
		j["delta_pct"] = 0.0
	}
	j["p_value"], j["p_value_adjusted"] = nil, nil
	if !math.IsNaN(c.P) {
		j["p_value"] = math.Round(c.P*1e6) / 1e6
	}
	if !math.IsNaN(c.PAdj) {
		j["p_value_adjusted"] = math.Round(c.PAdj*1e6) / 1e6
	}
	for k, s := range map[string]bool{"base_spread_pct": true, "new_spread_pct": false} {
		sp := c.New.Spread()
		if s {
			sp = c.Base.Spread()
		}
		j[k] = nil
		if !math.IsNaN(sp) && !math.IsInf(sp, 0) {
			j[k] = viewkit.Round2(sp * 100)
		}
	}
	return j
}

type violationJSON struct {
	Rule    string `json:"rule"`
	Row     string `json:"row,omitempty"`
	Metric  string `json:"metric"`
	Message string `json:"message"`
}

type naJSON struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

type mismatchJSON struct {
	Field    string `json:"field"`
	Base     string `json:"base"`
	New      string `json:"new"`
	BaseFile string `json:"base_file"`
	NewFile  string `json:"new_file"`
}

func gateJSON(g *diff.Gate) (v []violationJSON, n []naJSON, m []mismatchJSON) {
	v, n, m = []violationJSON{}, []naJSON{}, []mismatchJSON{}
	for _, x := range g.Violations {
		v = append(v, violationJSON{x.Rule, x.Row, x.Metric, x.Msg})
	}
	for _, x := range g.NA {
		n = append(n, naJSON{x.Rule, x.Reason})
	}
	for _, x := range g.Mismatches {
		m = append(m, mismatchJSON{x.Field, x.Base, x.New, x.BaseFile, x.NewFile})
	}
	return
}

type sideJSON struct {
	Files          []string  `json:"files"`
	Steps          [][]int64 `json:"steps"`
	SamplesCount   int       `json:"samples_count"`
	StepsPerSample int       `json:"steps_per_sample_count"`
}

func sideOf(s *diff.Side) sideJSON {
	j := sideJSON{Files: []string{}, Steps: [][]int64{}, SamplesCount: s.Samples(), StepsPerSample: s.StepsPerSample}
	for _, t := range s.Traces {
		j.Files = append(j.Files, t.File)
		st := t.Steps
		if st == nil {
			st = []int64{}
		}
		j.Steps = append(j.Steps, st)
	}
	return j
}

type rowJSON struct {
	Key       string                    `json:"key"`
	Status    string                    `json:"status,omitempty"`
	Pair      *string                   `json:"paired_with"`
	Device    bool                      `json:"device_op"`
	BaseLabel string                    `json:"base_label,omitempty"`
	NewLabel  string                    `json:"new_label,omitempty"`
	Kernels   []string                  `json:"kernels,omitempty"`
	Metrics   map[string]map[string]any `json:"metrics"`
}

func rowOf(r diff.DiffRow) rowJSON {
	rj := rowJSON{Key: r.Key, Status: r.Status, Device: r.Device, BaseLabel: r.BaseLabel, NewLabel: r.NewLabel, Kernels: r.Kernels, Metrics: map[string]map[string]any{}}
	if r.Pair != "" {
		rj.Pair = &r.Pair
	}
	for m, c := range r.Metrics {
		rj.Metrics[m] = changeOf(c)
	}
	return rj
}

type testsJSON struct {
	Metric string `json:"metric"`
	Tests  int    `json:"tests_count"`
}

type formJSON struct {
	Base    string `json:"base_row"`
	New     string `json:"new_row"`
	BaseNs  int64  `json:"cpu_total_base_ns"`
	NewNs   int64  `json:"cpu_total_new_ns"`
	DeltaNs int64  `json:"cpu_total_delta_ns"`
}

// DiffJSON writes a diff as JSON: medians as integer ns (counts, bytes),
// shares in percent with changes in percentage points.
func DiffJSON(w io.Writer, d *diff.Diff, g *diff.Gate) error {
	out := struct {
		Schema     string                    `json:"schema"`
		By         string                    `json:"by"`
		PerStep    bool                      `json:"per_step"`
		Alpha      float64                   `json:"alpha"`
		Base       sideJSON                  `json:"base"`
		New        sideJSON                  `json:"new"`
		Mismatches []mismatchJSON            `json:"mismatches"`
		Totals     map[string]map[string]any `json:"totals"`
		Outside    *rowJSON                  `json:"outside_steps"`
		Rows       []rowJSON                 `json:"rows"`
		GeoMeans   []map[string]any          `json:"geomeans"`
		Ignored    int                       `json:"ignored_added_removed_count"`
		Correction *string                   `json:"correction"`
		Tested     []testsJSON               `json:"tests_per_metric"`
		Forms      []formJSON                `json:"changed_form"`
		Violations []violationJSON           `json:"violations"`
		NA         []naJSON                  `json:"not_measured"`
		Failed     bool                      `json:"failed"`
		Memory     any                       `json:"memory"`
	}{Schema: DiffSchema, By: d.Base.By, PerStep: d.Base.PerStep, Alpha: d.Alpha, Base: sideOf(d.Base), New: sideOf(d.New),
		Totals: map[string]map[string]any{}, Rows: []rowJSON{}, GeoMeans: []map[string]any{}, Ignored: d.Ignored, Failed: g.Failed(),
		Memory: memoryview.DiffJSONValue(d.Memory)}
	out.Violations, out.NA, out.Mismatches = gateJSON(g)
	if d.Correct != "" {
		out.Correction = &d.Correct
	}
	out.Tested = []testsJSON{}
	tested := dfTested(d)
	for _, m := range diff.RowMetrics {
		out.Tested = append(out.Tested, testsJSON{m, tested[m]})
	}
	out.Forms = []formJSON{}
	for _, f := range d.Forms {
		out.Forms = append(out.Forms, formJSON{f.Base, f.New, int64(math.Round(f.BaseNs)), int64(math.Round(f.NewNs)), int64(math.Round(f.NewNs)) - int64(math.Round(f.BaseNs))})
	}
	for m, c := range d.Totals {
		out.Totals[m] = changeOf(c)
	}
	if d.Outside != nil {
		o := rowOf(*d.Outside)
		out.Outside = &o
	}
	for _, r := range d.Rows {
		out.Rows = append(out.Rows, rowOf(r))
	}
	for _, gm := range d.GeoMeans {
		u := diff.UnitOf(gm.Metric).Suffix()
		gj := map[string]any{"metric": gm.Metric, "rows_count": gm.Rows, "base_" + u: nil, "new_" + u: nil, "delta_pct": nil}
		if gm.Rows > 0 {
			gj["base_"+u], gj["new_"+u] = exact(gm.Metric, gm.Base), exact(gm.Metric, gm.New)
			gj["delta_pct"] = viewkit.Round2(gm.Rel * 100)
		}
		out.GeoMeans = append(out.GeoMeans, gj)
	}
	return layout.JSON(w, out)
}

// JUnit writes a <testsuites> document: one test case per rule (or
// budget), failing with its violations or because it measured nothing, and
// one "environment" case listing the mismatches (failing under
// --require-same-env).
func JUnit(w io.Writer, suite string, g *diff.Gate) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type testsuite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type testsuites struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	ts := testsuite{Name: suite}
	for _, n := range g.Rules {
		tc := testcase{Name: n, Classname: suite, SystemOut: "checked " + units.Plural(g.Checked[n], "row", "rows")}
		var msgs []string
		for _, v := range g.Violations {
			if v.Rule == n {
				msgs = append(msgs, v.Msg)
			}
		}
		for _, x := range g.NA {
			if x.Rule != n {
				continue
			}
			if g.AllowMissing {
				tc.Skipped = &skipped{Message: "n/a: " + x.Reason}
			} else {
				msgs = append(msgs, "n/a: "+x.Reason)
			}
		}
		if len(msgs) > 0 {
			tc.Failure = &failure{Message: units.Plural(len(msgs), "failure", "failures") + ": " + Middle(msgs[0], 200), Text: strings.Join(msgs, "\n")}
		}
		ts.Cases = append(ts.Cases, tc)
	}
	env := testcase{Name: "environment", Classname: suite, SystemOut: "traces comparable: no mismatch"}
	if len(g.Mismatches) > 0 {
		var lines []string
		for _, m := range g.Mismatches {
			lines = append(lines, mismatchText(m, false))
		}
		env.SystemOut = strings.Join(lines, "\n")
		if g.RequireSameEnv {
			env.Failure = &failure{Message: units.Plural(len(lines), "environment mismatch", "environment mismatches"), Text: env.SystemOut}
		}
	}
	if suite == "tracetab.diff" {
		ts.Cases = append(ts.Cases, env)
	}
	for _, c := range ts.Cases {
		ts.Tests++
		if c.Failure != nil {
			ts.Failures++
		}
		if c.Skipped != nil {
			ts.Skipped++
		}
	}
	doc := testsuites{Name: suite, Tests: ts.Tests, Failures: ts.Failures, Suites: []testsuite{ts}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, xml.Header+string(b)+"\n")
	return err
}

func outcomeResult(o diff.Outcome) string {
	switch {
	case o.Missing != "":
		return "n/a"
	case len(o.Failed) > 0:
		return "FAIL"
	}
	return "ok"
}

// CheckText writes budget outcomes (text or md), the verdict first; text
// fits width columns (0: no limit): prose wrapped, the budget and where
// columns cut in the middle.
func CheckText(w io.Writer, format, file string, out []diff.Outcome, g *diff.Gate, width int) error {
	var b strings.Builder
	md := format == "md"
	line := verdictLine("budget", g)
	if md {
		res, rest, _ := strings.Cut(line, ": ")
		fmt.Fprintf(&b, "**%s**: tracetab check %s, %s\n\n", res, code(file), rest)
	} else {
		b.WriteString(line + "\n")
	}
	gateLines(&b, g, md, true)
	b.WriteString("\n")
	t := &dtable{headers: []string{"Result", "Budget", "Value", "Limit", "Where", "Rows"}, right: []bool{false, false, true, true, false, true}}
	for _, o := range out {
		where := o.Row
		if o.Budget.Total {
			where = "(total)"
		}
		val := diff.FormatValue(o.Budget.Metric, o.Value)
		if o.Missing != "" {
			val, where = "n/a", o.Missing
		}
		if md {
			where = code(Middle(where, 120))
		} else if width == 0 {
			where = Middle(where, 80)
		}
		budget := o.Budget.Text
		if md {
			budget = code(budget)
		}
		// the limit as written, with the unit its value is printed in
		limit := o.Budget.LimitText()
		if o.Budget.Min {
			limit = "min " + limit // a floor
		} else {
			limit = "max " + limit
		}
		t.rows = append(t.rows, []string{outcomeResult(o), budget, val, limit, where, strconv.Itoa(o.Rows)})
	}
	if md {
		t.md(&b)
	} else {
		gr := t.grid()
		gr.Names, gr.Width = []bool{false, true, false, false, true}, width
		if err := gr.Write(&b, "text"); err != nil {
			return err
		}
	}
	text := trimLines(b.String())
	if !md && width > 0 {
		text = wrapLines(text, width)
	}
	_, err := io.WriteString(w, text)
	return err
}

// wrapLines wraps each line of text longer than width (prose: a grid's
// lines already fit), its continuation indented under it.
func wrapLines(text string, width int) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if layout.Runes(l) <= width {
			out = append(out, l)
			continue
		}
		body := strings.TrimLeft(l, " ")
		lead := l[:len(l)-len(body)]
		for _, w := range layout.Wrap(body, width-len(lead), "    ") {
			out = append(out, lead+w)
		}
	}
	return strings.Join(out, "\n")
}

// CheckJSON writes budget outcomes as JSON.
func CheckJSON(w io.Writer, file string, out []diff.Outcome, g *diff.Gate) error {
	res := struct {
		Schema     string           `json:"schema"`
		File       string           `json:"file"`
		Failed     bool             `json:"failed"`
		Outcomes   []map[string]any `json:"budgets"`
		NA         []naJSON         `json:"not_measured"`
		Violations []violationJSON  `json:"violations"`
	}{Schema: CheckSchema, File: file, Failed: g.Failed(), Outcomes: []map[string]any{}}
	res.Violations, res.NA, _ = gateJSON(g)
	for _, o := range out {
		m := o.Budget.Key()
		u := diff.UnitOf(o.Budget.Metric).Suffix()
		j := map[string]any{"budget": o.Budget.Text, "metric": m, "max_" + u: exact(o.Budget.Metric, o.Budget.Max),
			"max_text": o.Budget.MaxText, "value_" + u: exact(o.Budget.Metric, o.Value), "rows_count": o.Rows,
			"result": outcomeResult(o), "passed": outcomeResult(o) == "ok"}
		if o.Budget.Min { // a floor
			delete(j, "max_"+u)
			delete(j, "max_text")
			j["min_"+u], j["min_text"] = exact(o.Budget.Metric, o.Budget.Max), o.Budget.MaxText
		}
		if o.Missing != "" {
			j["value_"+u] = nil
			j["reason"] = o.Missing
		}
		if o.Row != "" {
			j["row"] = o.Row
		}
		if o.Budget.Line > 0 {
			j["line"] = o.Budget.Line
		}
		vs := []violationJSON{}
		for _, v := range o.Failed {
			vs = append(vs, violationJSON{v.Rule, v.Row, v.Metric, v.Msg})
		}
		j["violations"] = vs
		res.Outcomes = append(res.Outcomes, j)
	}
	return layout.JSON(w, res)
}
