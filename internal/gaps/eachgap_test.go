package gaps

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// TestEachGapLazy: with LazyGaps the report lists no Gaps but EachGap
// gives the same gaps in the same order as the report made without it
// (every gap, and a Top-bounded list), and the rest of the report is
// unchanged; EachGap stops at an error.
func TestEachGapLazy(t *testing.T) {
	_, tr := genFile(t, gen.Config{Steps: 4, Layers: 2})
	for _, o := range []Options{{Device: -1, Stream: -1, AllGaps: true, Top: 1}, {Device: -1, Stream: -1, Top: 3}} {
		eager := Analyze(tr, o)
		o.LazyGaps = true
		lazy := Analyze(tr, o)
		if len(eager.Gaps) < 3 {
			t.Fatalf("the generated trace lists %d gaps: the test checks little", len(eager.Gaps))
		}
		if lazy.Gaps != nil || lazy.NumGaps() != len(eager.Gaps) || eager.NumGaps() != len(eager.Gaps) {
			t.Fatalf("lazy report: %d Gaps, NumGaps %d; eager %d", len(lazy.Gaps), lazy.NumGaps(), len(eager.Gaps))
		}
		for _, r := range []*Report{eager, lazy} {
			var got []Gap
			if err := r.EachGap(func(g *Gap) error { got = append(got, *g); return nil }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, eager.Gaps) {
				t.Fatalf("EachGap gave %d gaps, not the report's %d in order", len(got), len(eager.Gaps))
			}
		}
		if !reflect.DeepEqual(lazy.Verdict, eager.Verdict) || !reflect.DeepEqual(lazy.Devices, eager.Devices) ||
			!reflect.DeepEqual(lazy.Queues, eager.Queues) || !reflect.DeepEqual(lazy.Steps, eager.Steps) {
			t.Fatal("LazyGaps changed more of the report than its list of gaps")
		}
		stop := errors.New("stop")
		n := 0
		if err := lazy.EachGap(func(*Gap) error { n++; return stop }); err != stop || n != 1 {
			t.Fatalf("EachGap after an error: %v after %d calls, want stop after 1", err, n)
		}
	}
}

// TestGapChunksOrder: records over several chunks, with equal lengths
// and starts on several devices, come out of gapChunks in topN's order
// (gapOrder).
func TestGapChunksOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := &gapChunks{}
	k := &topN[gapRec]{cmp: gapOrder}
	// until the records fill three chunks and start a fourth
	for i := 0; len(c.chunks) < 4 || i%100 != 17; i++ {
		s := int64(rng.IntN(500))
		g := gapRec{dev: rng.IntN(4), s: s, e: s + int64(rng.IntN(50)), prev: int32(i)}
		c.add(g)
		k.add(g)
	}
	c.sort()
	want := k.result()
	if c.n != len(want) {
		t.Fatalf("%d records, want %d", c.n, len(want))
	}
	for i, key := range c.order {
		g := c.at(key.k)
		if gapOrder(g, want[i]) != 0 || !reflect.DeepEqual(g, want[i]) {
			t.Fatalf("record %d: %+v, want %+v", i, g, want[i])
		}
	}
}
