package compile

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/testtrace"
	"github.com/tracetab/tracetab/internal/trace"
)

// mini is testtrace.Mini: "cat|name|tid|ts|dur[|corr]", us.
func mini(t *testing.T, rows ...string) *trace.Trace { return testtrace.Mini(t, rows...) }

// Every event's self time goes to the nearest enclosing part of the
// outermost compiled call.
func TestSplitSelfTimeToNearestPart(t *testing.T) {
	s := Summarize(mini(t,
		"cpu_op|Torch-Compiled Region: 0/0|1|0|100",
		"cpu_op|Pregraph bytecode|1|1|4",
		"cpu_op|CompiledFunction|1|10|80",
		"cpu_op|## Call CompiledFxGraph abc ##|1|20|60",
		"cuda_runtime|cudaLaunchKernel|1|30|10|1",
		"kernel|triton_poi_fused_add_0|0|50|5|1",
	))
	if len(s.Costs) != 1 {
		t.Fatalf("costs %+v", s.Costs)
	}
	c := s.Costs[0]
	want := Split{DynamoNs: 16_000, PregraphNs: 4_000, AOTNs: 20_000, GraphNs: 50_000, LaunchNs: 10_000}
	if c.Sum != want || c.PerCall != want || c.Sum.Total() != 100_000 {
		t.Errorf("split %+v, want %+v (total 100us)", c.Sum, want)
	}
	if c.Calls != 1 || c.LaunchCalls != 1 || c.Launches != 1 || c.DeviceOps != 1 || c.TritonLaunch != 1 {
		t.Errorf("cost %+v", c)
	}
	if s.Scope.CompiledKernels != 1 || s.Scope.InductorKernels != 1 || s.Scope.OutsideKernels != 0 || s.Scope.InductorNs != 5_000 {
		t.Errorf("scope %+v", s.Scope)
	}
}

// A cache lookup goes to the next outermost compiled call on its thread
// with the same parent; one followed by another lookup, by a call under
// another parent, or by nothing is unattributed.
func TestCacheLookupAttribution(t *testing.T) {
	s := Summarize(mini(t,
		"cpu_op|TorchDynamo Cache Lookup|1|0|5",
		"cpu_op|Torch-Compiled Region: 0/0|1|10|40",
		"cpu_op|TorchDynamo Cache Lookup|1|60|3", // followed by a lookup
		"cpu_op|TorchDynamo Cache Lookup|1|70|2",
		"cpu_op|Torch-Compiled Region: 0/0|1|80|20",
		"cpu_op|TorchDynamo Cache Lookup|1|200|1", // followed by nothing
		"user_annotation|outer|2|0|50",
		"cpu_op|TorchDynamo Cache Lookup|2|1|2", // its next call is not under outer
		"cpu_op|Torch-Compiled Region: 1/0|2|60|10",
	))
	if s.UnattributedLookups != 3 {
		t.Errorf("unattributed %d, want 3", s.UnattributedLookups)
	}
	got := map[string]int64{}
	for _, c := range s.Costs {
		got[c.Name] = c.Sum.CacheLookupNs
	}
	want := map[string]int64{"Torch-Compiled Region: 0/0": 7_000, "Torch-Compiled Region: 1/0": 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lookups %v, want %v", got, want)
	}
}

// Compile work counts outermost compile events only, and its time is the
// union of their intervals; a recompile's compile work is what starts
// between the frame's previous compile's first call and its own.
func TestCompileWorkOutermostUnion(t *testing.T) {
	s := Summarize(mini(t,
		"user_annotation|ProfilerStep#5|3|0|100",
		"user_annotation|ProfilerStep#6|3|100|400",
		"cpu_op|a (dynamo_timed)|1|0|50",
		"cpu_op|b (dynamo_timed)|1|10|10", // inside a
		"cpu_op|c (dynamo_timed)|2|40|30", // overlaps a
		"cpu_op|Torch-Compiled Region: 0/0|1|100|10",
		"cpu_op|d (dynamo_timed)|1|150|50",
		"cpu_op|e (dynamo_timed)|2|180|70",
		"cpu_op|Torch-Compiled Region: 0/1|1|300|10",
	))
	x := s.Tax
	if x.Events != 4 || x.First != "a (dynamo_timed)" || x.TotalNs != 170_000 || !slices.Equal(x.Steps, []int64{5, 6}) {
		t.Errorf("tax %+v, want 4 events from a, 170us, steps [5 6]", x)
	}
	if len(s.Recompiles) != 1 {
		t.Fatalf("recompiles %+v", s.Recompiles)
	}
	r := s.Recompiles[0]
	if r.Frame != 0 || r.Compile != 1 || r.Step != 6 || r.CompileNs != 100_000 {
		t.Errorf("recompile %+v, want 0/1 in step 6 after 100us of compile work", r)
	}
}

// A frame's recompiles are its compile ids above 0, whichever are seen.
func TestFramesRecompiles(t *testing.T) {
	got := frames([]Region{
		{Kind: KindDynamo, Frame: 0, Compile: 0, Calls: 3},
		{Kind: KindDynamo, Frame: 0, Compile: 2, Calls: 1},
		{Kind: KindDynamo, Frame: 0, Compile: 1, Calls: 2},
		{Kind: KindDynamo, Frame: 1, Compile: 1, Calls: 4},
		{Kind: KindAOTForward, Frame: -1, Compile: -1, Calls: 9},
	})
	want := []Frame{{ID: 0, Compiles: []int{0, 1, 2}, Recompiles: 2, Calls: 6}, {ID: 1, Compiles: []int{1}, Recompiles: 1, Calls: 4}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("frames %+v, want %+v", got, want)
	}
}

func TestKernelClass(t *testing.T) {
	for _, c := range []struct {
		name, op           string
		inGraph, inCompile bool
		want               string
	}{
		{"triton_poi_fused_add_0", "", false, false, ClassInductor}, // Inductor's anywhere
		{"void cutlass_gemm_kernel", "", true, false, ClassLibrary}, // replayed: by its name
		{"some_kernel", "aten::mm", false, true, ClassLibrary},      // compiled: by its op
		{"elementwise_kernel", "aten::add", false, true, ClassOther},
		{"elementwise_kernel", "aten::mm", false, false, ""}, // eager code
	} {
		if got := kernelClass(c.name, c.op, c.inGraph, c.inCompile, Family); got != c.want {
			t.Errorf("kernelClass(%q, %q, %v, %v) = %q, want %q", c.name, c.op, c.inGraph, c.inCompile, got, c.want)
		}
	}
}

// Kernels: Inductor's, then library, then other; longest total first; ties
// keep their order. top breaks ties by the smallest key.
func TestSortKernelsAndTop(t *testing.T) {
	ks := []Kernel{
		{Name: "o", Class: ClassOther, TotalNs: 10},
		{Name: "l5", Class: ClassLibrary, TotalNs: 5},
		{Name: "i", Class: ClassInductor, TotalNs: 1},
		{Name: "l7a", Class: ClassLibrary, TotalNs: 7},
		{Name: "l7b", Class: ClassLibrary, TotalNs: 7},
	}
	sortKernels(ks)
	var names []string
	for _, k := range ks {
		names = append(names, k.Name)
	}
	if want := []string{"i", "l7a", "l7b", "l5", "o"}; !slices.Equal(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
	if got := top(map[string]int{"b": 2, "a": 2, "c": 1}); got != "a" {
		t.Errorf("top %q, want a", got)
	}
}
