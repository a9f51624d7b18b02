package gaps

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// TestEachGapLazy: with LazyGaps the report lists no Gaps but EachGap
// gives the same gaps in the same order as the report made without it,
// and the rest of the report is unchanged; EachGap stops at an error.
func TestEachGapLazy(t *testing.T) {
	_, tr := genFile(t, gen.Config{Steps: 4, Layers: 2})
	o := Options{Device: -1, Stream: -1, AllGaps: true, Top: 1}
	eager := Analyze(tr, o)
	o.LazyGaps = true
	lazy := Analyze(tr, o)
	if len(eager.Gaps) == 0 {
		t.Fatal("the generated trace has no gaps: the test checks nothing")
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
