package info

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: the summary keeps no per-event
// result (9 bytes an event of columns, 141 allocations at 200 steps, 39 more
// than at 50).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, lean, nil, infoStep), 20, 60)
}
