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
		{"self_cuda>50us", "self_cuda", false, math.NaN(), 50_000, ""},
		{"self_cuda>10%&1.5ms", "self_cuda", false, 0.10, 1_500_000, ""},
		{"self_cuda_mem>1MiB", "self_cuda_mem", false, math.NaN(), 1 << 20, ""},
		{"total.gpu_idle_pct>5", "gpu_idle_pct", true, math.NaN(), 5, ""},
		{"count>0@^aten::copy_$", "count", false, math.NaN(), 0, "^aten::copy_$"},
		{"total.gpu_idle>5%", "gpu_idle", true, 0.05, math.NaN(), ""},
		{"cpu_total>2s&5%", "cpu_total", false, 0.05, 2e9, ""},
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
		{100e3, 200e3, true},    // +100%, +100us
		{100e3, 140e3, false},   // +40%, but only +40us
		{1000e3, 1060e3, false}, // +60us, but only +6%
		{0, 60e3, true},         // new from zero: infinitely larger, +60us
		{100e3, 100e3, false},
		{200e3, 100e3, false}, // faster never fails
	} {
		if got := r.exceeded(compare("self_cuda", []float64{c.base}, []float64{c.new}, 0.05, "")); got != c.fail {
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

func TestParseRuleRefusesBareDuration(t *testing.T) {
	for _, s := range []string{"self_cuda>120", "self_cpu>10%&50", "cpu_total>1.5"} {
		if _, err := ParseRule(s); err == nil {
			t.Errorf("%s: accepted a duration without a unit", s)
		}
	}
}
