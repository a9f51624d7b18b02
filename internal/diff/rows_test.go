package diff

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/testtrace"
	"github.com/tracetab/tracetab/internal/trace"
)

// mini is testtrace.Mini: "cat|name|tid|ts|dur[|corr]", us.
func mini(t *testing.T, rows ...string) *trace.Trace { return testtrace.Mini(t, rows...) }

// three steps (100, 150 and 50 us); k1 launched in step 1 (inside aten::mm)
// and in step 2, k2 in step 3 and once with no launch call after the steps
func stepKernels(t *testing.T) *trace.Trace {
	return mini(t,
		"user_annotation|ProfilerStep#1|1|0|100",
		"user_annotation|ProfilerStep#2|1|100|150",
		"user_annotation|ProfilerStep#3|1|250|50",
		"cpu_op|aten::mm|1|10|20",
		"cuda_runtime|cudaLaunchKernel|1|15|5|1",
		"kernel|k1|0|150|10|1", // runs in step 2, launched in step 1
		"cuda_runtime|cudaLaunchKernel|1|120|5|2",
		"kernel|k1|0|170|4|2",
		"cuda_runtime|cudaLaunchKernel|1|260|5|3",
		"kernel|k2|0|270|6|3",
		"kernel|k2|0|400|2|4",
	)
}

// A device op counts in the group of the step of its launch call, divided
// by the group's size; one without a launch call after the steps is
// outside. --key op keys it by the op around its launch call, else the
// launch call.
func TestKernelRowsByLaunchStep(t *testing.T) {
	tr := stepKernels(t)
	steps := tr.Steps(nil)
	groups := [][2]int{{0, 0}, {1, 2}} // step 1; steps 2 and 3
	a := &acc{rows: map[string]*racc{}}
	out := addKernelRows(a, tr, false, steps, groups, 0)
	if out[iSelfCuda] != 2000 || out[iCudaTotal] != 2000 || out[iCount] != 1 {
		t.Errorf("outside %v, want 2000 ns in 1 op", out)
	}
	want := map[string]string{
		"k1": "0:10000/1 1:2000/0.5", // 4 us over a group of 2 steps
		"k2": "1:3000/0.5",
	}
	for key, w := range want {
		if got := bucketsOf(a, key); got != w {
			t.Errorf("%s: %s, want %s", key, got, w)
		}
	}
	a = &acc{rows: map[string]*racc{}}
	addKernelRows(a, tr, true, steps, groups, 3)
	if got := bucketsOf(a, "aten::mm"); got != "3:10000/1" {
		t.Errorf("aten::mm: %s, want 3:10000/1", got)
	}
	if got := bucketsOf(a, "cudaLaunchKernel"); got != "4:5000/1" {
		t.Errorf("cudaLaunchKernel: %s, want 4:5000/1", got)
	}
	if r := a.rows["cudaLaunchKernel"]; r == nil || len(r.kernels) != 2 || !r.kernels["k1"] || !r.kernels["k2"] {
		t.Errorf("cudaLaunchKernel's kernels: %v, want k1 and k2", a.rows["cudaLaunchKernel"])
	}
}

// bucketsOf writes a row's buckets as "bucket:self_cuda/count", by bucket.
func bucketsOf(a *acc, key string) string {
	r := a.rows[key]
	if r == nil {
		return "(no row)"
	}
	var bs []int
	for b := range r.b {
		bs = append(bs, b)
	}
	slices.Sort(bs)
	var out []string
	for _, b := range bs {
		out = append(out, fmt.Sprintf("%d:%g/%g", b, r.b[b][iSelfCuda], r.b[b][iCount]))
	}
	return strings.Join(out, " ")
}

// Per step, the op rows of a group are its table divided by its size, and
// the work outside the steps is the whole trace's self times and calls
// less the groups'.
func TestOpRowsOutsideIsWholeLessSteps(t *testing.T) {
	all := &table.Result{Rows: []table.Row{{Name: "a", Count: 5, SelfCPU: 10}, {Name: "b", Count: 1, SelfCPU: 10}}, SumSelfCPU: 20, SumSelfDev: 8}
	per := []*table.Result{
		{Rows: []table.Row{{Name: "a", Count: 2, SelfCPU: 4}}, SumSelfCPU: 4, SumSelfDev: 1},
		{Rows: []table.Row{{Name: "a", Count: 2, SelfCPU: 6}}, SumSelfCPU: 6, SumSelfDev: 3},
	}
	a := &acc{rows: map[string]*racc{}}
	out := addOpRows(a, all, per, [][2]int{{0, 0}, {1, 2}}, false, 0)
	if out[iSelfCPU] != 10_000 || out[iSelfCuda] != 4_000 || out[iCount] != 2 {
		t.Errorf("outside %v, want 10000 ns CPU, 4000 ns device, 2 calls", out)
	}
	r := a.rows["a"]
	if r == nil || r.b[0][iSelfCPU] != 4_000 || r.b[0][iCount] != 2 || r.b[1][iSelfCPU] != 3_000 || r.b[1][iCount] != 1 {
		t.Errorf("row a: %v, want 4000 ns in 2 calls, then 3000 ns in 1 call a step", r)
	}
	a = &acc{rows: map[string]*racc{}}
	if out := addOpRows(a, all, nil, nil, false, 0); out != (vals{}) || len(a.order) != 2 || a.rows["b"].b[0][iSelfCPU] != 10_000 {
		t.Errorf("whole trace: outside %v, rows %v", out, a.order)
	}
}

// Totals per step: a group's self CPU is its mean per step, rounded; the
// step time is each step's window. Of the whole trace: the median step.
func TestTotalsPerStep(t *testing.T) {
	tr := stepKernels(t)
	steps := tr.Steps(nil)
	all := &table.Result{SumSelfCPU: 9}
	per := []*table.Result{{SumSelfCPU: 3}, {SumSelfCPU: 5.001}}
	s := &Side{Totals: map[string][]float64{}}
	addTotals(s, tr, all, per, [][2]int{{0, 0}, {1, 2}}, steps, (*Reuse)(nil).gaps(tr))
	if got := s.Totals["self_cpu"]; !slices.Equal(got, []float64{3000, 2501}) {
		t.Errorf("self_cpu %v, want [3000 2501]", got)
	}
	if got := s.Totals["step_time"]; !slices.Equal(got, []float64{100_000, 150_000, 50_000}) {
		t.Errorf("step_time %v, want 100, 150 and 50 us", got)
	}
	s = &Side{Totals: map[string][]float64{}}
	addTotals(s, tr, all, nil, nil, steps, (*Reuse)(nil).gaps(tr))
	if got := s.Totals["step_time"]; !slices.Equal(got, []float64{100_000}) {
		t.Errorf("whole trace: step_time %v, want the median, 100 us", got)
	}
	if got := s.Totals["self_cpu"]; !slices.Equal(got, []float64{9000}) {
		t.Errorf("whole trace: self_cpu %v, want 9000", got)
	}
	if got := s.Totals["steps"]; !slices.Equal(got, []float64{3}) {
		t.Errorf("steps %v", got)
	}
}
