package gapsview

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

var roleKeys = []string{"kernel_ns", "memcpy_ns", "memset_ns", "runtime_ns", "dataloader_ns", "cpu_exec_ns", "other_ns"}

func stepBreakdownJSON(s gaps.StepBreakdown) map[string]any {
	m := map[string]any{"total_ns": s.TotalNs}
	if s.Step >= 0 {
		m["step"], m["start_ns"], m["extended_by_ns"] = s.Step, s.StartNs, s.ExtendedByNs
	}
	for r, k := range roleKeys {
		m[k] = s.Ns[r]
	}
	return m
}

func breakdownJSON(b *gaps.Breakdown) any {
	steps := []map[string]any{}
	for _, s := range b.Steps {
		steps = append(steps, stepBreakdownJSON(s))
	}
	var advice, note *string
	if b.Advice != "" {
		advice = &b.Advice
	}
	if b.Note != "" {
		note = &b.Note
	}
	return map[string]any{"steps": steps, "total": stepBreakdownJSON(b.Total), "advice": advice,
		"advice_agrees_with_verdict": b.AgreesWithVerdict, "note": note}
}

// breakdownGrid is the step breakdown as a table (durations as f formats them).
func breakdownGrid(b *gaps.Breakdown, f func(int64) string, csv bool) *layout.Grid {
	g := &layout.Grid{Headers: []string{"Step", "Total"}, RightAlign: []bool{true, true}}
	if csv {
		g.Headers = []string{"step", "total_ns"}
	}
	for r, role := range gaps.Roles() {
		if csv {
			g.Headers = append(g.Headers, roleKeys[r])
		} else {
			g.Headers = append(g.Headers, role.String())
		}
		g.RightAlign = append(g.RightAlign, true)
	}
	add := func(name string, s gaps.StepBreakdown) {
		row := []string{name, f(s.TotalNs)}
		for _, ns := range s.Ns {
			row = append(row, f(ns))
		}
		g.Rows = append(g.Rows, row)
	}
	for _, s := range b.Steps {
		add(strconv.FormatInt(s.Step, 10), s)
	}
	add("total", b.Total)
	return g
}

// zeroRoles are the breakdown grid's role columns that are 0 in every
// step (positions in the grid), for a narrow terminal to leave out.
func zeroRoles(b *gaps.Breakdown) []int {
	var out []int
	for r := range gaps.Roles() {
		if b.Total.Ns[r] == 0 {
			out = append(out, 2+r)
		}
	}
	return out
}

// breakdownSummary summarises the text breakdown's step rows by the total
// and each role.
func breakdownSummary(b *gaps.Breakdown) viewkit.Summary {
	n := len(b.Steps)
	total := make([]int64, n)
	roles := make([][]int64, len(gaps.Roles()))
	for r := range roles {
		roles[r] = make([]int64, n)
	}
	for i, s := range b.Steps {
		total[i] = s.TotalNs
		for r, ns := range s.Ns {
			roles[r][i] = ns
		}
	}
	cols := []viewkit.Column{viewkit.NsColumn(1, total, nil)}
	for r := range roles {
		cols = append(cols, viewkit.NsColumn(2+r, roles[r], nil))
	}
	return viewkit.Summary{Noun: "steps", Label: 0, Cols: cols}
}
