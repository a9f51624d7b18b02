package export

import (
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// BenchmarkLane2 is export's second lane and its gaps phase without the
// Parquet writers, on the trace named by TRACETAB_BENCH_TRACE (skipped
// when unset): for profiling.
func BenchmarkLane2(b *testing.B) {
	path := os.Getenv("TRACETAB_BENCH_TRACE")
	if path == "" {
		b.Skip("TRACETAB_BENCH_TRACE not set")
	}
	t, err := parse.Open(path, parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	c := &common{id: "x"}
	b.ResetTimer()
	for range b.N {
		rep := analyzeGaps(t)
		_ = stepRows(c, t, rep)
		_ = gapRows(c, rep, func([]GapRow) error { return nil })
		_ = queueRows(c, rep)
		of, memOf := eventSteps(t), memSteps(t)
		if _, err := stepTableRows(c, t, of, memOf, func([]OpRow) error { return nil }, func([]KernelRow) error { return nil }); err != nil {
			b.Fatal(err)
		}
		_ = memoryRows(c, t, memOf, func([]MemoryRow) error { return nil })
	}
}
