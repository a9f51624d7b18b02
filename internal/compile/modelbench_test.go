package compile

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The command's model step, the parse and the links not timed, on a
// generated trace of each benchmark shape (gen.BenchShapes) and on
// TRACETAB_BENCH_FILE, both read lean as the command reads them.

var lean = parse.Options{NoExtras: true}

func compileStep(t *trace.Trace) int { return len(Summarize(t).Kernels) }

// BenchmarkSummarize is compile's model step on a generated torch.compile
// trace (Inductor kernels through cuLaunchKernel).
func BenchmarkSummarize(b *testing.B) {
	triton := func(c *gen.Config) { c.Variant = "triton" }
	benchtrace.EachShape(b, lean, triton, func(b *testing.B, t *trace.Trace, n int64) { benchtrace.Run(b, t, n, compileStep) })
}

// BenchmarkSummarizeFile is compile's model step on TRACETAB_BENCH_FILE
// (make bench's trace is eager: the step walks it and finds no compiled
// code, which is what compile does with such a trace).
func BenchmarkSummarizeFile(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, func(t *trace.Trace) int { Summarize(t); return 1 })
}
