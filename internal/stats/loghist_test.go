package stats

import (
	"math"
	"slices"
	"testing"
)

// TestLogHist: the edges are MinNs*(MaxNs/MinNs)^(k/n) rounded, every
// value lands in the bin whose edges hold it (the last bin holds its upper
// edge), 0 ns counts as 1 ns, one distinct value is one bin.
func TestLogHist(t *testing.T) {
	d := []int64{0, 1, 10, 100, 1000, 1000, 5000, 10000, 99999, 100000}
	h := NewLogHist(d, 5)
	if h.MinNs != 1 || h.MaxNs != 100000 || len(h.Counts) != 5 || len(h.EdgesNs) != 6 {
		t.Fatalf("%+v", h)
	}
	want := []int64{1, 10, 100, 1000, 10000, 100000}
	if !slices.Equal(h.EdgesNs, want) {
		t.Errorf("edges %v, want %v", h.EdgesNs, want)
	}
	// [1,10): 0 (as 1), 1; [10,100): 10; [100,1000): 100; [1000,10000): 1000, 1000, 5000; [10000,100000]: 10000, 99999, 100000
	if !slices.Equal(h.Counts, []int{2, 1, 1, 3, 3}) || h.MaxCount != 3 {
		t.Errorf("counts %v (max %d)", h.Counts, h.MaxCount)
	}
	total := 0
	for _, c := range h.Counts {
		total += c
	}
	if total != len(d) {
		t.Errorf("%d values binned of %d", total, len(d))
	}
	for _, x := range d {
		k := h.Bin(x)
		v := max(x, 1)
		if v < h.EdgesNs[k] || (k < len(h.Counts)-1 && v >= h.EdgesNs[k+1]) || v > h.EdgesNs[k+1] {
			t.Errorf("%d in bin %d [%d, %d)", x, k, h.EdgesNs[k], h.EdgesNs[k+1])
		}
	}
	// the edges follow the formula for a range that is not a power of ten
	h = NewLogHist([]int64{3, 70, 5000}, 24)
	for k, e := range h.EdgesNs {
		f := int64(math.Round(3 * math.Pow(5000.0/3, float64(k)/24)))
		if e != f {
			t.Errorf("edge %d: %d, formula %d", k, e, f)
		}
	}
	if one := NewLogHist([]int64{7, 7, 7}, 12); len(one.Counts) != 1 || one.Counts[0] != 3 {
		t.Errorf("one value: %+v", one)
	}
	// a narrow range repeats edges: their bins stay empty, values go to the last bin starting there
	h = NewLogHist([]int64{1, 2, 3}, 8)
	for _, x := range []int64{1, 2, 3} {
		k := h.Bin(x)
		if h.EdgesNs[k] > x || (k+1 < len(h.Counts) && h.EdgesNs[k+1] <= x) {
			t.Errorf("narrow range: %d in bin %d of edges %v", x, k, h.EdgesNs)
		}
	}
	if h.Counts[0]+h.Counts[len(h.Counts)-1] > 3 || slices.Max(h.Counts) != 1 {
		t.Errorf("narrow range: counts %v of edges %v", h.Counts, h.EdgesNs)
	}
	if e := NewLogHist(nil, 5); len(e.Counts) != 0 || e.MaxCount != 0 {
		t.Errorf("empty: %+v", e)
	}
}
