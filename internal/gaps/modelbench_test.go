package gaps

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The command's model step, the parse and the links not timed, on a
// generated trace of each benchmark shape (gen.BenchShapes) and on
// TRACETAB_BENCH_FILE, both read lean as the command reads them.

var lean = parse.Options{NoExtras: true}

func gapsStep(t *trace.Trace) int {
	return len(Analyze(t, Options{Device: -1, Stream: -1, Top: 10}).Streams)
}

// BenchmarkAnalyzeModel is the gaps analysis on each benchmark shape (gen.BenchShapes).
func BenchmarkAnalyzeModel(b *testing.B) {
	benchtrace.EachShape(b, lean, nil, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, gapsStep) })
}

// BenchmarkAnalyze is the gaps analysis on TRACETAB_BENCH_FILE.
func BenchmarkAnalyze(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, gapsStep)
}
