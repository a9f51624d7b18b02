package compile

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
)

// TestModelAllocs holds the model step's allocations on the three benchmark
// shapes (gen.BenchShapes) at two sizes: the summary keeps a record per
// compiled region and graph replay, so its allocations grow with the steps
// (2.3 a step here: 339 more for 150 more steps; the bound is 3 a step),
// never with the events (23 bytes an event).
func TestModelAllocs(t *testing.T) {
	benchtrace.Hold(t, benchtrace.Measure(t, lean, func(c *gen.Config) { c.Variant = "triton" }, compileStep), 40, 450)
}
