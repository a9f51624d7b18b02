package info

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

func infoStep(t *trace.Trace) int { return Summarize(t).Events }

// BenchmarkSummarize is info's model step on each benchmark shape (gen.BenchShapes).
func BenchmarkSummarize(b *testing.B) {
	benchtrace.EachShape(b, lean, nil, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, infoStep) })
}

// BenchmarkSummarizeFile is info's model step on TRACETAB_BENCH_FILE.
func BenchmarkSummarizeFile(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, infoStep)
}
