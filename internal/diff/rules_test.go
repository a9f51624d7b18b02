package diff

import (
	"math"
	"testing"
)

func TestParseRule(t *testing.T) {
	for _, c := range []struct {
		in       string
		metric   string
		total    bool
		rel, abs float64
		match    string
	}{
		{"self_cuda>10%", "self_cuda", false, 0.10, math.NaN(), ""},
		{"self_cuda>50us", "self_cuda", false, math.NaN(), 50, ""},
		{"self_cuda>10%&1.5ms", "self_cuda", false, 0.10, 1500, ""},
		{"count>0@^aten::copy_$", "count", false, math.NaN(), 0, "^aten::copy_$"},
		{"total.gpu_idle>5%", "gpu_idle", true, 0.05, math.NaN(), ""},
		{"cpu_total>2s&5%", "cpu_total", false, 0.05, 2e6, ""},
	} {
		r, err := ParseRule(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		m := ""
		if r.Match != nil {
			m = r.Match.String()
		}
		if r.Metric != c.metric || r.Total != c.total || !same(r.Rel, c.rel) || !same(r.Abs, c.abs) || m != c.match {
			t.Errorf("%s: %+v", c.in, r)
		}
	}
}

// TestRuleBothParts: a change fails only when every part is exceeded.
func TestRuleBothParts(t *testing.T) {
	r, _ := ParseRule("self_cuda>10%&50us")
	for _, c := range []struct {
		base, new float64
		fail      bool
	}{
		{100, 200, true},    // +100%, +100us
		{100, 140, false},   // +40%, but only +40us
		{1000, 1060, false}, // +60us, but only +6%
		{0, 60, true},       // new from zero: infinitely larger, +60us
		{100, 100, false},
		{200, 100, false}, // faster never fails
	} {
		if got := r.exceeded(change(c.base, c.new)); got != c.fail {
			t.Errorf("%v -> %v: failed=%v, want %v", c.base, c.new, got, c.fail)
		}
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"self_cuda>10%&50us", "count>0@^a$", "total.gpu_idle>5%", "x>", ">%", "self_cpu>1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err == nil && math.IsNaN(r.Rel) && math.IsNaN(r.Abs) {
			t.Fatalf("%q accepted without a threshold", s)
		}
	})
}

func FuzzBudgetFile(f *testing.F) {
	f.Add([]byte("budgets:\n  - metric: total.step_time\n    max: 1ms\n"))
	f.Add([]byte(`{"budgets": [{"metric": "count", "match": "x", "max": 3}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		bs, err := ParseBudgetFile("f.yaml", b)
		if err == nil && len(bs) == 0 {
			t.Fatal("no error and no budgets")
		}
	})
}
