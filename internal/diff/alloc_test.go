package diff

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds, measured 2026-12-07 at 50 and 200 steps on the three shapes:
// Reduce 424-569 bytes per event (the gaps report and the op tables of
// every step, gone when it returns) and 17 allocations more per step (a
// sample per row and step), none per event; ReduceTotals 35-50 bytes per
// event and 125-135 allocations on both sizes.
const (
	maxReduceBytesPerEvent = 800
	maxReduceAllocsPerStep = 30
	maxTotalsBytesPerEvent = 70
	maxTotalsAllocGrowth   = 20
)

// TestReduceAllocs: one side of diff and check (Reduce, a sample per
// profiler step) and trend's reduction (ReduceTotals) on the three
// benchmark shapes: what they allocate grows with the steps and rows they
// keep, not with the events.
func TestReduceAllocs(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("generates traces; allocation counts are not the race detector's")
	}
	got := benchtrace.Measure(t, parse.Options{NoExtras: true}, nil, func(tr *trace.Trace) int {
		s, err := Reduce([]*trace.Trace{tr}, []string{"x.json"}, Options{By: "op", Normalize: true})
		if err != nil {
			t.Fatal(err)
		}
		return len(s.Totals)
	})
	for _, a := range got {
		if b := a.Large.BytesPerEvent(); b > maxReduceBytesPerEvent {
			t.Errorf("%s: Reduce allocates %.1f bytes per event, more than %d", a.Shape, b, maxReduceBytesPerEvent)
		}
		if n := float64(a.Large.Allocs-a.Small.Allocs) / float64(a.Large.Steps-a.Small.Steps); n > maxReduceAllocsPerStep {
			t.Errorf("%s: Reduce makes %.1f allocations more per step, more than %d: it allocates per event", a.Shape, n, maxReduceAllocsPerStep)
		}
	}
	got = benchtrace.Measure(t, parse.Options{NoExtras: true}, nil, func(tr *trace.Trace) int {
		tot, err := ReduceTotals(tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tot == nil {
			return 0
		}
		return 1
	})
	benchtrace.Hold(t, got, maxTotalsBytesPerEvent, maxTotalsAllocGrowth)
}
