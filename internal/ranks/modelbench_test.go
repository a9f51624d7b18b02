package ranks

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

func ranksStep(t *trace.Trace) int { return len(Summarize(t, 0).Steps) }

// BenchmarkSummarize is ranks' per-rank reduction on each benchmark shape (gen.BenchShapes).
func BenchmarkSummarize(b *testing.B) {
	benchtrace.EachShape(b, lean, nil, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, ranksStep) })
}

// BenchmarkSummarizeFile is ranks' per-rank reduction on TRACETAB_BENCH_FILE.
func BenchmarkSummarizeFile(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, ranksStep)
}
