// Package stats holds the statistics tracetab's diff uses to tell noise
// from change: the two-sided Mann-Whitney U test and the median with its
// confidence interval, as benchstat (golang.org/x/perf/benchmath) does it.
//
// The test itself is github.com/aclements/go-moremath/stats, the
// implementation benchmath calls: exact p-values for small samples (with
// ties too, after Klotz 1966) and a normal approximation with tie and
// continuity corrections beyond.
package stats

import (
	"errors"
	"math"
	"slices"

	mstats "github.com/aclements/go-moremath/stats"
)

// UTest is the result of a two-sided Mann-Whitney U test.
type UTest struct {
	N1, N2 int
	U      float64 // the smaller of U1 and U2
	P      float64 // two-sided p-value; 1 when every value is equal
	// MinP is the smallest p-value samples of these sizes can give; when
	// it is above alpha the test cannot detect anything.
	MinP float64
}

// MannWhitney tests whether x and y come from the same distribution
// against the alternative that one tends to be larger. Empty samples give
// an error.
func MannWhitney(x, y []float64) (UTest, error) {
	r := UTest{N1: len(x), N2: len(y), P: 1, MinP: MinP(len(x), len(y))}
	if len(x) == 0 || len(y) == 0 {
		return r, errors.New("an empty sample")
	}
	res, err := mstats.MannWhitneyUTest(x, y, mstats.LocationDiffers)
	if errors.Is(err, mstats.ErrSamplesEqual) {
		r.U = float64(len(x)*len(y)) / 2
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.U = math.Min(res.U, float64(len(x)*len(y))-res.U)
	r.P = math.Min(res.P, 1)
	return r, nil
}

// MinP is the smallest two-sided p-value of the U test for samples of n1
// and n2 values: 2 / C(n1+n2, n1), at most 1.
func MinP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// Summary is the median of a sample with a confidence interval around it.
type Summary struct {
	N      int
	Median float64
	// Lo and Hi bound the 95% confidence interval of the median (order
	// statistics, as benchstat); infinite when the sample is too small.
	Lo, Hi float64
}

// Summarize returns the median and its 95% confidence interval.
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs), Lo: math.Inf(-1), Hi: math.Inf(1)}
	if len(xs) == 0 {
		s.Median = math.NaN()
		return s
	}
	v := slices.Clone(xs)
	slices.Sort(v)
	ci := mstats.QuantileCI(len(v), 0.5, 0.95)
	s.Median, s.Lo, s.Hi = ci.SampleCI(mstats.Sample{Xs: v, Sorted: true})
	if n := len(v); n%2 == 1 {
		s.Median = v[n/2]
	} else {
		s.Median = (v[n/2-1] + v[n/2]) / 2
	}
	return s
}

// Spread is the larger distance from the median to an end of its
// confidence interval, as a fraction of the median (benchstat's ± x%):
// +Inf when the interval is infinite, 0 when the median and interval are 0,
// NaN when they straddle zero.
func (s Summary) Spread() float64 {
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return math.Inf(1)
	}
	if s.Median == 0 {
		if s.Lo == 0 && s.Hi == 0 {
			return 0
		}
		return math.NaN()
	}
	if (s.Lo < 0) != (s.Median < 0) || (s.Hi < 0) != (s.Median < 0) {
		return math.NaN()
	}
	return math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
}

// GeoMean is the geometric mean of positive values (NaN when there are none
// or one is not positive).
func GeoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}
