package categories

import (
	"slices"
)

// Pct is part as a percentage of whole, nil when whole is 0 (nothing to
// share).
func Pct(part, whole int64) *float64 {
	if whole <= 0 {
		return nil
	}
	p := float64(part) * 100 / float64(whole)
	return &p
}

// Spread is how a category's share of a step's device time is spread
// over the steps: the least, the median and the most (percentages), over
// the steps with device work.
type Spread struct {
	Min, Median, Max float64
	Steps            int // the steps with device work, counted
}

// SpreadOf is category k's share over the steps with device work; ok is
// false when no step has any.
func (r *Result) SpreadOf(k int) (Spread, bool) {
	var shares []float64
	for _, s := range r.Steps {
		if p := Pct(s.Cells[k].DeviceNs, s.DeviceNs); p != nil {
			shares = append(shares, *p)
		}
	}
	if len(shares) == 0 {
		return Spread{}, false
	}
	slices.Sort(shares)
	n := len(shares)
	med := shares[n/2]
	if n%2 == 0 {
		med = (shares[n/2-1] + shares[n/2]) / 2
	}
	return Spread{Min: shares[0], Median: med, Max: shares[n-1], Steps: n}, true
}

// Used lists the categories with device work in the whole result, in
// opclass.Categories order: the columns a view needs.
func (r *Result) Used() []int {
	var ks []int
	for k, c := range r.Cells {
		if c.Kernels > 0 {
			ks = append(ks, k)
		}
	}
	return ks
}
