package critpath

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The command's model step (every step's graph, path and what-if; the
// text view's detail), the
// parse and the links not timed, on a generated trace (200 steps, 8
// layers: about 8 MB of JSON) and on TRACETAB_BENCH_FILE, both read lean
// as the command reads them.

var lean = parse.Options{NoExtras: true}

func critStep(t *trace.Trace) int {
	r := Analyze(t, StepWindows(t), Options{WhatIf: 3, Speedup: 2})
	n := 0
	for _, w := range r.Windows {
		if w.HasPath {
			n++
		}
	}
	return n
}

// BenchmarkAnalyzeModel is the analysis on a generated trace.
func BenchmarkAnalyzeModel(b *testing.B) {
	t, n := benchtrace.Generated(b, gen.Config{Steps: 200, Layers: 8}, lean)
	benchtrace.Run(b, t, n, critStep)
}

// BenchmarkAnalyze is the analysis on TRACETAB_BENCH_FILE.
func BenchmarkAnalyze(b *testing.B) {
	t, n := benchtrace.File(b, lean)
	benchtrace.Run(b, t, n, critStep)
}
