package trace

import (
	"cmp"
	"slices"
)

// Union returns the total length of the union of half-open intervals
// [a, b), and the first start and last end. It sorts ivs when they are not
// sorted by start already.
func Union(ivs [][2]int64) (total, lo, hi int64) {
	if len(ivs) == 0 {
		return 0, 0, 0
	}
	by := func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) }
	if !slices.IsSortedFunc(ivs, by) {
		slices.SortFunc(ivs, by)
	}
	lo, hi = ivs[0][0], ivs[0][1]
	cs, ce := ivs[0][0], ivs[0][1]
	for _, x := range ivs[1:] {
		if x[0] > ce {
			total += ce - cs
			cs, ce = x[0], x[1]
		} else if x[1] > ce {
			ce = x[1]
		}
		hi = max(hi, x[1])
	}
	return total + ce - cs, lo, hi
}
