package memory

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: the curves hold a point per
// [memory] record (112-161 bytes an event), in slices that grow by doubling
// (16 more allocations for 4 times the records).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, lean, func(c *gen.Config) { c.Memory = benchMem }, memoryStep), 240, 60)
}
