package gaps

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// The model step of the command, the parse and the links not timed. MB/s
// is of the trace's JSON (it compares with the parser's figure); allocs/op
// counts the step's own allocations.

// modelTrace is a generated trace held in memory (200 steps, 8 layers:
// about 8 MB of JSON), read lean as the command reads it, and linked.
func modelTrace(b *testing.B) (*trace.Trace, int64) {
	b.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 200, Layers: 8}); err != nil {
		b.Fatal(err)
	}
	t, err := parse.Read(bytes.NewReader(buf.Bytes()), "bench", parse.Options{NoExtras: true})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	return t, int64(buf.Len())
}

// modelFile is TRACETAB_BENCH_FILE read the same way, or a skip.
func modelFile(b *testing.B) (*trace.Trace, int64) {
	b.Helper()
	path := testenv.BenchFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	t, err := parse.Open(path, parse.Options{NoExtras: true})
	if err != nil {
		b.Fatal(err)
	}
	t.Links()
	return t, st.Size()
}

func benchModel(b *testing.B, t *trace.Trace, size int64, step func(*trace.Trace) int) {
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

func gapsStep(t *trace.Trace) int {
	return len(Analyze(t, Options{Device: -1, Stream: -1, Top: 10}).Streams)
}

// BenchmarkAnalyzeModel is the gaps analysis on a generated trace.
func BenchmarkAnalyzeModel(b *testing.B) { t, n := modelTrace(b); benchModel(b, t, n, gapsStep) }
