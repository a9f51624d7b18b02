package diff

import (
	"math"
	"testing"

	"github.com/tracetab/tracetab/internal/stats"
)

// TestHolmStepDown: the adjusted p-values of one metric's rows are Holm's
// step-down (the running maximum of (m-i)·p over the sorted p-values, at
// most 1), and the verdicts follow them.
func TestHolmStepDown(t *testing.T) {
	ps := []float64{0.01, 0.04, 0.03, 0.005}
	d := &Diff{Alpha: 0.05, Totals: map[string]Change{}}
	for i, p := range ps {
		d.Rows = append(d.Rows, DiffRow{Key: string(rune('a' + i)), Metrics: map[string]Change{"self_cpu": {Metric: "self_cpu", P: p, Verdict: Changed}}})
	}
	d.holm()
	// sorted 0.005 0.01 0.03 0.04 -> 0.02, 0.03, 0.06, 0.06
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i, r := range d.Rows {
		c := r.Metrics["self_cpu"]
		if math.Abs(c.PAdj-want[i]) > 1e-12 {
			t.Errorf("row %s: adjusted %v, want %v", r.Key, c.PAdj, want[i])
		}
		if (c.Verdict == Changed) != (want[i] <= 0.05) {
			t.Errorf("row %s: verdict %s at adjusted %v", r.Key, c.Verdict, c.PAdj)
		}
	}
}

// TestPairForms: a removed CPU row and an added one with the same calls, a
// time within a factor of two and names that share most words are paired;
// a device row, a far time or unrelated names are not.
func TestPairForms(t *testing.T) {
	ch := func(base, nw float64) Change {
		return Change{Base: stats.Summary{N: 4, Median: base}, New: stats.Summary{N: 4, Median: nw}, P: math.NaN()}
	}
	row := func(key, status string, dev bool, t0, t1, n0, n1 float64) DiffRow {
		return DiffRow{Key: key, Status: status, Device: dev, Metrics: map[string]Change{"cpu_total": ch(t0, t1), "count": ch(n0, n1)}}
	}
	d := &Diff{Rows: []DiffRow{
		row("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "removed", false, 1000, 0, 1, 0),
		row("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "added", false, 0, 700, 0, 1),
		row("aten::foo", "removed", false, 500, 0, 2, 0),
		row("aten::bar", "added", false, 0, 500, 0, 2), // shares only "aten"
		row("kernel_a", "removed", true, 100, 0, 1, 0),
		row("kernel_b", "added", true, 0, 100, 0, 1),
		row("my_step_fn", "removed", false, 100, 0, 1, 0),
		row("my_step_fn_v2", "added", false, 0, 1000, 0, 1), // ten times the time
	}}
	d.pairForms()
	if len(d.Forms) != 1 || d.Forms[0].New != d.Rows[1].Key || d.Rows[0].Status != FormChanged || d.Rows[1].Pair != d.Rows[0].Key {
		t.Errorf("forms %+v, rows %+v", d.Forms, d.Rows[:2])
	}
	for _, r := range d.Rows[2:] {
		if r.Status == FormChanged {
			t.Errorf("%s paired", r.Key)
		}
	}
}
