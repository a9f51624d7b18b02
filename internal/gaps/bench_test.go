package gaps

import (
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// BenchmarkAnalyze runs the gaps analysis on TRACETAB_BENCH_FILE (parse not timed).
func BenchmarkAnalyze(b *testing.B) {
	path := os.Getenv("TRACETAB_BENCH_FILE")
	if path == "" {
		b.Skip("TRACETAB_BENCH_FILE not set")
	}
	t, err := parse.Open(path, parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	b.ResetTimer()
	for b.Loop() {
		Analyze(t, Options{Device: -1, Stream: -1, Top: 10})
	}
}
