package table

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The model step of each table view, the parse not timed. MB/s is of the
// trace's JSON, so it compares with the parser's figure; allocs/op counts
// the step's own allocations (a few large columns, not one per event).

// benchTrace is a generated trace held in memory (200 steps, 8 layers:
// about 8 MB of JSON), read whole and linked, as table does before its
// model step.
func benchTrace(b *testing.B) (*trace.Trace, int64) {
	return benchtrace.Generated(b, gen.Config{Steps: 200, Layers: 8}, parse.Options{})
}

// fileTrace is TRACETAB_BENCH_FILE read the same way, or a skip.
func fileTrace(b *testing.B) (*trace.Trace, int64) { return benchtrace.File(b, parse.Options{}) }

func benchCompute(b *testing.B, t *trace.Trace, size int64) {
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Compute(t, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Rows) == 0 {
			b.Fatal("no rows")
		}
	}
	b.ReportMetric(float64(t.NumEvents()), "events")
}

// BenchmarkCompute is key_averages() (table's op view) on a generated trace.
func BenchmarkCompute(b *testing.B) {
	t, size := benchTrace(b)
	benchCompute(b, t, size)
}

// BenchmarkComputeFile is key_averages() on TRACETAB_BENCH_FILE.
func BenchmarkComputeFile(b *testing.B) {
	t, size := fileTrace(b)
	benchCompute(b, t, size)
}

// BenchmarkKernelView is table --by kernel's model step.
func BenchmarkKernelView(b *testing.B) {
	t, size := benchTrace(b)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if rows, _ := KernelView(t, nil); len(rows) == 0 {
			b.Fatal("no kernels")
		}
	}
}

// BenchmarkStepView is table --by step's model step.
func BenchmarkStepView(b *testing.B) {
	t, size := benchTrace(b)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if rows := StepView(t); len(rows) == 0 {
			b.Fatal("no steps")
		}
	}
}
