package critpath

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortRuns gives slices.Sort's result on sorted input, a few runs, many
// runs each a step out of place (the insertion sort) and shuffled input
// (past the insertion's budget: the fallback sorts what it left).
func TestSortRunsShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 7, 100, 5000} {
		sorted := make([]int, n)
		for i := range sorted {
			sorted[i] = i
		}
		shapes := map[string][]int{"sorted": slices.Clone(sorted)}
		runs := slices.Clone(sorted)
		slices.Reverse(runs[n/2:])
		shapes["two runs"] = runs
		near := slices.Clone(sorted)
		for i := 1; i+1 < n; i += 3 {
			near[i], near[i+1] = near[i+1], near[i]
		}
		shapes["neighbours swapped"] = near
		shuffled := slices.Clone(sorted)
		r.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		shapes["shuffled"] = shuffled
		for name, s := range shapes {
			sortRuns(s, nil, cmp.Compare[int])
			if !slices.Equal(s, sorted) {
				t.Errorf("n=%d %s: not sorted", n, name)
			}
		}
	}
}

// searchFrom is sort.Search from any hint.
func TestSearchFrom(t *testing.T) {
	for n := 0; n < 40; n++ {
		for x := 0; x <= n; x++ { // f true from x
			f := func(i int) bool { return i >= x }
			for hint := -2; hint <= n+2; hint++ {
				if got := searchFrom(n, hint, f); got != x {
					t.Fatalf("n=%d, true from %d, hint %d: got %d", n, x, hint, got)
				}
			}
		}
	}
}
