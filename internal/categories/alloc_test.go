package categories

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: device time and calls per category
// (3.4 bytes an event, 2 more allocations for 4 times the events).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, bare, nil, categoryStep), 6, 20)
}
