package chain

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: the kernel summary keeps no per-
// event result (31 bytes an event of columns, 34 more allocations for 4
// times the events).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, lean, nil, summaryStep), 45, 60)
}
