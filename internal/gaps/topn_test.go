package gaps

import (
	"cmp"
	"math/rand"
	"slices"
	"testing"
)

func TestTopN(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	all := make([]int, 5000)
	for i := range all {
		all[i] = r.Intn(1000)
	}
	desc := func(a, b int) int { return cmp.Compare(b, a) }
	want := slices.Clone(all)
	slices.SortFunc(want, desc)
	for _, n := range []int{0, 1, 10, 300} {
		k := &topN[int]{n: n, cmp: desc}
		for _, x := range all {
			k.add(x)
		}
		got := k.result()
		w := want
		if n > 0 {
			w = want[:n]
		}
		if !slices.Equal(got, w) {
			t.Errorf("n=%d: got %v..., want %v...", n, got[:min(5, len(got))], w[:min(5, len(w))])
		}
	}
}
