package sequences

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// table --by sequence's model step, the parse and the links not timed, on
// each benchmark shape with module frames (tracegen -modules), read as the
// command reads it. The roots are the top module frames (--op nn.Module):
// the generator's top-level ops launch fewer than 3 device ops each.

var bare = parse.Options{NoExtras: true, NoMemory: true}

func sequenceStep(t *trace.Trace) int {
	return len(Build(t, Options{MinLen: 3, Op: "nn.Module"}).Sequences)
}

func withModules(c *gen.Config) { c.Modules = true }

// BenchmarkBuild is the sequences of each benchmark shape (gen.BenchShapes, -modules).
func BenchmarkBuild(b *testing.B) {
	benchtrace.EachShape(b, bare, withModules, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, sequenceStep) })
}

// BenchmarkBuildFile is the sequences of TRACETAB_BENCH_FILE.
func BenchmarkBuildFile(b *testing.B) {
	t, n := benchtrace.File(b, bare)
	benchtrace.Run(b, t, n, sequenceStep)
}
