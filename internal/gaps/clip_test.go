package gaps

import (
	"math/rand/v2"
	"testing"
)

// TestClipTo: runs in increasing order clipped to a window list through
// one cursor give, run by run, what an instant-by-instant count gives, and
// the parts kept are exactly the runs' instants inside the windows.
func TestClipTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for round := 0; round < 300; round++ {
		var raw [][2]int64
		for n := rng.IntN(6); n > 0; n-- {
			a := rng.Int64N(100)
			raw = append(raw, [2]int64{a, a + rng.Int64N(25)})
		}
		w := mergeIvs(raw)
		j := 0
		var kept [][2]int64
		for a := int64(0); a < 120; {
			b := a + 1 + rng.Int64N(15)
			var want int64
			for x := a; x < b; x++ {
				if w.contains(x) {
					want++
				}
			}
			if got := clipTo(w, &j, a, b, &kept); got != want {
				t.Fatalf("round %d: [%d,%d) in %v: %d, counted %d", round, a, b, w, got, want)
			}
			a = b + rng.Int64N(5)
		}
		for _, k := range kept {
			if k[1] <= k[0] || w.overlap(k[0], k[1]) != k[1]-k[0] {
				t.Fatalf("round %d: kept %v outside %v", round, k, w)
			}
		}
	}
}
