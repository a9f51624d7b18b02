package trend_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trend"
)

// TestSummarizeReusing: given the analyses export keeps (the whole
// trace's op table, the verdict and lanes of a gaps report listing every
// gap, the ranks summary), SummarizeReusing gives Summarize's Run; and
// what it is given is what it reads (a doctored summary shows).
func TestSummarizeReusing(t *testing.T) {
	var b bytes.Buffer
	cfg := night(0)
	cfg.Layers = 2
	if _, err := gen.Write(&b, cfg); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(b.Bytes()), "n.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := trend.Summarize(tr, "n.json")
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.Compute(tr, table.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := gaps.Analyze(tr, gaps.Options{Device: -1, Stream: -1, AllGaps: true, LazyGaps: true, Top: 1})
	rs := ranks.Summarize(tr, 0)
	u := &trend.Reuse{Diff: diff.Reuse{Table: all, Gaps: &gaps.Report{Verdict: g.Verdict, Devices: g.Devices}}, Ranks: rs}
	got, err := trend.SummarizeReusing(tr, "n.json", u)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Values) < 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("reusing: %v\nwant %v", got.Values, want.Values)
	}
	if _, ok := want.Values[trend.GPUIdlePct]; !ok {
		t.Fatal("the trace has no GPU idle metric: the gaps report's reuse is not checked")
	}
	doctored := *g
	doctored.Verdict.IdleNs /= 2
	u.Diff.Gaps = &doctored
	got, err = trend.SummarizeReusing(tr, "n.json", u)
	if err != nil {
		t.Fatal(err)
	}
	if got.Values[trend.GPUIdlePct] == want.Values[trend.GPUIdlePct] {
		t.Fatalf("a gaps report with half the idle time gave the same %s %v", trend.GPUIdlePct, want.Values[trend.GPUIdlePct])
	}
}
