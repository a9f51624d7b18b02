package stats

import "slices"

// MedianNs is the one median of durations every view prints: the middle
// value, and for an even count the mean of the middle two (as numpy and
// torch take it), an odd half nanosecond rounded up. It sorts a copy; 0
// for no values.
func MedianNs(d []int64) int64 {
	n := len(d)
	if n == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return MedianSortedNs(s)
}

// MedianSortedNs is MedianNs of values already sorted ascending.
func MedianSortedNs(s []int64) int64 {
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	a, b := s[n/2-1], s[n/2]
	// a + (b-a+1)/2 without overflow for b >= a
	return a + (b-a+1)/2
}
