package chain

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

func summaryStep(t *trace.Trace) int {
	m, err := NewMatcher("aten::mm", false)
	if err != nil {
		panic(err)
	}
	sel, err := Select(t, Query{Match: m})
	if err != nil {
		panic(err)
	}
	return len(Summarize(sel).Rows)
}

// BenchmarkSummary is chain --summary's model step (select every aten::mm,
// aggregate their device work) on a generated trace.
func BenchmarkSummary(b *testing.B) { t, n := modelTrace(b); benchModel(b, t, n, summaryStep) }

// BenchmarkSummaryFile is the same on TRACETAB_BENCH_FILE.
func BenchmarkSummaryFile(b *testing.B) { t, n := modelFile(b); benchModel(b, t, n, summaryStep) }
