package diffview

import (
	"fmt"
	"io"
	"strconv"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
)

// CSV writes one line per row and metric, values in ns, counts, bytes
// or percent as the unit column says.
func CSV(w io.Writer, d *diff.Diff) error {
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
