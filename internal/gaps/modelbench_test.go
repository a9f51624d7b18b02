package gaps

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

func gapsStep(t *trace.Trace) int {
	return len(Analyze(t, Options{Device: -1, Stream: -1, Top: 10}).Streams)
}

// BenchmarkAnalyzeModel is the gaps analysis on a generated trace.
func BenchmarkAnalyzeModel(b *testing.B) {
	t, n := benchtrace.Generated(b, gen.Config{Steps: 200, Layers: 8}, lean)
	benchtrace.Run(b, t, n, gapsStep)
}

// BenchmarkAnalyze is the gaps analysis on TRACETAB_BENCH_FILE.
func BenchmarkAnalyze(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, gapsStep)
}
