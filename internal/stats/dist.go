package stats

import (
	"math"
	"slices"
)

// StandOutMADs is how far from a column's median a value lies, in median
// absolute deviations, before it stands out of the column (views that
// summarise a list that grows with the input list the rows that do).
const StandOutMADs = 3

// Dist is the distribution of one column of values: the figures a view
// prints in place of a list that grows with the input.
type Dist struct {
	N int // values (a row without one is not counted)
	// Min, Median, P90 and Max: the median is the middle value, the mean
	// of the middle two for an even count (as MedianNs); P90 is the
	// nearest rank, the value at index round(0.9*(N-1)) of the sorted
	// values (as gaps' latency percentiles).
	Min, Median, P90, Max float64
	// MAD is the median absolute deviation from the median: the spread a
	// value is measured against (robust: one straggler does not move it).
	MAD float64
}

// Distribution is the Dist of xs; the zero Dist for no values.
func Distribution(xs []float64) Dist {
	n := len(xs)
	if n == 0 {
		return Dist{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	d := Dist{N: n, Min: s[0], Max: s[n-1], Median: medianSorted(s), P90: NearestRank(s, 0.9)}
	dev := make([]float64, n)
	for i, x := range s {
		dev[i] = math.Abs(x - d.Median)
	}
	slices.Sort(dev)
	d.MAD = medianSorted(dev)
	return d
}

// NearestRank is the p-quantile (0..1) of sorted values by the nearest
// rank: the value at index round(p*(n-1)); 0 for no values.
func NearestRank[T int64 | float64](sorted []T, p float64) T {
	if len(sorted) == 0 {
		return 0
	}
	k := int(p*float64(len(sorted)-1) + 0.5)
	return sorted[min(max(k, 0), len(sorted)-1)]
}

func medianSorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Deviation is how far x lies from the median in MADs: |x - median| /
// MAD. With a MAD of 0 (more than half the values equal) any other value
// is infinitely far (+Inf), the median itself 0.
func (d Dist) Deviation(x float64) float64 {
	diff := math.Abs(x - d.Median)
	if diff == 0 {
		return 0
	}
	if d.MAD == 0 {
		return math.Inf(1)
	}
	return diff / d.MAD
}

// StandsOut reports whether x lies more than StandOutMADs MADs from the
// median.
func (d Dist) StandsOut(x float64) bool { return d.Deviation(x) > StandOutMADs }
