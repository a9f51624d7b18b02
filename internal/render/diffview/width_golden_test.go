package diffview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/diffview"
	"github.com/tracetab/tracetab/internal/render/memoryview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestWidthGolden: diff's text (the trace against itself) and check's
// text (two total budgets) on the shared width trace at each golden
// width, read as both read it (everything), with their default flags.
// cli's TestWidthGoldens checks that `tracetab diff TRACE TRACE --width
// W` and `tracetab check TRACE --max total.gpu_idle_pct=90 --max
// total.step_time=10s --width W` print exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	open := func(t *testing.T) *trace.Trace {
		tr, _, err := testcache.Open(path, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	t.Run("diff", func(t *testing.T) {
		golden.CheckWidths(t, "diff", goldens, func(t *testing.T, w int) string {
			var b strings.Builder
			d, g := diffSelf(t, open(t), shown)
			must(t, diffview.Text(&b, "text", d, g, diffview.View{Top: 20, Limit: 50, Width: w}))
			must(t, memoryview.DiffText(&b, d.Memory, "text", 20, w))
			return b.String()
		})
	})
	t.Run("check", func(t *testing.T) {
		golden.CheckWidths(t, "check", goldens, func(t *testing.T, w int) string {
			out, g := checkTotals(t, open(t), shown, []string{"total.gpu_idle_pct=90", "total.step_time=10s"})
			var b strings.Builder
			must(t, diffview.CheckText(&b, "text", shown, out, g, w, false))
			return b.String()
		})
	})
}

// diffSelf is diff TRACE TRACE with diff's default flags (--by op, the
// recording torch, per step, --metric self_cuda,self_cpu,count, --alpha
// 0.05, no correction, no rule), memory compared when the trace has
// [memory] records.
func diffSelf(t *testing.T, tr *trace.Trace, path string) (*diff.Diff, *diff.Gate) {
	opts := diff.Options{By: "op", Normalize: len(tr.StepWindows()) > 0}
	var sides [2]*diff.Side
	for k := range sides {
		s, err := diff.Reduce([]*trace.Trace{tr}, []string{path}, opts)
		if err != nil {
			t.Fatal(err)
		}
		sides[k] = s
	}
	d := diff.Compare(sides[0], sides[1], diff.CompareOptions{Metrics: []string{"self_cuda", "self_cpu", "count"}, Alpha: 0.05, Correct: diff.CorrectNone})
	g := &diff.Gate{Mismatches: d.Mismatches}
	g.Violations, g.NA, g.Checked = diff.Evaluate(d, nil)
	if len(tr.Mem) > 0 {
		m := []*memory.Model{memory.Build(tr, memory.Options{})}
		d.Memory = diff.CompareMemory(m, []*memory.Model{memory.Build(tr, memory.Options{})})
		v, na, checked := diff.EvaluateMemory(d.Memory, nil)
		g.Violations, g.NA = append(g.Violations, v...), append(g.NA, na...)
		for r, n := range checked {
			g.Checked[r] += n
		}
	}
	return d, g
}

// checkTotals is check TRACE --max B... for budgets on totals (no row,
// memory or critical-path budget), with check's default flags (--by op,
// the recording torch, per step).
func checkTotals(t *testing.T, tr *trace.Trace, path string, maxes []string) ([]diff.Outcome, *diff.Gate) {
	var budgets []diff.Budget
	for _, m := range maxes {
		metric, max, _ := strings.Cut(m, "=")
		b, err := diff.NewBudget(metric, "", max)
		if err != nil {
			t.Fatal(err)
		}
		budgets = append(budgets, b)
	}
	rows, mem := diff.SplitMemory(budgets)
	for _, b := range rows {
		if !b.Total || diff.IsModelMetric(b.Metric) {
			t.Fatalf("%s: checkTotals takes budgets on the totals only", b.Text)
		}
	}
	if len(mem) > 0 || diff.NeedsCriticalPath(rows) {
		t.Fatal("checkTotals takes budgets on the totals only")
	}
	s, err := diff.Reduce([]*trace.Trace{tr}, []string{path}, diff.Options{By: "op", Normalize: len(tr.StepWindows()) > 0})
	if err != nil {
		t.Fatal(err)
	}
	out := diff.MergeOutcomes(budgets, diff.Check(s, rows), nil)
	g := &diff.Gate{Checked: map[string]int{}}
	for _, oc := range out {
		g.Violations = append(g.Violations, oc.Failed...)
		g.Rules = append(g.Rules, oc.Budget.Text)
		g.Checked[oc.Budget.Text] = oc.Rows
		if oc.Missing != "" {
			g.NA = append(g.NA, diff.NA{Rule: oc.Budget.Text, Reason: oc.Missing})
		}
	}
	return out, g
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
