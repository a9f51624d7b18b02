package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sameBits reports whether a and b hold the same float64s bit for bit
// (NaN where the other has NaN).
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// TestIntegerQValuesArePairByPairs: on series of integers (ns-sized
// times with jitter, few distinct values with many ties, negative ones,
// values near the exactness bound, short series) the O(n log n) sums give
// the pair by pair sweep's Q values bit for bit.
func TestIntegerQValuesArePairByPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	series := map[string]func(n int) []float64{
		"times": func(n int) []float64 {
			s := make([]float64, n)
			for i := range s {
				s[i] = math.Round(4_500_000 * (1 + 0.05*r.NormFloat64()))
				if i > n/2 {
					s[i] += 1_000_000
				}
			}
			return s
		},
		"ties": func(n int) []float64 {
			s := make([]float64, n)
			for i := range s {
				s[i] = float64(r.IntN(3))
			}
			return s
		},
		"negative": func(n int) []float64 {
			s := make([]float64, n)
			for i := range s {
				s[i] = float64(r.IntN(2001) - 1000)
			}
			return s
		},
		"large": func(n int) []float64 {
			// the range just under 2^53/n^2, far from 0
			span := float64(exactLimit)/float64(n*n) - 1
			base := math.Min(1e15, float64(exactLimit)-span-1)
			s := make([]float64, n)
			for i := range s {
				s[i] = base + math.Floor(r.Float64()*span)
			}
			return s
		},
		"constant": func(n int) []float64 {
			s := make([]float64, n)
			for i := range s {
				s[i] = 7
			}
			return s
		},
	}
	checked := 0
	for name, mk := range series {
		for _, n := range []int{1, 2, 3, 5, 6, 17, 64, 257} {
			for _, minSize := range []int{0, 1, 2, 3, 5} {
				s := mk(n)
				sc := &scratch{out: make([]float64, n+1)}
				ok := sc.qValuesInt(s, minSize)
				fast := sc.out
				if !ok {
					t.Fatalf("%s n=%d: an integer series inside the bound was not taken", name, n)
				}
				slow := make([]float64, n+1)
				if qValuesPairs(slow, s, minSize); !sameBits(fast, slow) {
					t.Errorf("%s n=%d minSize=%d: Q values %v, pair by pair %v", name, n, minSize, fast, slow)
				}
				checked++
			}
		}
	}
	t.Logf("%d series compared", checked)
}

// TestOtherSeriesArePairByPair: a series with a fraction, a NaN, an
// infinity or a range past the exactness bound is left to the pair by
// pair sweep, and QValues gives its values.
func TestOtherSeriesArePairByPair(t *testing.T) {
	for name, s := range map[string][]float64{
		"fraction": {1, 2, 3.81, 4, 5, 6},
		"nan":      {1, 2, math.NaN(), 4, 5, 6},
		"inf":      {1, 2, math.Inf(1), 4, 5, 6},
		"range":    {0, 1, 2, float64(exactLimit / 16), 4, 5},
		"empty":    {},
	} {
		if (&scratch{out: make([]float64, len(s)+1)}).qValuesInt(s, 2) {
			t.Errorf("%s: taken by the integer sums", name)
		}
		want := make([]float64, len(s)+1)
		qValuesPairs(want, s, 2)
		if got := QValues(s, 2); !sameBits(got, want) {
			t.Errorf("%s: QValues %v, pair by pair %v", name, got, want)
		}
	}
}
