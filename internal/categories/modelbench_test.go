package categories

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// table --by category's model step, the parse and the links not timed,
// on each benchmark shape, read as the command reads it.

var bare = parse.Options{NoExtras: true, NoMemory: true}

func categoryStep(t *trace.Trace) int { return Build(t, nil).Kernels }

// BenchmarkBuild is the categories of each benchmark shape (gen.BenchShapes).
func BenchmarkBuild(b *testing.B) {
	benchtrace.EachShape(b, bare, nil, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, categoryStep) })
}

// BenchmarkBuildFile is the categories of TRACETAB_BENCH_FILE.
func BenchmarkBuildFile(b *testing.B) {
	t, n := benchtrace.File(b, bare)
	benchtrace.Run(b, t, n, categoryStep)
}
