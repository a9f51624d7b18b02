package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sweepOneByOne is the pair by pair sweep one tau at a time, as QValues
// first did it: the order of every float add the faster sweeps keep.
func sweepOneByOne(s []float64, minSize int) []float64 {
	n := len(s)
	out := make([]float64, n+1)
	minSize = max(minSize, 1)
	var cross, left, right float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			right += math.Abs(s[i] - s[j])
		}
	}
	for tau := 0; tau <= n; tau++ {
		if tau > 0 {
			v := s[tau-1]
			var toLeft, toRight float64
			for i := 0; i < tau-1; i++ {
				toLeft += math.Abs(v - s[i])
			}
			for j := tau; j < n; j++ {
				toRight += math.Abs(v - s[j])
			}
			left += toLeft
			right -= toRight
			cross += toRight - toLeft
		}
		m, k := tau, n-tau
		if m < minSize || k < minSize {
			out[tau] = math.NaN()
			continue
		}
		out[tau] = q(cross, left, right, m, k)
	}
	return out
}

// TestPairsAreOneByOne: the four-taus-at-a-time sweep gives the one-tau
// sweep's Q values bit for bit on series of fractions (percentages with
// two decimals, noisy reals, ties, signed zeros), every length from 0 to
// 40 (each remainder of 4) and a long one; QValues gives the same.
func TestPairsAreOneByOne(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	kinds := []func() float64{
		func() float64 { return math.Round(r.Float64()*1e4) / 100 },            // gpu_idle_pct-like
		func() float64 { return r.NormFloat64()*1e3 + 1e6 },                    // reals
		func() float64 { return []float64{0.5, 1.25, -0.0, 0}[r.IntN(4)] },     // ties and signed zeros
		func() float64 { return math.Ldexp(r.Float64(), r.IntN(80)-40) + 0.1 }, // wide magnitudes
	}
	compared := 0
	for ki, kind := range kinds {
		for _, n := range append([]int{257}, func() []int {
			var ns []int
			for n := 0; n <= 40; n++ {
				ns = append(ns, n)
			}
			return ns
		}()...) {
			s := make([]float64, n)
			for i := range s {
				s[i] = kind()
			}
			for _, minSize := range []int{1, 2, 3} {
				want := sweepOneByOne(s, minSize)
				got := make([]float64, n+1)
				qValuesPairs(got, s, minSize)
				if !sameBits(got, want) {
					t.Fatalf("kind %d n=%d minSize=%d: %v, one tau at a time %v", ki, n, minSize, got, want)
				}
				// (a series of kind 2 may come out all zeros: QValues takes
				// the integer sums, the same floats)
				if q := QValues(s, minSize); !sameBits(q, want) {
					t.Fatalf("kind %d n=%d minSize=%d: QValues %v, one tau at a time %v", ki, n, minSize, q, want)
				}
				compared++
			}
		}
	}
	t.Logf("%d series compared", compared)
}
