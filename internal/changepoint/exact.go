package changepoint

import (
	"math"
	"slices"
)

// exactLimit is 2^53: below it every integer is a float64, so integer
// sums that stay below it are exact in any order.
const exactLimit = 1 << 53

// scratch holds the buffers of one search's Q values, reused from one
// segment and shuffle to the next.
type scratch struct {
	out                       []float64
	x, all, prefix, dist, fen []int64
	rank                      []int32
}

func grown[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// qValues is QValues into the scratch's buffer (valid until the next call).
func (sc *scratch) qValues(s []float64, minSize int) []float64 {
	sc.out = grown(sc.out, len(s)+1)
	if sc.qValuesInt(s, minSize) {
		return sc.out
	}
	qValuesPairs(sc.out, s, minSize)
	return sc.out
}

// qValuesInt is QValues in O(n log n) for a series of integers (times in
// ns, counts and bytes, as trend's metrics but gpu_idle_pct are) whose
// pair sums stay below 2^53: then every distance, every sum QValues keeps
// and every step of it is an exact integer, so computing the same sums in
// int64 and in another order gives the very floats the pair by pair sweep
// gives, and the same Q. It writes sc.out; false (sc.out untouched) for
// any other series, which the pair by pair sweep takes.
//
// The sums as tau moves right: value v = s[tau-1] leaves the right side
// for the left. Its distances to the values already on the left (toLeft)
// come from a Fenwick tree over the values' ranks holding their count and
// sum; its distances to all values (dist, from the sorted values' prefix
// sums) less toLeft are those to the right (toRight).
func (sc *scratch) qValuesInt(s []float64, minSize int) bool {
	n := len(s)
	if n == 0 {
		return false
	}
	lo, hi := s[0], s[0]
	for _, v := range s {
		if v != math.Trunc(v) || math.Abs(v) >= exactLimit {
			return false // not an integer (NaN and Inf included)
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	// every pair sum is at most n^2/2 distances of at most hi-lo
	if (hi-lo)*float64(n)*float64(n) >= exactLimit {
		return false
	}
	// shifted to start at 0 (distances do not change): every sum below
	// stays under 2^53; sorted with their positions packed in (x*n + i
	// is under 2^53 too), so equal values come out as runs
	x, all := grown(sc.x, n), grown(sc.all, n)
	for i, v := range s {
		x[i] = int64(v - lo)
		all[i] = x[i]*int64(n) + int64(i)
	}
	slices.Sort(all)
	prefix := grown(sc.prefix, n+1)
	prefix[0] = 0
	for k, p := range all {
		prefix[k+1] = prefix[k] + p/int64(n)
	}
	// rank: 1 + the number of values below x[i] (equal values share it);
	// dist: the sum of |x[i] - x[j]| over all j
	rank, dist := grown(sc.rank, n), grown(sc.dist, n)
	var total int64 // the sum over all pairs: the right side's at tau = 0
	for below := 0; below < n; {
		v := all[below] / int64(n)
		above := below + 1
		for above < n && all[above]/int64(n) == v {
			above++
		}
		d := v*int64(below) - prefix[below] + (prefix[n] - prefix[above]) - v*int64(n-above)
		for k := below; k < above; k++ {
			i := all[k] % int64(n)
			rank[i], dist[i] = int32(below+1), d
			total += d
		}
		below = above
	}
	total /= 2
	// the Fenwick tree: count at fen[2r], sum at fen[2r+1]
	fen := grown(sc.fen, 2*(n+1))
	clear(fen)
	sc.x, sc.all, sc.prefix, sc.rank, sc.dist, sc.fen = x, all, prefix, rank, dist, fen
	out := sc.out
	minSize = max(minSize, 1)
	var cross, left, right int64 = 0, 0, total
	var leftCnt, leftSum int64
	for tau := 0; tau <= n; tau++ {
		if tau > 0 {
			i := tau - 1
			v := x[i]
			// the left side's values below v: count and sum
			var c, sm int64
			for r := int(rank[i]) - 1; r > 0; r -= r & -r {
				c += fen[2*r]
				sm += fen[2*r+1]
			}
			// the others are at least v (the equal ones add 0)
			toLeft := v*c - sm + (leftSum - sm) - v*(leftCnt-c)
			toRight := dist[i] - toLeft
			left += toLeft
			right -= toRight
			cross += toRight - toLeft
			for r := int(rank[i]); r <= n; r += r & -r {
				fen[2*r]++
				fen[2*r+1] += v
			}
			leftCnt++
			leftSum += v
		}
		m, k := tau, n-tau
		if m < minSize || k < minSize {
			out[tau] = math.NaN()
			continue
		}
		out[tau] = q(float64(cross), float64(left), float64(right), m, k)
	}
	return true
}
