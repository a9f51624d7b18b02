package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveQ computes Q(tau) from the definition, pair by pair.
func naiveQ(s []float64, tau int) float64 {
	x, y := s[:tau], s[tau:]
	m, n := float64(len(x)), float64(len(y))
	var cross, wx, wy float64
	for _, a := range x {
		for _, b := range y {
			cross += math.Abs(a - b)
		}
	}
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			wx += math.Abs(x[i] - x[k])
		}
	}
	for j := range y {
		for k := j + 1; k < len(y); k++ {
			wy += math.Abs(y[j] - y[k])
		}
	}
	e := 2*cross/(m*n) - wx/(m*(m-1)/2) - wy/(n*(n-1)/2)
	return m * n / (m + n) * e
}

// Worked by hand: 0 0 0 | 1 1 1 has 9 cross pairs at distance 1 and none
// within, so E = 2*9/9 = 2 and Q(3) = 3*3/6 * 2 = 3. At tau = 2 (0 0 | 0 1 1 1):
// cross = 2*3 = 6, within Y = 3 (the 0 against each 1), so
// E = 2*6/8 - 3/C(4,2) = 1.5 - 0.5 = 1 and Q(2) = 2*4/6 = 4/3; Q(4) likewise.
// (MongoDB's calculator floors m n/(m+n) to 1 and gets 2 at tau = 3.)
func TestQByHand(t *testing.T) {
	qs := QValues([]float64{0, 0, 0, 1, 1, 1}, 2)
	want := map[int]float64{2: 4.0 / 3, 3: 3, 4: 4.0 / 3}
	for tau, w := range want {
		if math.Abs(qs[tau]-w) > 1e-12 {
			t.Errorf("Q(%d) = %v, want %v", tau, qs[tau], w)
		}
	}
	for _, tau := range []int{0, 1, 5, 6} {
		if !math.IsNaN(qs[tau]) {
			t.Errorf("Q(%d) = %v, want NaN (a side shorter than 2)", tau, qs[tau])
		}
	}
}

func TestQMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		s := make([]float64, 5+r.IntN(30))
		for i := range s {
			s[i] = r.NormFloat64()*3 + float64(i%4)
		}
		qs := QValues(s, 2)
		for tau := 2; tau <= len(s)-2; tau++ {
			if w := naiveQ(s, tau); math.Abs(qs[tau]-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Fatalf("len %d: Q(%d) = %v, want %v", len(s), tau, qs[tau], w)
			}
		}
	}
}

// The exact permutation p-value of 0 0 0 1 1 1: the largest Q (3) is
// reached only by the two orders that separate the zeros from the ones,
// 2 of the C(6,3) = 20 arrangements: p = 0.1. The test's estimate is close.
func TestPValueByHand(t *testing.T) {
	o := Options{Alpha: 0.5, Permutations: 1999, MinSize: 2}
	ps := Find([]float64{0, 0, 0, 1, 1, 1}, o)
	if len(ps) == 0 || ps[0].Index != 3 {
		t.Fatalf("got %+v, want a change at 3", ps)
	}
	if p := ps[0].PValue; math.Abs(p-0.1) > 0.02 {
		t.Errorf("p = %v, want about 0.1", p)
	}
	// at the default 0.01 it is not significant
	if ps := Find([]float64{0, 0, 0, 1, 1, 1}, Options{MinSize: 2}); len(ps) != 0 {
		t.Errorf("six values at alpha 0.01: got %+v, want none", ps)
	}
}

func noisy(r *rand.Rand, n int, level, jitter float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = level * (1 + jitter*(2*r.Float64()-1))
	}
	return s
}

func TestKnownSeries(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	step := append(noisy(r, 17, 100, 0.05), noisy(r, 13, 130, 0.05)...)
	two := append(append(noisy(r, 15, 100, 0.03), noisy(r, 15, 80, 0.03)...), noisy(r, 15, 120, 0.03)...)
	flat := noisy(r, 30, 100, 0.05)
	outlier := noisy(r, 30, 100, 0.05)
	outlier[14] = 150
	lastOutlier := noisy(r, 30, 100, 0.05)
	lastOutlier[29] = 200
	late := append(noisy(r, 26, 100, 0.02), noisy(r, 4, 125, 0.02)...)
	cases := []struct {
		name string
		x    []float64
		want []int
	}{
		{"constant", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, nil},
		{"empty", nil, nil},
		{"short", []float64{1, 2, 3, 4, 5}, nil},
		{"one step up at 17", step, []int{17}},
		{"down at 15, up at 30", two, []int{15, 30}},
		{"noise alone", flat, nil},
		{"one outlier night", outlier, nil},
		{"an outlier on the newest night", lastOutlier, nil},
		{"a change 4 runs before the end", late, []int{26}},
	}
	for _, c := range cases {
		got := Find(c.x, Options{})
		var idx []int
		for _, p := range got {
			idx = append(idx, p.Index)
			if p.PValue > DefaultAlpha {
				t.Errorf("%s: kept a point with p %v", c.name, p.PValue)
			}
		}
		if len(idx) != len(c.want) {
			t.Errorf("%s: change points %v, want %v (%+v)", c.name, idx, c.want, got)
			continue
		}
		for k := range idx {
			if idx[k] != c.want[k] {
				t.Errorf("%s: change points %v, want %v", c.name, idx, c.want)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := append(noisy(r, 12, 10, 0.1), noisy(r, 12, 11.5, 0.1)...)
	a, b := Find(x, Options{Alpha: 0.2}), Find(x, Options{Alpha: 0.2})
	if len(a) != len(b) {
		t.Fatalf("two runs differ: %+v, %+v", a, b)
	}
	for k := range a {
		if a[k] != b[k] {
			t.Fatalf("two runs differ: %+v, %+v", a, b)
		}
	}
	// another seed may give other p-values, never other Q
	c := Find(x, Options{Alpha: 0.2, Seed: 99})
	if len(c) > 0 && len(a) > 0 && c[0].Index == a[0].Index && c[0].Q != a[0].Q {
		t.Errorf("Q depends on the seed: %v, %v", a[0].Q, c[0].Q)
	}
}

func TestMinSize(t *testing.T) {
	// a shift in the last two values cannot be split off with MinSize 3;
	// with 2 it can: only 2 of the C(30,2) = 435 places of the two 5s
	// separate them as well, p about 0.005
	x := make([]float64, 30)
	for i := range x {
		x[i] = 1
	}
	x[28], x[29] = 5, 5
	if ps := Find(x, Options{}); len(ps) != 0 {
		t.Errorf("MinSize 3: got %+v, want none", ps)
	}
	if ps := Find(x, Options{MinSize: 2, Permutations: 999}); len(ps) != 1 || ps[0].Index != 28 {
		t.Errorf("MinSize 2: got %+v, want one at 28", ps)
	}
}
