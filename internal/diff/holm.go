package diff

import (
	"cmp"
	"math"
	"slices"
)

// holm corrects the p-values for the many rows (--correct holm). Each row
// metric is one family: the tests of that metric over every row, the row
// outside the steps included (a total is one test, so it keeps its p).
// Holm-Bonferroni's step-down: the i-th smallest of the family's m
// p-values is adjusted to the largest (m-j+1)·p(j) over j <= i, at most 1;
// a change is significant when its adjusted p is at most alpha. The
// chance that any row of a metric is called changed when none changed is
// then at most alpha, whatever the tests' dependence.
func (d *Diff) holm() {
	type ref struct {
		m   map[string]Change
		key string
	}
	fams := map[string][]ref{}
	collect := func(m map[string]Change) {
		for k, c := range m {
			if !math.IsNaN(c.P) {
				fams[k] = append(fams[k], ref{m, k})
			}
		}
	}
	for i := range d.Rows {
		collect(d.Rows[i].Metrics)
	}
	if d.Outside != nil {
		collect(d.Outside.Metrics)
	}
	for _, f := range fams {
		slices.SortStableFunc(f, func(a, b ref) int { return cmp.Compare(a.m[a.key].P, b.m[b.key].P) })
		n := len(f)
		run := 0.0
		for i, r := range f {
			c := r.m[r.key]
			run = math.Max(run, math.Min(1, float64(n-i)*c.P))
			c.PAdj = run
			c.Verdict = Noise
			if c.PAdj <= d.Alpha {
				c.Verdict = Changed
			}
			r.m[r.key] = c
		}
	}
}
