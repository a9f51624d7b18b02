package sequences

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// table --by sequence's model step (its defaults), the parse and the
// links not timed, on each benchmark shape, read as the command reads it.

var bare = parse.Options{NoExtras: true, NoMemory: true}

func sequenceStep(t *trace.Trace) int { return len(Build(t, Options{MinLen: 3}).Sequences) }

// BenchmarkBuild is the sequences of each benchmark shape (gen.BenchShapes).
func BenchmarkBuild(b *testing.B) {
	benchtrace.EachShape(b, bare, nil, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, sequenceStep) })
}

// BenchmarkBuildFile is the sequences of TRACETAB_BENCH_FILE.
func BenchmarkBuildFile(b *testing.B) {
	t, n := benchtrace.File(b, bare)
	benchtrace.Run(b, t, n, sequenceStep)
}
