package gaps

import (
	"cmp"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestFirstAtOrAfter: the galloping search gives the binary search's
// answer for times ascending, descending and at random, on every track of
// the sample.
func TestFirstAtOrAfter(t *testing.T) {
	tr, err := parse.Open(filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json"), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := tr.Links()
	c := newCauser(tr, l)
	rng := rand.New(rand.NewPCG(3, 4))
	lo, hi := tr.TraceStart-10, tr.TraceStart
	for i := 0; i < tr.NumEvents(); i++ {
		hi = max(hi, tr.Ev(i).End()+10)
	}
	checked := 0
	for k := range tr.Tracks {
		ord := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		for q := 0; q < 3000; q++ {
			var ts int64
			switch {
			case q < 1000:
				ts = lo + (hi-lo)*int64(q)/1000
			case q < 2000:
				ts = hi - (hi-lo)*int64(q-1000)/1000
			default:
				ts = lo + rng.Int64N(hi-lo)
			}
			want, _ := slices.BinarySearchFunc(ord, ts, func(i int32, v int64) int { return cmp.Compare(tr.Ev(int(i)).Start, v) })
			if got := c.firstAtOrAfter(int32(k), ord, ts); got != want {
				t.Fatalf("track %d, ts %d (query %d): %d, want %d", k, ts, q, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no track")
	}
}
