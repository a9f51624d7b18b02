// Package benchtrace holds what the model-step benchmarks of the command
// packages share: a generated trace or TRACETAB_BENCH_FILE, read the way
// a command reads it and linked, and the loop that times a step on it.
// (Not for internal/parse's own benchmarks: this package imports parse.)
package benchtrace

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// Generated is a trace made by the generator with cfg (e.g. 200 steps,
// 8 layers: about 8 MB of JSON) held in memory, read with opts and
// linked; it returns the trace and its size in bytes of JSON.
func Generated(b *testing.B, cfg gen.Config, opts parse.Options) (*trace.Trace, int64) {
	b.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, cfg); err != nil {
		b.Fatal(err)
	}
	t, err := parse.Read(bytes.NewReader(buf.Bytes()), "bench", opts)
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	return t, int64(buf.Len())
}

// File is TRACETAB_BENCH_FILE (e.g. the 1 GB trace make bench
// generates) read with opts and linked, or a skip.
func File(b *testing.B, opts parse.Options) (*trace.Trace, int64) {
	b.Helper()
	path := testenv.BenchFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	t, err := parse.Open(path, opts)
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	return t, st.Size()
}

// EachShape runs f as one sub-benchmark per shape of gen.BenchShapes
// (default, kineto, export), on the generated trace read with opts and linked;
// cfg, when not nil, adjusts each shape's config (e.g. a variant).
func EachShape(b *testing.B, opts parse.Options, cfg func(*gen.Config), f func(b *testing.B, t *trace.Trace, size int64)) {
	for _, s := range gen.BenchShapes() {
		b.Run(s.Name, func(b *testing.B) {
			c := s.Cfg
			if cfg != nil {
				cfg(&c)
			}
			t, n := Generated(b, c, opts)
			f(b, t, n)
		})
	}
}

// Run times step on t: MB/s of the trace's JSON (it compares with the
// parser's figure) and allocs/op of the step's own allocations. A step
// that finds nothing (returns 0) fails the benchmark.
func Run(b *testing.B, t *trace.Trace, size int64, step func(*trace.Trace) int) {
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if step(t) == 0 {
			b.Fatal("the model step found nothing")
		}
	}
	b.ReportMetric(float64(t.NumEvents()), "events")
}
