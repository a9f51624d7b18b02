package sequences

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: a run of device ops under one root
// occurrence costs no allocation of its own; only a new distinct sequence
// allocates its names and key (17 bytes an event, 15 more allocations for 4
// times the events; before, 8 allocations a run: 1,213 more).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, bare, withModules, sequenceStep), 25, 60)
}
