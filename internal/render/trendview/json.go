package trendview

import (
	"io"
	"math"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/trend"
)

// Schema is the JSON document's version (docs/output.md).
const Schema = "tracetab.trend/1"

type methodJSON struct {
	Name         string  `json:"name"`
	Alpha        float64 `json:"alpha"`
	Permutations int     `json:"permutations"`
	MinSegment   int     `json:"smallest_segment_runs"`
	Seed         uint64  `json:"seed"`
}

type runJSON struct {
	Index   int    `json:"index"`
	Run     string `json:"run"`
	StartNs *int64 `json:"start_ns"`
	Steps   int    `json:"steps"`
}

type leftOutJSON struct {
	Run         string `json:"run"`
	Field       string `json:"field"`
	Value       string `json:"value"`
	SeriesValue string `json:"series_value"`
}

type changeJSON struct {
	Index     int      `json:"index"`
	Run       string   `json:"run"`
	Before    any      `json:"before"`
	After     any      `json:"after"`
	ChangePct *float64 `json:"change_pct"`
	PValue    float64  `json:"p_value"`
}

type metricJSON struct {
	Name         string       `json:"name"`
	Unit         string       `json:"unit"`
	Values       []any        `json:"values"`
	ChangePoints []changeJSON `json:"change_points"`
}

type violationJSON struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

type docJSON struct {
	Schema     string          `json:"schema"`
	Order      string          `json:"order"`
	Method     methodJSON      `json:"method"`
	Window     int             `json:"window_runs"`
	Runs       []runJSON       `json:"runs"`
	LeftOut    []leftOutJSON   `json:"left_out"`
	Metrics    []metricJSON    `json:"metrics"`
	Rules      []string        `json:"rules"`
	Violations []violationJSON `json:"violations"`
}

// number is a value as JSON writes it: whole ns and bytes as integers,
// percentages with 2 decimals, null for NaN.
func number(v float64, unit string) any {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return nil
	case unit == trend.UnitPct:
		return math.Round(v*100) / 100
	}
	return int64(math.Round(v))
}

// JSON writes the tracetab.trend/1 document; g is the --fail-on verdict
// (nil without rules).
func JSON(w io.Writer, res *trend.Result, window int, g *diff.Gate) error {
	d := docJSON{Schema: Schema, Order: res.Order, Window: window, Runs: []runJSON{}, LeftOut: []leftOutJSON{},
		Metrics: []metricJSON{}, Rules: []string{}, Violations: []violationJSON{},
		Method: methodJSON{Name: "e-divisive means", Alpha: res.Method.Alpha, Permutations: res.Method.Permutations,
			MinSegment: res.Method.MinSize, Seed: res.Method.Seed}}
	for k, r := range res.Runs {
		rj := runJSON{Index: k, Run: r.Path, Steps: r.Steps}
		if r.HasClock {
			rj.StartNs = &r.StartNs
		}
		d.Runs = append(d.Runs, rj)
	}
	for _, l := range res.LeftOut {
		d.LeftOut = append(d.LeftOut, leftOutJSON{Run: l.Path, Field: l.Field, Value: l.Value, SeriesValue: l.Series})
	}
	for _, m := range res.Metrics {
		mj := metricJSON{Name: m.Name, Unit: m.Unit, Values: make([]any, len(m.Values)), ChangePoints: []changeJSON{}}
		for k, v := range m.Values {
			mj.Values[k] = number(v, m.Unit)
		}
		for _, c := range m.Points {
			cj := changeJSON{Index: c.Index, Run: c.Run, Before: number(c.Before, m.Unit), After: number(c.After, m.Unit), PValue: c.PValue}
			if !math.IsNaN(c.ChangePct) {
				p := c.ChangePct
				cj.ChangePct = &p
			}
			mj.ChangePoints = append(mj.ChangePoints, cj)
		}
		d.Metrics = append(d.Metrics, mj)
	}
	if g != nil {
		d.Rules = append(d.Rules, g.Rules...)
		for _, v := range g.Violations {
			d.Violations = append(d.Violations, violationJSON{Rule: v.Rule, Message: v.Msg})
		}
	}
	return layout.JSON(w, d)
}
