package stats

import (
	"math"
	"slices"
)

// LogHist is a histogram of durations over log-spaced bins from the
// smallest to the largest value: bin k holds the values d with
// EdgesNs[k] <= d < EdgesNs[k+1] (the last bin includes its upper edge).
// The edges are whole nanoseconds, MinNs * (MaxNs/MinNs)^(k/n) rounded to
// the nearest; a duration of 0 ns counts as 1 ns (the first bin). When
// every value is the same there is one bin.
type LogHist struct {
	MinNs, MaxNs int64
	EdgesNs      []int64 // len(Counts)+1, ascending (equal edges make an empty bin)
	Counts       []int
	MaxCount     int // the largest count (0 when there are no values)
}

// NewLogHist bins durations d into n log-spaced bins (n >= 1). d need not
// be sorted and is not changed.
func NewLogHist(d []int64, n int) LogHist {
	if len(d) == 0 || n < 1 {
		return LogHist{EdgesNs: []int64{}, Counts: []int{}}
	}
	lo, hi := slices.Min(d), slices.Max(d)
	lo, hi = max(lo, 1), max(hi, 1)
	h := LogHist{MinNs: lo, MaxNs: hi}
	if lo == hi {
		n = 1
	}
	h.EdgesNs = make([]int64, n+1)
	h.EdgesNs[0], h.EdgesNs[n] = lo, hi
	ratio := math.Log(float64(hi) / float64(lo))
	for k := 1; k < n; k++ {
		e := int64(math.Round(float64(lo) * math.Exp(ratio*float64(k)/float64(n))))
		h.EdgesNs[k] = min(max(e, h.EdgesNs[k-1]), hi)
	}
	h.Counts = make([]int, n)
	for _, x := range d {
		h.Counts[h.Bin(x)]++
	}
	h.MaxCount = slices.Max(h.Counts)
	return h
}

// Bin is the bin that holds duration x (clamped into the range).
func (h *LogHist) Bin(x int64) int {
	n := len(h.Counts)
	// the last k with EdgesNs[k] <= x, among the first n edges
	k, found := slices.BinarySearch(h.EdgesNs[:n], max(x, 1))
	if !found {
		k--
	} else {
		for k+1 < n && h.EdgesNs[k+1] == h.EdgesNs[k] {
			k++ // equal edges: the value belongs to the last bin that starts there
		}
	}
	return min(max(k, 0), n-1)
}
