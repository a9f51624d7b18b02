package memory

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The command's model step, the parse and the links not timed, on a
// generated trace with [memory] events (200 steps, 8 layers, two
// allocations per op, a leak, CPU allocations) and on TRACETAB_BENCH_FILE,
// both read lean as the command reads them.

var lean = parse.Options{NoExtras: true}

var benchMem = gen.Memory{AllocsPerOp: 2, LeakBytes: 1 << 20, PreTrace: 4, CPU: true, Reuse: true}

func memoryStep(t *trace.Trace) int { return Build(t, Options{}).Records }

// BenchmarkBuild is memory's model step on a generated trace.
func BenchmarkBuild(b *testing.B) {
	t, n := benchtrace.Generated(b, gen.Config{Steps: 200, Layers: 8, Memory: benchMem}, lean)
	benchtrace.Run(b, t, n, memoryStep)
}

// BenchmarkBuildFile is memory's model step on TRACETAB_BENCH_FILE.
func BenchmarkBuildFile(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, memoryStep)
}
