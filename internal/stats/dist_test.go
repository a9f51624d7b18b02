package stats

import (
	"math"
	"testing"
)

// TestDistribution: the figures worked by hand beside each case.
func TestDistribution(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
		want Dist
	}{
		{"none", nil, Dist{}},
		// one value: every figure is it, no spread
		{"one", []float64{7}, Dist{N: 1, Min: 7, Median: 7, P90: 7, Max: 7}},
		// sorted 1 2 3 4 10: median 3; p90 index round(0.9*4)=4 -> 10;
		// deviations 2 1 0 1 7 -> sorted 0 1 1 2 7 -> MAD 1
		{"odd", []float64{10, 2, 1, 4, 3}, Dist{N: 5, Min: 1, Median: 3, P90: 10, Max: 10, MAD: 1}},
		// sorted 1 2 3 4: median (2+3)/2 = 2.5; p90 index round(2.7)=3 -> 4;
		// deviations 1.5 0.5 0.5 1.5 -> MAD (0.5+1.5)/2 = 1
		{"even", []float64{4, 3, 2, 1}, Dist{N: 4, Min: 1, Median: 2.5, P90: 4, Max: 4, MAD: 1}},
		// nine equal values and one far: MAD 0
		{"straggler", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 90}, Dist{N: 10, Min: 5, Median: 5, P90: 5, Max: 90}},
	} {
		if got := Distribution(c.xs); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestDeviation(t *testing.T) {
	d := Distribution([]float64{10, 2, 1, 4, 3}) // median 3, MAD 1
	for _, c := range []struct {
		x, dev float64
		out    bool
	}{{3, 0, false}, {6, 3, false}, {7, 4, true}, {-1, 4, true}} {
		if got := d.Deviation(c.x); got != c.dev || d.StandsOut(c.x) != c.out {
			t.Errorf("x %v: deviation %v (stands out %v), want %v (%v)", c.x, got, d.StandsOut(c.x), c.dev, c.out)
		}
	}
	z := Distribution([]float64{5, 5, 5, 90})
	if !math.IsInf(z.Deviation(90), 1) || z.Deviation(5) != 0 || !z.StandsOut(6) {
		t.Errorf("MAD 0: %v %v", z.Deviation(90), z.Deviation(5))
	}
}

func TestNearestRank(t *testing.T) {
	s := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11} // index round(0.9*10)=9 -> 10
	if got := NearestRank(s, 0.9); got != 10 {
		t.Errorf("p90 %d", got)
	}
	if NearestRank([]int64(nil), 0.5) != 0 || NearestRank(s, 0) != 1 || NearestRank(s, 1) != 11 {
		t.Error("ends")
	}
}
