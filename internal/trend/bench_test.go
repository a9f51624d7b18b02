package trend_test

import (
	"bytes"
	"testing"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/trend"
)

// rankTrace is one rank of bench-ranks' 1,024-rank job (20 steps,
// -layers 4, 0.7 MB).
func rankTrace(b *testing.B) *trace.Trace {
	b.Helper()
	var buf bytes.Buffer
	cfg := gen.Config{Steps: 20, Layers: 4, World: 1024, Rank: 5, Straggler: 682, StragglerDelay: 3_000_000}
	if _, err := gen.Write(&buf, cfg); err != nil {
		b.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "rank0005.json", parse.Options{NoExtras: true})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkSummarize: trend's reduction of one rank, and the full
// diff.Reduce it replaced (its gaps report and step tables).
func BenchmarkSummarize(b *testing.B) {
	tr := rankTrace(b)
	b.Run("summarize", func(b *testing.B) {
		for b.Loop() {
			if _, err := trend.Summarize(tr, "rank0005.json"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("totals", func(b *testing.B) {
		for b.Loop() {
			if _, err := diff.ReduceTotals(tr, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full-reduce", func(b *testing.B) {
		for b.Loop() {
			if _, err := diff.Reduce([]*trace.Trace{tr}, []string{"rank0005.json"}, diff.Options{By: "op"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
