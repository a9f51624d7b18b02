package diffview

import (
	"io"
	"math"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/memoryview"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

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

// moduleRowJSON is a --by module row: the row with its module path and
// its parent's path (null at the top).
type moduleRowJSON struct {
	rowJSON
	Module string  `json:"module"`
	Parent *string `json:"parent"`
}

func moduleRowOf(r diff.DiffRow) moduleRowJSON {
	m := moduleRowJSON{rowJSON: rowOf(r), Module: r.Key}
	if r.Parent != "" {
		m.Parent = &r.Parent
	}
	return m
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

// JSON writes a diff as JSON: medians as integer ns (counts, bytes),
// shares in percent with changes in percentage points.
func JSON(w io.Writer, d *diff.Diff, g *diff.Gate) error {
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
		Rows       []any                     `json:"rows"`
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
		Totals: map[string]map[string]any{}, Rows: []any{}, GeoMeans: []map[string]any{}, Ignored: d.Ignored, Failed: g.Failed(),
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
		if isModules(d) {
			out.Rows = append(out.Rows, moduleRowOf(r))
		} else {
			out.Rows = append(out.Rows, rowOf(r))
		}
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
