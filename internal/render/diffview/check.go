package diffview

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// CheckText writes budget outcomes (text or md), the verdict first; text
// fits width columns (0: no limit): prose wrapped, the budget and where
// columns cut in the middle.
//
// paths says the rows are module paths (check --by module): a path is cut
// by its leading modules (viewkit.CutPath), so the cell still ends in the
// module's name.
func CheckText(w io.Writer, format, file string, out []diff.Outcome, g *diff.Gate, width int, paths bool) error {
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
			where = code(middle(where, 120))
		} else if width == 0 && paths && o.Missing == "" && !o.Budget.Total {
			where = viewkit.CutPath(where, 80)
		} else if width == 0 {
			where = middle(where, 80)
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
		if paths {
			gr.Labels = []func([]string, int) []string{4: viewkit.FitPaths}
		}
		var gb strings.Builder
		if err := gr.Write(&gb, "text"); err != nil {
			return err
		}
		if width > 0 && widest(gb.String()) > width {
			checkRecords(&b, t.rows, width) // the columns alone are wider than width
		} else {
			b.WriteString(gb.String())
		}
	}
	text := trimLines(b.String())
	if !md && width > 0 {
		text = wrapLines(text, width)
	}
	_, err := io.WriteString(w, text)
	return err
}

// checkRecords writes the outcomes one record each, for a width the
// grid's columns do not fit in even with the names cut: the result and
// the budget on the first line (the budget cut in the middle to fit), then
// the value, limit, where and rows as prose wrapped under it. Every
// figure of the grid is there, none of its lines is cut or run together.
func checkRecords(b *strings.Builder, rows [][]string, width int) {
	const indent = "      "
	resW := 0
	for _, r := range rows {
		resW = max(resW, layout.Width(r[0]))
	}
	for _, r := range rows {
		res := r[0] + strings.Repeat(" ", resW-layout.Width(r[0]))
		budget := middle(r[1], width-resW-2)
		b.WriteString(" " + res + " " + budget + "\n")
		detail := "value " + r[2] + ", limit " + r[3] + ", where " + r[4] + ", rows " + r[5]
		for _, l := range layout.Wrap(detail, width-len(indent), "  ") {
			b.WriteString(indent + l + "\n")
		}
	}
}

// widest is the width of text's widest line.
func widest(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		n = max(n, layout.Width(l))
	}
	return n
}

// wrapLines wraps each line of text longer than width (prose: a grid's
// lines already fit), its continuation indented under it.
func wrapLines(text string, width int) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if layout.Width(l) <= width {
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
