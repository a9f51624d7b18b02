package diff

import (
	"math"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

func TestCompareVerdicts(t *testing.T) {
	same := []float64{10, 11, 12, 13, 14}
	up := []float64{20, 21, 22, 23, 24}
	for _, c := range []struct {
		b, n    []float64
		verdict string
	}{
		{same, same, Noise},
		{same, up, Changed},
		{[]float64{10, 11, 12}, []float64{20, 21, 22}, TooFew}, // min p 0.1 > 0.05
		{[]float64{10}, []float64{10}, Same},
		{same, []float64{10, 11, 12.5, 13, 14}, Noise},
	} {
		got := compare("self_cuda", c.b, c.n, 0.05, "")
		if got.Verdict != c.verdict {
			t.Errorf("%v vs %v: %s (p=%v), want %s", c.b, c.n, got.Verdict, got.P, c.verdict)
		}
	}
	c := compare("self_cuda", same, up, 0.05, "")
	if c.Abs != 10 || math.Abs(c.Rel-10.0/12) > 1e-12 || math.Abs(c.P-2.0/252) > 1e-12 {
		t.Errorf("%+v", c)
	}
	if c := compare("self_cuda", nil, nil, 0.05, "no device ops"); c.Verdict != Unmeasured || c.Counts() {
		t.Errorf("%+v", c)
	}
	if c := compare("self_cuda", []float64{0}, []float64{5}, 0.05, ""); !math.IsInf(c.Rel, 1) || RelText(c) != "new" {
		t.Errorf("from zero: %+v %s", c, RelText(c))
	}
	if c := compare("gpu_idle_pct", []float64{16.36}, []float64{3.66}, 0.05, ""); RelText(c) != "-12.70 pp" {
		t.Errorf("pp: %s", RelText(c))
	}
	if s := FormatDelta("self_cuda", -0.4); s != "+0.000us" {
		t.Errorf("-0: %s", s)
	}
}

func TestGroupSteps(t *testing.T) {
	mk := func(n int) []trace.Step {
		var s []trace.Step
		for k := 0; k < n; k++ {
			s = append(s, trace.Step{N: int64(k + 2)})
		}
		return s
	}
	if g := groupSteps(mk(5), 24); len(g) != 5 || g[4] != [2]int{4, 4} {
		t.Errorf("%v", g)
	}
	g := groupSteps(mk(50), 24)
	if len(g) != 17 || g[0] != [2]int{0, 2} || g[16] != [2]int{48, 49} {
		t.Errorf("%v", g)
	}
	// step numbers out of order: one step each
	s := mk(30)
	s[3].N = 1
	if g := groupSteps(s, 24); len(g) != 30 {
		t.Errorf("unordered: %d groups", len(g))
	}
}

func TestCompareEnv(t *testing.T) {
	a := TraceInfo{File: "a", Env: Env{GPUModels: []string{"A100"}, Devices: 1, WorldSize: 8, Rank: 3, Era: "K2b", Steps: 6, Shapes: true}}
	b := a
	b.File, b.Env.GPUModels, b.Env.WorldSize, b.Env.Rank, b.Env.Shapes = "b", []string{"V100"}, 2, 1, false
	got := map[string][2]string{}
	for _, m := range CompareEnv([]TraceInfo{a}, []TraceInfo{b}) {
		got[m.Field] = [2]string{m.Base, m.New}
	}
	want := map[string][2]string{"gpu_model": {"A100", "V100"}, "world_size": {"8", "2"}, "rank": {"3", "1"}, "shapes": {"recorded", "not recorded"}}
	if len(got) != len(want) {
		t.Errorf("%v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	if m := CompareEnv([]TraceInfo{a}, []TraceInfo{a}); len(m) != 0 {
		t.Errorf("same env: %v", m)
	}
}
