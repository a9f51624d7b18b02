package table

import (
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
)

// BenchmarkCompute runs key_averages on TRACETAB_BENCH_FILE (parse not timed).
func BenchmarkCompute(b *testing.B) {
	t, err := parse.Open(testenv.BenchFile(b), parse.Options{})
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
