package roofline

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// Bounds on Compute beyond the trace: columns per event of a few bytes
// (the ops' device time) and a row per op name and shape. Measured
// 2026-12-07 at 50 and 200 steps: 33-48 bytes per event, 1,187-1,306
// allocations on both sizes (none more for 4 times the events).
const (
	maxComputeBytesPerEvent = 60
	maxComputeAllocGrowth   = 50
)

// TestComputeAllocs: roofline's model step on the three benchmark shapes
// (with shapes on the ops: gen.Config.Roofline) keeps a row per op name
// and shape, not per event.
func TestComputeAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("generates traces")
	}
	got := benchtrace.Measure(t, parse.Options{ShapesOnly: true}, func(c *gen.Config) { c.Roofline = true }, rooflineStep)
	benchtrace.Hold(t, got, maxComputeBytesPerEvent, maxComputeAllocGrowth)
}
