package compile

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The command's model step, the parse and the links not timed, on a
// generated trace (200 steps, 8 layers: about 8 MB of JSON) and on
// TRACETAB_BENCH_FILE, both read lean as the command reads them.

var lean = parse.Options{NoExtras: true}

func compileStep(t *trace.Trace) int { return len(Summarize(t).Kernels) }

// BenchmarkSummarize is compile's model step on a generated torch.compile
// trace (Inductor kernels through cuLaunchKernel).
func BenchmarkSummarize(b *testing.B) {
	t, n := benchtrace.Generated(b, gen.Config{Steps: 200, Layers: 8, Variant: "triton"}, lean)
	benchtrace.Run(b, t, n, compileStep)
}

// BenchmarkSummarizeFile is compile's model step on TRACETAB_BENCH_FILE
// (make bench's trace is eager: the step walks it and finds no compiled
// code, which is what compile does with such a trace).
func BenchmarkSummarizeFile(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, func(t *trace.Trace) int { Summarize(t); return 1 })
}
