package compile

import (
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestPairSteps: steps 2, 3 on both sides (in the compiled side's order),
// 1 eager only, 4 and 5 compiled only.
func TestPairSteps(t *testing.T) {
	ew := []trace.Step{{N: 1}, {N: 2}, {N: 3}}
	cw := []trace.Step{{N: 3}, {N: 2}, {N: 4}, {N: 5}}
	p, e, c := pairSteps(ew, cw)
	if !slices.Equal(p, []int64{3, 2}) || !slices.Equal(e, []int64{1}) || !slices.Equal(c, []int64{4, 5}) {
		t.Errorf("paired %v eager-only %v compiled-only %v, want [3 2] [1] [4 5]", p, e, c)
	}
	if got := keepSteps(ew, p); len(got) != 2 || got[0].N != 2 || got[1].N != 3 {
		t.Errorf("eager windows kept %v, want steps 2 and 3 in their order", got)
	}
}

// TestMedianMetricsMeasured: without device work on both sides the GPU
// rows are unmeasured (no ratio); the median kernel needs a kernel on
// both sides too; a ratio is compiled/eager rounded to 2 decimals and nil
// for an eager 0.
func TestMedianMetricsMeasured(t *testing.T) {
	e := StepStats{CPUNs: 300, GPUBusyNs: 90, Kernels: 4, MedianKernelNs: 20, Memcpys: 0}
	k := StepStats{CPUNs: 100, GPUBusyNs: 60, Kernels: 0, MedianKernelNs: 0, Memcpys: 2}
	byName := func(ms []Metric) map[string]Metric {
		out := map[string]Metric{}
		for _, m := range ms {
			out[m.Name] = m
		}
		return out
	}
	ms := medianMetrics(e, k, true)
	if len(ms) != 8 {
		t.Fatalf("%d rows, want 8", len(ms))
	}
	m := byName(ms)
	// CPU: 100/300 = 0.333 -> 0.33; GPU busy 60/90 = 0.667 -> 0.67
	if r := m["CPU time"].Ratio; r == nil || *r != 0.33 {
		t.Errorf("CPU time ratio %v, want 0.33", r)
	}
	if r := m["GPU busy"].Ratio; !m["GPU busy"].Measured || r == nil || *r != 0.67 {
		t.Errorf("GPU busy: measured %v ratio %v, want true 0.67", m["GPU busy"].Measured, r)
	}
	if mk := m["median kernel"]; mk.Measured || mk.Ratio != nil {
		t.Errorf("median kernel with no compiled kernel: measured %v ratio %v, want unmeasured", mk.Measured, mk.Ratio)
	}
	if mc := m["memcpys"]; !mc.Measured || mc.Ratio != nil {
		t.Errorf("memcpys from 0: measured %v ratio %v, want measured, no ratio", mc.Measured, mc.Ratio)
	}
	m = byName(medianMetrics(e, k, false))
	if g := m["GPU idle"]; g.Measured || g.Ratio != nil {
		t.Errorf("no GPU on a side: GPU idle measured %v, want not", g.Measured)
	}
	if c := m["kernels"]; !c.Measured {
		t.Errorf("no GPU on a side: the kernel count is still measured")
	}
}

// TestDisappearedOrder: ops before kernels, the most time first, then by
// name; what the compiled side still runs is not listed.
func TestDisappearedOrder(t *testing.T) {
	es := &side{opN: map[string]int{"aten::a": 1, "aten::b": 2, "aten::kept": 1}, opNs: map[string]int64{"aten::a": 5, "aten::b": 5, "aten::kept": 9},
		kerN: map[string]int{"k_big": 1, "k_small": 3}, kerNs: map[string]int64{"k_big": 50, "k_small": 6}}
	cs := &side{opN: map[string]int{"aten::kept": 1}, kerN: map[string]int{}}
	var got []string
	for _, g := range disappeared(es, cs) {
		got = append(got, g.Kind+":"+g.Name)
	}
	// ops a and b tie at 5 ns: by name; then the kernels, 50 before 6
	if want := []string{"op:aten::a", "op:aten::b", "kernel:k_big", "kernel:k_small"}; !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestHeadline: a GEMM beats a longer attention kernel; a GEMM helper
// never heads; without a GEMM, attention comes before convolution.
func TestHeadline(t *testing.T) {
	st := []Stayed{
		{Name: "flash_fwd", Family: "attention", EagerTotalNs: 900},
		{Name: "splitKreduce_kernel", Family: "gemm", EagerTotalNs: 800}, // a helper: skipped
		{Name: "sgemm_a", Family: "gemm", EagerTotalNs: 100},
		{Name: "sgemm_b", Family: "gemm", EagerTotalNs: 300},
		{Name: "conv_fwd", Family: "conv", EagerTotalNs: 1000},
	}
	if h := headline(st); h == nil || h.Name != "sgemm_b" {
		t.Errorf("headline %v, want sgemm_b (the largest non-helper GEMM, 300)", h)
	}
	if h := headline([]Stayed{st[4], st[0], st[1]}); h == nil || h.Name != "flash_fwd" {
		t.Errorf("headline %v, want flash_fwd (attention before conv; the helper is no GEMM)", h)
	}
	if h := headline([]Stayed{{Name: "elementwise", EagerTotalNs: 5}}); h != nil {
		t.Errorf("headline %v, want none", h)
	}
}

// TestStayedCmp: a kernel with a family before one without, whatever the
// time; then the most compiled time; then by name.
func TestStayedCmp(t *testing.T) {
	st := []Stayed{{Name: "other_big", CompiledTotalNs: 999}, {Name: "gemm_b", Family: "gemm", CompiledTotalNs: 10},
		{Name: "gemm_a", Family: "gemm", CompiledTotalNs: 10}, {Name: "conv", Family: "conv", CompiledTotalNs: 20}}
	slices.SortFunc(st, stayedCmp)
	var got []string
	for _, s := range st {
		got = append(got, s.Name)
	}
	if want := []string{"conv", "gemm_a", "gemm_b", "other_big"}; !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
