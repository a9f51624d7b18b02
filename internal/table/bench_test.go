package table

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// The model step of each table view, the parse not timed. MB/s is of the
// trace's JSON, so it compares with the parser's figure; allocs/op counts
// the step's own allocations (a few large columns, not one per event).

// benchTrace parses a generated trace held in memory (200 steps, 8 layers:
// about 8 MB of JSON) and links it, as table does before its model step.
func benchTrace(b *testing.B) (*trace.Trace, int64) {
	b.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 200, Layers: 8}); err != nil {
		b.Fatal(err)
	}
	t, err := parse.Read(bytes.NewReader(buf.Bytes()), "bench", parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	return t, int64(buf.Len())
}

// fileTrace parses TRACETAB_BENCH_FILE (e.g. the 1 GB trace make bench
// generates), or skips.
func fileTrace(b *testing.B) (*trace.Trace, int64) {
	b.Helper()
	path := testenv.BenchFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	t, err := parse.Open(path, parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	return t, st.Size()
}

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
