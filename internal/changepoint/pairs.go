package changepoint

import "math"

// qValuesPairs is QValues pair by pair, into out (len(s)+1 values): the
// sum over all pairs of the right side at tau = 0, then, as tau moves
// right, s[tau-1]'s distances to the values left of it (toLeft) and from
// tau on (toRight), each summed in index order from 0. Those sums do not
// depend on one another, so they are not summed one after the other:
// toRight of tau = i+1 has the very terms of row i of the all-pairs sum
// and is summed beside it, and toLeft is summed for four taus at once
// (four adds in flight instead of one waiting on the last). Every float
// is the one the one-tau-at-a-time sweep gives (pairs_test.go).
func qValuesPairs(out, s []float64, minSize int) {
	n := len(s)
	minSize = max(minSize, 1)
	toRight := make([]float64, n) // toRight[i]: that of tau = i+1
	var right float64             // tau = 0: every pair on the right
	for i, v := range s {
		var tr float64
		for _, x := range s[i+1:] {
			d := math.Abs(v - x)
			right += d
			tr += d
		}
		toRight[i] = tr
	}
	var cross, left float64
	step := func(tau int, toLeft float64) {
		left += toLeft
		right -= toRight[tau-1]
		cross += toRight[tau-1] - toLeft
		m, k := tau, n-tau
		if m < minSize || k < minSize {
			out[tau] = math.NaN()
			return
		}
		out[tau] = q(cross, left, right, m, k)
	}
	out[0] = math.NaN() // tau = 0: no value on the left (minSize is at least 1)
	if n > 0 {
		step(1, 0) // nothing on the left of s[0]
	}
	tau := 2
	for ; tau+3 <= n; tau += 4 {
		l := toLeft4(s, tau)
		for k := range 4 {
			step(tau+k, l[k])
		}
	}
	for ; tau <= n; tau++ {
		v := s[tau-1]
		var toLeft float64
		for _, x := range s[:tau-1] {
			toLeft += math.Abs(v - x)
		}
		step(tau, toLeft)
	}
}

// toLeft4 is toLeft of taus t to t+3 (t+3 <= len(s)): for value k
// (s[t-1+k]) the sum of its distances to s[0:t-1+k] in index order.
func toLeft4(s []float64, t int) [4]float64 {
	v0, v1, v2, v3 := s[t-1], s[t], s[t+1], s[t+2]
	var a0, a1, a2, a3 float64
	for _, x := range s[:t-1] {
		a0 += math.Abs(v0 - x)
		a1 += math.Abs(v1 - x)
		a2 += math.Abs(v2 - x)
		a3 += math.Abs(v3 - x)
	}
	a1 += math.Abs(v1 - s[t-1])
	a2 += math.Abs(v2 - s[t-1])
	a2 += math.Abs(v2 - s[t])
	a3 += math.Abs(v3 - s[t-1])
	a3 += math.Abs(v3 - s[t])
	a3 += math.Abs(v3 - s[t+1])
	return [4]float64{a0, a1, a2, a3}
}
