package modules

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: the tree keeps a node per module
// path, not per occurrence (9 bytes an event, 26 more allocations for 4
// times the events).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, bare, withModules, moduleStep), 15, 60)
}
