package diff

import (
	"math"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/stats"
)

// Verdicts of a change.
const (
	Changed    = "changed" // significant at alpha
	Noise      = "~"       // tested and not significant: never fails a rule
	TooFew     = "too few" // too few samples for the test to reach alpha: thresholds alone
	Same       = "same"    // identical medians with too few samples to test
	Unmeasured = "n/a"     // the metric is not in one of the traces
)

// Change is one metric of one row (or total) on both sides.
type Change struct {
	Metric    string
	Base, New stats.Summary
	Abs       float64 // New.Median - Base.Median (percentage points for a share)
	Rel       float64 // Abs / Base.Median; +Inf when Base is 0 and New is not, NaN when both are 0
	P         float64 // two-sided Mann-Whitney p-value; NaN when not tested
	// PAdj is P adjusted for the many rows (--correct holm: Holm-Bonferroni
	// over the family of the metric); NaN when not tested or not corrected.
	PAdj    float64
	MinP    float64 // the smallest p the sample sizes allow
	Verdict string
	Missing string // why the metric is not measured (Verdict n/a)
}

// Counts reports whether a rule may fail on this change: it is measured
// and not noise.
func (c Change) Counts() bool {
	return c.Verdict == Changed || c.Verdict == TooFew
}

func median0(s stats.Summary) float64 {
	if math.IsNaN(s.Median) {
		return 0
	}
	return s.Median
}

// compare builds a Change from the samples of both sides.
func compare(metric string, b, n []float64, alpha float64, missing string) Change {
	c := Change{Metric: metric, Base: stats.Summarize(b), New: stats.Summarize(n), P: math.NaN(), PAdj: math.NaN(), MinP: stats.MinP(len(b), len(n))}
	if missing != "" {
		c.Verdict, c.Missing = Unmeasured, missing
		return c
	}
	bm, nm := median0(c.Base), median0(c.New)
	c.Abs = nm - bm
	switch {
	case bm != 0:
		c.Rel = c.Abs / bm
	case nm != 0:
		c.Rel = math.Inf(1)
	default:
		c.Rel = math.NaN()
	}
	if len(b) > 0 && len(n) > 0 && c.MinP <= alpha {
		u, err := stats.MannWhitney(b, n)
		if err == nil {
			c.P = u.P
			c.Verdict = Noise
			if u.P <= alpha {
				c.Verdict = Changed
			}
			return c
		}
	}
	c.Verdict = TooFew
	if c.Abs == 0 {
		c.Verdict = Same
	}
	return c
}

// DiffRow is a row present on either side.
type DiffRow struct {
	Key       string
	BaseLabel string // --by step: the steps' own numbers
	NewLabel  string
	Status    string // "", "added" (only in NEW), "removed" (only in BASE), or FormChanged
	Pair      string // FormChanged: the key of the row on the other side
	Device    bool
	Kernels   []string // --key op: device ops behind the row, both sides
	Parent    string   // --by module: the parent module's path ("" at the top)
	Metrics   map[string]Change
}

// GeoMean summarises one metric over the rows present on both sides with
// positive medians: the geometric means of each side's medians.
type GeoMean struct {
	Metric    string
	Rows      int
	Base, New float64
	Rel       float64 // New/Base - 1
}

// Diff is the comparison of two sides.
type Diff struct {
	Base, New  *Side
	Rows       []DiffRow
	Outside    *DiffRow
	Totals     map[string]Change
	Metrics    []string
	Alpha      float64
	GeoMeans   []GeoMean
	Mismatches []Mismatch
	Ignored    int         // added or removed device rows left out (--ignore-added-removed)
	Memory     *MemoryDiff // per device memory (memory.go); nil when neither side has [memory] events
	// Forms pairs the rows that changed form: a CPU row gone from BASE and
	// one new in NEW that took most of its time (renamed.go).
	Forms []FormChange
	// Correct is the correction for many rows ("" none, "holm").
	Correct string
}

// Corrections for many rows.
const (
	CorrectNone = ""
	CorrectHolm = "holm"
)

// CompareOptions tune Compare.
type CompareOptions struct {
	Metrics            []string
	Alpha              float64
	IgnoreAddedRemoved bool   // leave out device rows found on one side only
	Correct            string // CorrectNone or CorrectHolm
}

