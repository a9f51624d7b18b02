// Package changepoint finds the points where a series of measurements
// changes level, by E-divisive means with a permutation test: Matteson, D.
// S. and James, N. A. (2014), "A Nonparametric Approach for Multiple Change
// Point Analysis of Multivariate Data", Journal of the American Statistical
// Association 109(505), 334-345; the method of R's ecp::e.divisive, and the
// one MongoDB's signal-processing-algorithms and Apache Otava (formerly
// DataStax Hunter) run over nightly performance series.
//
// The divergence of two samples X (m values) and Y (n values) is the
// energy statistic with exponent alpha = 1:
//
//	E(X, Y) = 2/(m n) sum|x_i - y_j| - 1/C(m,2) sum_{i<k}|x_i - x_k| - 1/C(n,2) sum_{j<k}|y_j - y_k|
//
// and a split of a segment at tau (X = the values before tau, Y = from tau
// on) scores Q(tau) = m n / (m + n) E(X, Y). The best split of the series is
// the tau of the largest Q with at least MinSize values on each side. It is
// kept when a permutation test finds it significant: the values of every
// current segment are shuffled within the segment (Permutations times, from
// a generator seeded with Seed, so the result is the same on every run) and
// the best Q over all segments is found again; the p-value is (1 + the
// number of shuffles whose best Q reaches the candidate's) / (1 +
// Permutations), and the split is kept when it is at most Alpha. Each kept
// split divides its segment in two and the search goes on over all the
// segments (divisive, one point at a time: the candidate is the best split
// over every current segment) until a candidate is not significant or no
// segment can be split.
//
// Differences from the other implementations, each on the side of the
// paper: Q's coefficient is m n / (m + n) as a real number (MongoDB's
// floors it to an integer, and it divides the within-sample sums of X by
// Y's pair count and the other way round, which agrees with the paper only
// when m = n); the p-value counts the observed split as one of the
// permutations (ecp's (1 + k) / (1 + R); MongoDB's k / (R + 1) can be 0).
// ecp stops the permutations early (Gandy 2009); this package always runs
// all of them.
package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Defaults of Options.
const (
	DefaultAlpha        = 0.01
	DefaultPermutations = 199
	DefaultMinSize      = 3
	DefaultSeed         = 1
)

// Options are the method's parameters; a zero field takes its default.
type Options struct {
	// Alpha is the significance level: a split is kept when its p-value is
	// at most Alpha (0.01).
	Alpha float64
	// Permutations is the number of shuffles of the permutation test (199,
	// as ecp; the smallest p-value is 1/(Permutations+1) = 0.005).
	Permutations int
	// MinSize is the least number of values on each side of a change
	// point (3; at least 2, so each side has a pair).
	MinSize int
	// Seed seeds the shuffles (1): the same series gives the same change
	// points on every run.
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Permutations <= 0 {
		o.Permutations = DefaultPermutations
	}
	switch {
	case o.MinSize == 0:
		o.MinSize = DefaultMinSize
	case o.MinSize < 2:
		o.MinSize = 2
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	return o
}

// Point is one change point.
type Point struct {
	// Index is the position of the first value of the new level: the
	// values before Index and from Index on differ.
	Index int
	// Q is the split's score Q(Index) within the segment it divided.
	Q float64
	// PValue is the permutation test's p-value of the split.
	PValue float64
	// Order is when it was found: 0 for the first (the strongest split of
	// the whole series), 1 for the next, ...
	Order int
}

// Find returns the significant change points of x in index order. A
// series with NaN values has none (the caller leaves them out first).
func Find(x []float64, o Options) []Point {
	o = o.withDefaults()
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	bounds := []int{0, len(x)} // segment boundaries, sorted
	var points []Point
	buf := make([]float64, len(x))
	sc := &scratch{}
	for {
		best, ok := bestSplit(x, bounds, o.MinSize, sc)
		if !ok {
			break
		}
		// the permutation test: shuffle within every current segment
		reached := 0
		for r := 0; r < o.Permutations; r++ {
			copy(buf, x)
			for k := 0; k+1 < len(bounds); k++ {
				seg := buf[bounds[k]:bounds[k+1]]
				rng.Shuffle(len(seg), func(i, j int) { seg[i], seg[j] = seg[j], seg[i] })
			}
			if p, ok := bestSplit(buf, bounds, o.MinSize, sc); ok && p.Q >= best.Q {
				reached++
			}
		}
		best.PValue = float64(reached+1) / float64(o.Permutations+1)
		if best.PValue > o.Alpha {
			break
		}
		best.Order = len(points)
		points = append(points, best)
		bounds = append(bounds, best.Index)
		slices.Sort(bounds)
	}
	slices.SortFunc(points, func(a, b Point) int { return a.Index - b.Index })
	return points
}

// bestSplit is the largest Q over the segments of x between bounds (the
// earliest on a tie); false when no segment has 2*minSize values.
func bestSplit(x []float64, bounds []int, minSize int, sc *scratch) (Point, bool) {
	best, found := Point{Q: math.Inf(-1)}, false
	for k := 0; k+1 < len(bounds); k++ {
		a, b := bounds[k], bounds[k+1]
		tau, q, ok := bestIn(x[a:b], minSize, sc)
		if ok && (!found || q > best.Q) {
			best, found = Point{Index: a + tau, Q: q}, true
		}
	}
	return best, found
}

// bestIn is the tau of the largest Q(tau) over minSize <= tau <= len(s)-minSize.
func bestIn(s []float64, minSize int, sc *scratch) (int, float64, bool) {
	qs := sc.qValues(s, minSize)
	best, q := -1, math.Inf(-1)
	for tau, v := range qs {
		if tau >= minSize && tau <= len(s)-minSize && v > q {
			best, q = tau, v
		}
	}
	return best, q, best >= 0
}

// QValues returns Q(tau) for every tau of s (NaN where a side has fewer
// than minSize values, or fewer than 1). Sums are kept as tau moves right
// one value at a time, so all of them take O(len(s)^2); a series of
// integers gets the same values in O(len(s) log len(s)) (exact.go).
func QValues(s []float64, minSize int) []float64 {
	return (&scratch{}).qValues(s, minSize)
}

// q is m n/(m+n) times the energy divergence from the three pair sums.
func q(cross, left, right float64, m, n int) float64 {
	fm, fn := float64(m), float64(n)
	e := 2 * cross / (fm * fn)
	if m > 1 {
		e -= 2 * left / (fm * (fm - 1))
	}
	if n > 1 {
		e -= 2 * right / (fn * (fn - 1))
	}
	return fm * fn / (fm + fn) * e
}
