package gaps

import (
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
)

// BenchmarkAnalyze runs the gaps analysis on TRACETAB_BENCH_FILE (parse not timed).
func BenchmarkAnalyze(b *testing.B) {
	t, err := parse.Open(testenv.BenchFile(b), parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	b.ResetTimer()
	for b.Loop() {
		Analyze(t, Options{Device: -1, Stream: -1, Top: 10})
	}
}
