package ranks

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: the summary keeps a row per step,
// in slices that grow by doubling (93 bytes an event, 41 more allocations
// for 4 times the events).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, lean, nil, ranksStep), 140, 60)
}