func missingOf(b, n *Side, key string) string {
	if r, ok := b.Missing[key]; ok {
		return r
	}
	return n.Missing[key]
}

// Compare aligns rows by key and tests every metric; rows whose first
// metric changed come first, by the size of the change.
func Compare(base, nw *Side, o CompareOptions) *Diff {
	d := &Diff{Base: base, New: nw, Totals: map[string]Change{}, Metrics: o.Metrics, Alpha: o.Alpha,
		Mismatches: CompareEnv(base.Traces, nw.Traces), Correct: o.Correct}
	nb, nn := base.Samples(), nw.Samples()
	zeros := func(n int) map[string][]float64 {
		m := map[string][]float64{}
		for _, k := range addNames {
			m[k] = make([]float64, n)
		}
		return m
	}
	row := func(key string, b, n *Row) DiffRow {
		dr := DiffRow{Key: key, Metrics: map[string]Change{}}
		bs, ns := zeros(nb), zeros(nn)
		if b != nil {
			bs, dr.BaseLabel, dr.Device, dr.Parent = b.Samples, b.Label, b.Device, b.Parent
			dr.Kernels = append(dr.Kernels, b.Kernels...)
		} else {
			dr.Status = "added"
		}
		if n != nil {
			ns, dr.NewLabel, dr.Device, dr.Parent = n.Samples, n.Label, dr.Device || n.Device, n.Parent
			for _, k := range n.Kernels {
				if !slices.Contains(dr.Kernels, k) {
					dr.Kernels = append(dr.Kernels, k)
				}
			}
		} else {
			dr.Status = "removed"
		}
		for _, m := range RowMetrics {
			dr.Metrics[m] = compare(m, bs[m], ns[m], o.Alpha, missingOf(base, nw, m))
		}
		return dr
	}
	idx := map[string]int{}
	for i, r := range nw.Rows {
		idx[r.Key] = i
	}
	seen := map[string]bool{}
	keep := func(dr DiffRow) {
		if o.IgnoreAddedRemoved && dr.Device && dr.Status != "" {
			d.Ignored++
			return
		}
		d.Rows = append(d.Rows, dr)
	}
	for i := range base.Rows {
		br := &base.Rows[i]
		var n *Row
		if j, ok := idx[br.Key]; ok {
			n = &nw.Rows[j]
			seen[br.Key] = true
		}
		keep(row(br.Key, br, n))
	}
	for i := range nw.Rows {
		if !seen[nw.Rows[i].Key] {
			keep(row(nw.Rows[i].Key, nil, &nw.Rows[i]))
		}
	}
	if base.Outside != nil && nw.Outside != nil {
		o := row(OutsideKey, base.Outside, nw.Outside)
		d.Outside = &o
	}
	for _, m := range TotalMetrics {
		d.Totals[m] = compare(m, base.Totals[m], nw.Totals[m], o.Alpha, missingOf(base, nw, "total."+m))
	}
	if o.Correct == CorrectHolm {
		d.holm()
	}
	d.pairForms()
	// the largest absolute change of the first metric first (ties by key)
	first := o.Metrics[0]
	slices.SortStableFunc(d.Rows, func(x, y DiffRow) int {
		ax, ay := math.Abs(x.Metrics[first].Abs), math.Abs(y.Metrics[first].Abs)
		switch {
		case ax > ay:
			return -1
		case ax < ay:
			return 1
		}
		return strings.Compare(x.Key, y.Key)
	})
	for _, m := range o.Metrics {
		g := GeoMean{Metric: m}
		var bs, ns []float64
		for _, r := range d.Rows {
			c := r.Metrics[m]
			if r.Status == "" && c.Verdict != Unmeasured && c.Base.Median > 0 && c.New.Median > 0 {
				bs, ns = append(bs, c.Base.Median), append(ns, c.New.Median)
			}
		}
		g.Rows = len(bs)
		if g.Rows > 0 {
			g.Base, g.New = stats.GeoMean(bs), stats.GeoMean(ns)
			g.Rel = g.New/g.Base - 1
		}
		d.GeoMeans = append(d.GeoMeans, g)
	}
	return d
}
