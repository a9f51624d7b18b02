package stats

import (
	"math"
	"testing"
)

// Published exact tables: Mann & Whitney (1947), Table I, P(U <= u) for
// small samples; the two-sided p-value is twice that (at most 1).
func TestMannWhitneyPublishedTables(t *testing.T) {
	table := map[[2]int][]float64{
		{3, 3}: {0.050, 0.100, 0.200, 0.350, 0.500},
		{4, 4}: {0.014, 0.029, 0.057, 0.100, 0.171, 0.243, 0.343, 0.443},
		{5, 5}: {0.004, 0.008, 0.016, 0.028, 0.048, 0.075, 0.111, 0.155, 0.210, 0.274, 0.345, 0.421},
		{3, 5}: {0.018, 0.036, 0.071, 0.125, 0.196, 0.286, 0.393},
	}
	for n, cdf := range table {
		for u, want := range cdf {
			x, y := withU(n[0], n[1], u)
			r, err := MannWhitney(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if r.U != float64(u) {
				t.Fatalf("%v: U = %v, want %d", n, r.U, u)
			}
			if got := r.P / 2; math.Abs(got-want) > 0.0005 {
				t.Errorf("n=%v U=%d: P(U<=u) = %.4f, table %.3f", n, u, got, want)
			}
		}
	}
	// R: wilcox.test(1:5, 6:10)$p.value = 0.007936508 (2/252, exact)
	r, _ := MannWhitney([]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10})
	if math.Abs(r.P-2.0/252) > 1e-12 {
		t.Errorf("1:5 vs 6:10: p = %v, want 2/252", r.P)
	}
}

// withU builds samples of n1 and n2 distinct values whose smaller U is u.
func withU(n1, n2, u int) (x, y []float64) {
	// y all above x except that the last u pairs (x_top beats y) swap
	// ranks: put x's largest value above u of y's values.
	for i := 0; i < n1; i++ {
		x = append(x, float64(i))
	}
	for j := 0; j < n2; j++ {
		y = append(y, float64(100+j))
	}
	// move the largest x above the first k y values, then the next one
	left := u
	for i := n1 - 1; i >= 0 && left > 0; i-- {
		k := min(left, n2)
		x[i] = 100 + float64(k-1) + 0.5 + float64(i)/100
		left -= k
	}
	return x, y
}

// TestMannWhitneyExactWithTies: the exact p-value with ties (Klotz's
// distribution, doubled like the no-tie case: 2 P(U <= u_small)) equals a
// brute-force enumeration over every split of the pooled values with
// mid-ranks.
func TestMannWhitneyExactWithTies(t *testing.T) {
	for _, c := range [][2][]float64{
		{{1, 2, 2, 3}, {2, 3, 3, 4, 5}},
		{{10, 10, 11}, {11, 12, 12}},
		{{5, 5, 5, 6, 7, 7}, {7, 8, 8, 9, 9, 9}},
	} {
		r, err := MannWhitney(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteP(c[0], c[1]); math.Abs(r.P-want) > 1e-9 {
			t.Errorf("%v: p = %v, enumeration %v", c, r.P, want)
		}
	}
	// every value equal: nothing to detect
	if r, err := MannWhitney([]float64{3, 3}, []float64{3, 3, 3}); err != nil || r.P != 1 {
		t.Errorf("equal samples: %+v %v", r, err)
	}
	if _, err := MannWhitney(nil, []float64{1}); err == nil {
		t.Error("empty sample accepted")
	}
}

// bruteP: 2 P(U1 <= min(u1, n1 n2 - u1)) over all C(n, n1) equally likely
// labelings, with mid-ranks for ties, at most 1.
func bruteP(x, y []float64) float64 {
	pool := append(append([]float64{}, x...), y...)
	n, n1 := len(pool), len(x)
	rank := make([]float64, n)
	for i := range pool {
		less, eq := 0, 0
		for j := range pool {
			if pool[j] < pool[i] {
				less++
			} else if pool[j] == pool[i] {
				eq++
			}
		}
		rank[i] = float64(less) + float64(eq+1)/2
	}
	u := func(set []int) float64 {
		var r float64
		for _, i := range set {
			r += rank[i]
		}
		return r - float64(n1*(n1+1))/2
	}
	first := make([]int, n1)
	for i := range first {
		first[i] = i
	}
	obs := u(first)
	obs = math.Min(obs, float64(n1*(n-n1))-obs)
	var total, hit int
	var rec func(start int, set []int)
	rec = func(start int, set []int) {
		if len(set) == n1 {
			total++
			if u(set) <= obs+1e-9 {
				hit++
			}
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(set, i))
		}
	}
	rec(0, nil)
	return math.Min(1, 2*float64(hit)/float64(total))
}

func TestMinP(t *testing.T) {
	for _, c := range []struct {
		n1, n2 int
		want   float64
	}{{3, 3, 0.1}, {4, 4, 2.0 / 70}, {8, 8, 2.0 / 12870}, {1, 1, 1}, {2, 2, 1.0 / 3}} {
		if got := MinP(c.n1, c.n2); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("MinP(%d,%d) = %v, want %v", c.n1, c.n2, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{5, 1, 3, 2, 4, 6})
	if s.Median != 3.5 || s.Lo != 1 || s.Hi != 6 {
		t.Errorf("%+v", s)
	}
	if sp := s.Spread(); math.Abs(sp-(1-1/3.5)) > 1e-12 {
		t.Errorf("spread %v", sp)
	}
	if s := Summarize([]float64{1, 2, 3}); !math.IsInf(s.Spread(), 1) || s.Median != 2 {
		t.Errorf("small: %+v", s)
	}
	if g := GeoMean([]float64{1, 4}); math.Abs(g-2) > 1e-12 {
		t.Errorf("geomean %v", g)
	}
}
