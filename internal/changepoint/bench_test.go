package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// nightly is n step times in ns with 5% jitter, a third slower from
// two thirds on.
func nightly(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Round(4_500_000 * (1 + 0.05*r.NormFloat64()))
		if i >= 2*n/3 {
			s[i] += 1_500_000
		}
	}
	return s
}

// BenchmarkQValues: the integer sums against the pair by pair sweep, on
// a 256-night series, and the pair by pair sweep four taus at a time
// against one at a time.
func BenchmarkQValues(b *testing.B) {
	s := nightly(256)
	b.Run("integers", func(b *testing.B) {
		sc := &scratch{out: make([]float64, len(s)+1)}
		for b.Loop() {
			sc.qValuesInt(s, DefaultMinSize)
		}
	})
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			sweepOneByOne(s, DefaultMinSize)
		}
	})
	b.Run("pairs", func(b *testing.B) {
		out := make([]float64, len(s)+1)
		for b.Loop() {
			qValuesPairs(out, s, DefaultMinSize)
		}
	})
}
