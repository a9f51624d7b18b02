package chain

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

func summaryStep(t *trace.Trace) int {
	m, err := NewMatcher("aten::mm", false)
	if err != nil {
		panic(err)
	}
	sel, err := Select(t, Query{Match: m})
	if err != nil {
		panic(err)
	}
	return len(Summarize(sel).Rows)
}

// BenchmarkSummary is chain --summary's model step (select every aten::mm,
// aggregate their device work) on each benchmark shape (gen.BenchShapes).
func BenchmarkSummary(b *testing.B) {
	benchtrace.EachShape(b, lean, nil, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, summaryStep) })
}

// BenchmarkSummaryFile is the same on TRACETAB_BENCH_FILE.
func BenchmarkSummaryFile(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, summaryStep)
}
