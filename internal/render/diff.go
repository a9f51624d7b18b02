package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
)

// DiffSchema and CheckSchema version the JSON forms.
const (
	DiffSchema  = "tracetab.diff/1"
	CheckSchema = "tracetab.check/1"
)

func relText(r float64) string {
	switch {
	case math.IsInf(r, 1):
		return "new"
	case math.IsNaN(r):
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", r*100)
}

func deltaText(metric string, v float64) string {
	s := diff.FormatValue(metric, v)
	if v >= 0 {
		return "+" + s
	}
	return s
}

// DiffGrid is the row table of a diff; nameWidth > 0 shortens names.
func DiffGrid(d *diff.Diff, limit, nameWidth int) *Grid {
	g := &Grid{Headers: []string{"Name", "Status"}}
	for _, m := range d.Metrics {
		g.Headers = append(g.Headers, m+" base", m+" new", "Δ", "Δ%")
	}
	g.RightAlign = make([]bool, len(g.Headers))
	for i := 2; i < len(g.Headers); i++ {
		g.RightAlign[i] = true
	}
	for k, r := range d.Rows {
		if limit >= 0 && k >= limit {
			break
		}
		name := r.Key
		if nameWidth > 0 {
			name = short(name, nameWidth)
		}
		cells := []string{name, r.Status}
		for _, m := range d.Metrics {
			c := r.Metrics[m]
			cells = append(cells, diff.FormatValue(m, c.Base), diff.FormatValue(m, c.New), deltaText(m, c.Abs), relText(c.Rel))
		}
		g.Rows = append(g.Rows, cells)
	}
	return g
}

func totalsGrid(d *diff.Diff) *Grid {
	g := &Grid{Headers: []string{"Total", "Base", "New", "Δ", "Δ%"}, RightAlign: []bool{false, true, true, true, true}}
	for _, m := range diff.TotalMetrics {
		c := d.Totals[m]
		g.Rows = append(g.Rows, []string{m, diff.FormatValue(m, c.Base), diff.FormatValue(m, c.New), deltaText(m, c.Abs), relText(c.Rel)})
	}
	return g
}

func diffHeader(d *diff.Diff) string {
	per := "values are totals over each trace (--no-normalize)"
	if d.Normalize {
		per = "values are per profiler step (totals divided by each trace's step count)"
	}
	return fmt.Sprintf("base %s (%d steps) -> new %s (%d steps); %s", d.Base.File, d.Base.Steps, d.New.File, d.New.Steps, per)
}

func violationsText(b *strings.Builder, viol []diff.Violation, rules int) {
	if rules == 0 {
		return
	}
	if len(viol) == 0 {
		fmt.Fprintf(b, "\nPASS: %d rule(s), no threshold crossed\n", rules)
		return
	}
	fmt.Fprintf(b, "\nFAIL: %d violation(s)\n", len(viol))
	for _, v := range viol {
		fmt.Fprintf(b, "  [%s] %s\n", v.Rule, v.Msg)
	}
}

// DiffText writes a diff for a person (format text or md).
func DiffText(w io.Writer, format string, d *diff.Diff, viol []diff.Violation, rules, limit int) error {
	var b strings.Builder
	if format == "md" {
		fmt.Fprintf(&b, "### tracetab diff\n\n%s\n\n", diffHeader(d))
	} else {
		b.WriteString(diffHeader(d) + "\n\n")
	}
	if err := totalsGrid(d).Write(&b, format); err != nil {
		return err
	}
	b.WriteString("\n")
	width := 0
	if format == "text" {
		width = 60
	}
	if err := DiffGrid(d, limit, width).Write(&b, format); err != nil {
		return err
	}
	violationsText(&b, viol, rules)
	_, err := io.WriteString(w, b.String())
	return err
}

type changeJSON struct {
	Base float64  `json:"base"`
	New  float64  `json:"new"`
	Abs  float64  `json:"abs"`
	Rel  *float64 `json:"rel"` // null when new from zero
}

func changeOf(c diff.Change) changeJSON {
	j := changeJSON{Base: c.Base, New: c.New, Abs: c.Abs}
	if !math.IsInf(c.Rel, 0) && !math.IsNaN(c.Rel) {
		r := c.Rel
		j.Rel = &r
	}
	return j
}

type violationJSON struct {
	Rule    string     `json:"rule"`
	Row     string     `json:"row,omitempty"`
	Metric  string     `json:"metric"`
	Message string     `json:"message"`
	Change  changeJSON `json:"change"`
}

func violationsJSON(viol []diff.Violation) []violationJSON {
	out := []violationJSON{}
	for _, v := range viol {
		out = append(out, violationJSON{v.Rule, v.Row, v.Metric, v.Msg, changeOf(v.Change)})
	}
	return out
}

// DiffJSON writes a diff as JSON (values in microseconds or counts).
func DiffJSON(w io.Writer, d *diff.Diff, viol []diff.Violation) error {
	type rowJSON struct {
		Key     string                `json:"key"`
		Status  string                `json:"status,omitempty"`
		Metrics map[string]changeJSON `json:"metrics"`
	}
	out := struct {
		Schema     string                `json:"schema"`
		Base       string                `json:"base"`
		New        string                `json:"new"`
		BaseSteps  int                   `json:"base_steps"`
		NewSteps   int                   `json:"new_steps"`
		Normalized bool                  `json:"normalized_per_step"`
		Totals     map[string]changeJSON `json:"totals"`
		Rows       []rowJSON             `json:"rows"`
		Violations []violationJSON       `json:"violations"`
		Failed     bool                  `json:"failed"`
	}{Schema: DiffSchema, Base: d.Base.File, New: d.New.File, BaseSteps: d.Base.Steps, NewSteps: d.New.Steps,
		Normalized: d.Normalize, Totals: map[string]changeJSON{}, Rows: []rowJSON{}, Violations: violationsJSON(viol), Failed: len(viol) > 0}
	for m, c := range d.Totals {
		out.Totals[m] = changeOf(c)
	}
	for _, r := range d.Rows {
		rj := rowJSON{Key: r.Key, Status: r.Status, Metrics: map[string]changeJSON{}}
		for m, c := range r.Metrics {
			rj.Metrics[m] = changeOf(c)
		}
		out.Rows = append(out.Rows, rj)
	}
	return JSON(w, out)
}

// JUnit writes one test case per rule (or budget), failing with every
// violation it found.
func JUnit(w io.Writer, suite string, names []string, checked map[string]int, viol []diff.Violation) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type testsuite struct {
		XMLName  xml.Name   `xml:"testsuite"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	ts := testsuite{Name: suite, Tests: len(names)}
	for _, n := range names {
		tc := testcase{Name: n, Classname: suite, SystemOut: fmt.Sprintf("checked %d row(s)", checked[n])}
		var msgs []string
		for _, v := range viol {
			if v.Rule == n {
				msgs = append(msgs, v.Msg)
			}
		}
		if len(msgs) > 0 {
			tc.Failure = &failure{Message: strconv.Itoa(len(msgs)) + " violation(s)", Text: strings.Join(msgs, "\n")}
			ts.Failures++
		}
		ts.Cases = append(ts.Cases, tc)
	}
	b, err := xml.MarshalIndent(ts, "", "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, xml.Header+string(b)+"\n")
	return err
}

// CheckText writes budget outcomes (text or md).
func CheckText(w io.Writer, format, file string, out []diff.Outcome) error {
	var b strings.Builder
	if format == "md" {
		fmt.Fprintf(&b, "### tracetab check %s\n\n", file)
	} else {
		fmt.Fprintf(&b, "tracetab check %s\n\n", file)
	}
	g := &Grid{Headers: []string{"Result", "Budget", "Value", "Max", "Where", "Rows"}, RightAlign: []bool{false, false, true, true, false, true}}
	failed := 0
	for _, o := range out {
		res := "ok"
		if len(o.Failed) > 0 {
			res = "FAIL"
			failed++
		}
		where := o.Row
		if o.Budget.Total {
			where = "(total)"
		}
		if o.Rows == 0 {
			res, where = "ok", "no row matches"
		}
		g.Rows = append(g.Rows, []string{res, o.Budget.Text, diff.FormatValue(o.Budget.Metric, o.Value),
			diff.FormatValue(o.Budget.Metric, o.Budget.Max), where, strconv.Itoa(o.Rows)})
	}
	if err := g.Write(&b, format); err != nil {
		return err
	}
	if failed == 0 {
		fmt.Fprintf(&b, "\nPASS: %d budget(s) met\n", len(out))
	} else {
		fmt.Fprintf(&b, "\nFAIL: %d of %d budget(s) exceeded\n", failed, len(out))
		for _, o := range out {
			for _, v := range o.Failed {
				fmt.Fprintf(&b, "  [%s] %s\n", v.Rule, v.Msg)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CheckJSON writes budget outcomes as JSON.
func CheckJSON(w io.Writer, file string, out []diff.Outcome) error {
	type outcomeJSON struct {
		Budget     string          `json:"budget"`
		Metric     string          `json:"metric"`
		Max        float64         `json:"max"`
		Value      float64         `json:"value"`
		Row        string          `json:"row,omitempty"`
		Rows       int             `json:"rows"`
		Line       int             `json:"line,omitempty"`
		Passed     bool            `json:"passed"`
		Violations []violationJSON `json:"violations"`
	}
	res := struct {
		Schema   string        `json:"schema"`
		File     string        `json:"file"`
		Failed   bool          `json:"failed"`
		Outcomes []outcomeJSON `json:"budgets"`
	}{Schema: CheckSchema, File: file, Outcomes: []outcomeJSON{}}
	for _, o := range out {
		m := o.Budget.Metric
		if o.Budget.Total {
			m = "total." + m
		}
		res.Outcomes = append(res.Outcomes, outcomeJSON{o.Budget.Text, m, o.Budget.Max, o.Value, o.Row, o.Rows, o.Budget.Line,
			len(o.Failed) == 0, violationsJSON(o.Failed)})
		if len(o.Failed) > 0 {
			res.Failed = true
		}
	}
	return JSON(w, res)
}
