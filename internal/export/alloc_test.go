package export

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on what export's second lane and its gaps phase allocate beyond
// the trace and the gaps report, per event of the trace. The per-step
// tables make each step a trace of its own (subTrace: its events copied,
// its links built) and a table of it, so the lane allocates per step, not
// only per trace: on the benchmark shapes (150-250 events a step) some
// 0.4-0.6 allocations and 380-480 bytes per event. An allocation per
// event (or per row of a per-event dataset) adds 1 to the first.
const (
	maxLaneBytesPerEvent  = 700
	maxLaneAllocsPerEvent = 0.9
)

// TestLaneAllocs holds export's second lane and its gaps phase without
// the Parquet writers (the op and kernel rows of the whole trace and of
// each step, the gap rows, the memory rows) on the three benchmark shapes.
func TestLaneAllocs(t *testing.T) {
	got := benchtrace.MeasurePrepared(t, parse.Options{}, nil, func(tr *trace.Trace) func() int {
		rep := analyzeGaps(tr)
		of, memOf := eventSteps(tr), memSteps(tr)
		c := &common{id: "x"}
		return func() int {
			n := 0
			if _, err := stepTableRows(c, tr, of, memOf, func(r []OpRow) error { n += len(r); return nil },
				func(r []KernelRow) error { n += len(r); return nil }); err != nil {
				t.Fatal(err)
			}
			if err := gapRows(c, rep, func(r []GapRow) error { n += len(r); return nil }); err != nil {
				t.Fatal(err)
			}
			if err := memoryRows(c, tr, memOf, func(r []MemoryRow) error { n += len(r); return nil }); err != nil {
				t.Fatal(err)
			}
			return n
		}
	})
	for _, a := range got {
		for _, s := range []benchtrace.Sample{a.Small, a.Large} {
			if b := s.BytesPerEvent(); b > maxLaneBytesPerEvent {
				t.Errorf("%s, %d steps: the lane allocates %.1f bytes per event, more than %d", a.Shape, s.Steps, b, maxLaneBytesPerEvent)
			}
			if n := float64(s.Allocs) / float64(s.Events); n > maxLaneAllocsPerEvent {
				t.Errorf("%s, %d steps: the lane makes %.3f allocations per event, more than %g: it allocates per event",
					a.Shape, s.Steps, n, maxLaneAllocsPerEvent)
			}
		}
	}
}
