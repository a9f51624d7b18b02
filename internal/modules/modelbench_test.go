package modules

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// table --by module's model step, the parse and the links not timed, on
// each benchmark shape with module frames (tracegen -modules), read as
// the command reads it.

var bare = parse.Options{NoExtras: true, NoMemory: true}

func withModules(c *gen.Config) { c.Modules = true }

func moduleStep(t *trace.Trace) int { return len(Build(t).Nodes) }

// BenchmarkBuild is the module tree on each benchmark shape (gen.BenchShapes, -modules).
func BenchmarkBuild(b *testing.B) {
	benchtrace.EachShape(b, bare, withModules, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, moduleStep) })
}

// BenchmarkBuildFile is the module tree of TRACETAB_BENCH_FILE.
func BenchmarkBuildFile(b *testing.B) {
	t, n := benchtrace.File(b, bare)
	benchtrace.Run(b, t, n, moduleStep)
}
