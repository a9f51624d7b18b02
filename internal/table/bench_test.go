package table

import (
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// BenchmarkCompute runs key_averages on the trace named by
// TRACETAB_BENCH_FILE (e.g. make bench's 1 GB trace); parsing is not timed.
func BenchmarkCompute(b *testing.B) {
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
		if _, err := Compute(t, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
