package table

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on what key_averages() allocates beyond the trace: a few columns
// per event (the trace index, thread, kernel sum, flags, and a position
// per trace event; the tree links reuse the last two), and a number of
// allocations that does not grow with the trace. Measured 2026-12-07 at
// 200 steps: 23.5 (default), 27.3 (export) and 29.9-30.1 bytes per event
// (Kineto, with memory records), 53-64 allocations; the bound of 30 set
// on 2026-12-01 (22.7 then) failed a clean run at 30.1. One allocation
// per event, 16 bytes at the least, would pass 36 on every shape.
const (
	maxComputeBytesPerEvent = 36
	maxComputeAllocGrowth   = 20 // extra allocations for 4 times the events
)

// TestComputeMemory holds on both benchmark shapes (gen.BenchShapes): the
// Kineto one has memory records, whose columns are held compactly.
func TestComputeMemory(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, parse.Options{NoExtras: true}, nil, func(tr *trace.Trace) int {
		res, err := Compute(tr, Options{})
		if err != nil {
			t.Fatalf("Compute: %v", err)
		}
		return len(res.Rows)
	}), maxComputeBytesPerEvent, maxComputeAllocGrowth)
}
