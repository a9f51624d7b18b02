package gaps

import "testing"

// BenchmarkAnalyze runs the gaps analysis on TRACETAB_BENCH_FILE (parse not timed).
func BenchmarkAnalyze(b *testing.B) { t, n := modelFile(b); benchModel(b, t, n, gapsStep) }
