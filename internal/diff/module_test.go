package diff

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testtrace"
	"github.com/tracetab/tracetab/internal/trace"
)

// modTrace is a trace of steps profiler steps of a small model, in
// integer microseconds: Model_0 holds Encoder_0 (Linear_1 of linUs with a
// kernel of linUs*2/5, then Norm_0) and Decoder_0 (Norm_0, the same
// instance reached through another parent; with dropout, Dropout_0 too).
func modTrace(t *testing.T, steps, linUs int, dropout bool) *trace.Trace {
	t.Helper()
	tr, err := parse.Read(bytes.NewReader(testtrace.SmallModel(steps, linUs, dropout, true)), "modules", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func rowOf(d *Diff, key string) *DiffRow {
	for i := range d.Rows {
		if d.Rows[i].Key == key {
			return &d.Rows[i]
		}
	}
	return nil
}

// TestModuleDiff: NEW's Linear_1 is 30% slower over 10 steps; its row
// carries the change, its parents theirs, and a module only in NEW is
// added.
func TestModuleDiff(t *testing.T) {
	const steps, baseUs, newUs = 10, 100, 130
	o := Options{By: "module", Normalize: true}
	base, err := Reduce([]*trace.Trace{modTrace(t, steps, baseUs, false)}, []string{"a"}, o)
	if err != nil {
		t.Fatal(err)
	}
	nw, err := Reduce([]*trace.Trace{modTrace(t, steps, newUs, true)}, []string{"b"}, o)
	if err != nil {
		t.Fatal(err)
	}
	d := Compare(base, nw, CompareOptions{Metrics: []string{"cuda_total", "cpu_total", "count"}, Alpha: 0.05})
	lin := rowOf(d, "Model_0/Encoder_0/Linear_1")
	if lin == nil {
		t.Fatal("no row Model_0/Encoder_0/Linear_1")
	}
	if lin.Parent != "Model_0/Encoder_0" || lin.Status != "" {
		t.Errorf("Linear_1: parent %q, status %q", lin.Parent, lin.Status)
	}
	us := func(x int) float64 { return float64(x * 1000) }
	for _, c := range []struct {
		row, metric string
		base, abs   float64
		changed     bool
	}{
		{"Model_0/Encoder_0/Linear_1", "cpu_total", us(baseUs), us(newUs - baseUs), true},
		{"Model_0/Encoder_0/Linear_1", "self_cpu", us(baseUs), us(newUs - baseUs), true},
		{"Model_0/Encoder_0/Linear_1", "cuda_total", us(baseUs * 2 / 5), us(newUs*2/5 - baseUs*2/5), true},
		{"Model_0/Encoder_0/Linear_1", "count", 1, 0, false},
		{"Model_0/Encoder_0", "cpu_total", us(400), 0, false},
		{"Model_0/Encoder_0", "self_cpu", us(400 - baseUs - 50), -us(newUs - baseUs), true},
		{"Model_0/Encoder_0", "cuda_total", us(baseUs*2/5 + 10), us(newUs*2/5 - baseUs*2/5), true},
		{"Model_0", "cuda_total", us(baseUs*2/5 + 20), us(newUs*2/5 - baseUs*2/5), true},
		{"Model_0/Decoder_0/Norm_0", "cuda_total", us(10), 0, false},
	} {
		r := rowOf(d, c.row)
		if r == nil {
			t.Errorf("no row %s", c.row)
			continue
		}
		ch := r.Metrics[c.metric]
		if ch.Base.Median != c.base || ch.Abs != c.abs || ch.Base.N != steps || ch.New.N != steps {
			t.Errorf("%s %s: base %v, delta %v, n=%d+%d; want %v, %v, n=%d+%d", c.row, c.metric, ch.Base.Median, ch.Abs, ch.Base.N, ch.New.N, c.base, c.abs, steps, steps)
		}
		if (ch.Verdict == Changed) != c.changed {
			t.Errorf("%s %s: verdict %q (p %v), want changed %v", c.row, c.metric, ch.Verdict, ch.P, c.changed)
		}
	}
	if rel := lin.Metrics["cpu_total"].Rel; math.Abs(rel-float64(newUs-baseUs)/baseUs) > 1e-12 {
		t.Errorf("Linear_1 cpu_total rel %v", rel)
	}
	if r := rowOf(d, "Model_0/Decoder_0/Dropout_0"); r == nil || r.Status != "added" || r.Parent != "Model_0/Decoder_0" {
		t.Errorf("Dropout_0: %+v", r)
	}
	if c := lin.Metrics["self_cpu_mem"]; c.Verdict != Unmeasured {
		t.Errorf("self_cpu_mem on a module row: %q", c.Verdict)
	}
	if d.Outside == nil || d.Outside.Metrics["count"].Abs != 0 {
		t.Errorf("outside: %+v", d.Outside)
	}

	// rules: 10% on the slower module fails, on another passes
	keys := Keys(base, nw)
	for _, c := range []struct {
		match string
		fail  bool
	}{{"Linear_1", true}, {"Model_0/Encoder_0/Linear_1", true}, {"Model_0/Decoder_0", false}, {"Decoder_0", false}} {
		r, err := ParseRule("cpu_total>10%@" + c.match)
		if err != nil {
			t.Fatal(err)
		}
		if r.Match, err = ModuleMatch(r.Match, keys); err != nil {
			t.Fatal(err)
		}
		viol, na, checked := Evaluate(d, []Rule{r})
		if (len(viol) > 0) != c.fail || len(na) > 0 || checked[r.Text] != 1 {
			t.Errorf("%s: %d violations, %d n/a, %d rows checked; want fail %v on 1 row", r.Text, len(viol), len(na), checked[r.Text], c.fail)
		}
	}

	// budgets on NEW: BASE's value + 10%
	for _, c := range []struct {
		match string
		max   int
		fail  bool
	}{{"Linear_1", baseUs * 11 / 10, true}, {"Model_0/Decoder_0", 200 * 11 / 10, false}} {
		b, err := NewBudget("cpu_total", c.match, fmt.Sprintf("%dus", c.max))
		if err != nil {
			t.Fatal(err)
		}
		if b.Match, err = ModuleMatch(b.Match, Keys(nw)); err != nil {
			t.Fatal(err)
		}
		out := Check(nw, []Budget{b})
		if len(out) != 1 || (len(out[0].Failed) > 0) != c.fail || out[0].Rows != 1 || out[0].Missing != "" {
			t.Errorf("%s: %+v, want fail %v", b.Text, out, c.fail)
		}
	}
}

// TestModuleMatchAmbiguous: a module name at two paths is refused with
// both paths; a regular expression matching both is kept.
func TestModuleMatchAmbiguous(t *testing.T) {
	s, err := Reduce([]*trace.Trace{modTrace(t, 2, 100, false)}, []string{"a"}, Options{By: "module", Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	re, _ := NewBudget("cpu_total", "Norm_0", "1ms")
	_, err = ModuleMatch(re.Match, Keys(s))
	var ae *AmbiguousModuleError
	if !errors.As(err, &ae) || strings.Join(ae.Paths, ",") != "Model_0/Decoder_0/Norm_0,Model_0/Encoder_0/Norm_0" {
		t.Errorf("Norm_0: %v", err)
	}
	re, _ = NewBudget("cpu_total", "Norm_0$", "1ms")
	if m, err := ModuleMatch(re.Match, Keys(s)); err != nil || m.String() != "Norm_0$" {
		t.Errorf("Norm_0$: %v, %v", m, err)
	}
}
