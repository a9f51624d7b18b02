package table

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The model step of each table view, the parse not timed. MB/s is of the
// trace's JSON, so it compares with the parser's figure; allocs/op counts
// the step's own allocations (a few large columns, not one per event).

// eachShape runs f on each benchmark shape (gen.BenchShapes: 200 steps of
// 8 layers, the default and the Kineto style), held in memory, read whole
// and linked, as table does before its model step.
func eachShape(b *testing.B, f func(b *testing.B, t *trace.Trace, size int64)) {
	benchtrace.EachShape(b, parse.Options{}, nil, f)
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

// BenchmarkCompute is key_averages() (table's op view) on each benchmark shape (gen.BenchShapes).
func BenchmarkCompute(b *testing.B) { eachShape(b, benchCompute) }

// BenchmarkComputeFile is key_averages() on TRACETAB_BENCH_FILE.
func BenchmarkComputeFile(b *testing.B) {
	t, size := fileTrace(b)
	benchCompute(b, t, size)
}

// BenchmarkKernelView is table --by kernel's model step.
func BenchmarkKernelView(b *testing.B) {
	eachShape(b, func(b *testing.B, t *trace.Trace, size int64) {
		b.SetBytes(size)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if rows, _ := KernelView(t, nil); len(rows) == 0 {
				b.Fatal("no kernels")
			}
		}
	})
}

// BenchmarkStepView is table --by step's model step.
func BenchmarkStepView(b *testing.B) {
	eachShape(b, func(b *testing.B, t *trace.Trace, size int64) {
		b.SetBytes(size)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if rows := StepView(t); len(rows) == 0 {
				b.Fatal("no steps")
			}
		}
	})
}
