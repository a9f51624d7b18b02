package categories

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// small is two steps: step 1 launches an addmm's GEMM (30us) and a
// memcpy (5us); step 2 a softmax (10us) and an NCCL all-reduce (20us);
// one elementwise kernel (4us) is launched after the last step, and one
// kernel with no launch call in the trace (7us, "triton_poi_...") starts
// inside step 2's window.
func small(t *testing.T) *trace.Trace {
	t.Helper()
	ev := []string{
		`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":10,"dur":20}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":11,"dur":1,"args":{"correlation":1}}`,
		`{"ph":"X","cat":"kernel","name":"sm90_xmma_gemm","pid":0,"tid":7,"ts":200,"dur":30,"args":{"correlation":1}}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":1,"ts":40,"dur":20}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":41,"dur":1,"args":{"correlation":2}}`,
		`{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":240,"dur":5,"args":{"correlation":2}}`,
		`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":100,"dur":100}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::_softmax","pid":1,"tid":1,"ts":110,"dur":20}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":111,"dur":1,"args":{"correlation":3}}`,
		`{"ph":"X","cat":"kernel","name":"cunn_SoftMaxForward","pid":0,"tid":7,"ts":250,"dur":10,"args":{"correlation":3}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":150,"dur":1,"args":{"correlation":4}}`,
		`{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":8,"ts":260,"dur":20,"args":{"correlation":4}}`,
		`{"ph":"X","cat":"kernel","name":"triton_poi_fused_add_0","pid":0,"tid":7,"ts":150,"dur":7}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":300,"dur":20}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":301,"dur":1,"args":{"correlation":5}}`,
		`{"ph":"X","cat":"kernel","name":"vectorized_elementwise_kernel","pid":0,"tid":7,"ts":400,"dur":4,"args":{"correlation":5}}`,
	}
	src := `{"schemaVersion":1,"traceEvents":[` + strings.Join(ev, ",") + `]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "small", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func cell(c *Cells, cat opclass.Category) Cell { return c[Index(cat)] }

func TestBuild(t *testing.T) {
	res := Build(small(t), nil)
	// 30 + 5 + 10 + 20 + 7 + 4 = 76us over 6 device ops
	if res.DeviceNs != 76000 || res.Kernels != 6 {
		t.Fatalf("total %d ns in %d ops, want 76000 in 6", res.DeviceNs, res.Kernels)
	}
	for cat, want := range map[opclass.Category]Cell{
		opclass.CatGEMM: {30000, 1}, opclass.CatMemory: {5000, 1}, opclass.CatReduction: {10000, 1},
		opclass.CatCommunication: {20000, 1}, opclass.CatElementwise: {11000, 2}, opclass.CatAttention: {},
	} {
		if got := cell(&res.Cells, cat); got != want {
			t.Errorf("%s: %+v, want %+v", cat, got, want)
		}
	}
	if len(res.Steps) != 2 {
		t.Fatalf("%d steps, want 2", len(res.Steps))
	}
	// step 1: GEMM + memcpy = 35us; step 2: softmax + NCCL + the unlaunched
	// Triton kernel (its own start, 150, is in step 2) = 37us; 4us outside
	if s := res.Steps[0]; s.N != 1 || s.DeviceNs != 35000 || s.Kernels != 2 {
		t.Errorf("step 1: %+v", s)
	}
	if s := res.Steps[1]; s.N != 2 || s.DeviceNs != 37000 || cell(&s.Cells, opclass.CatElementwise).DeviceNs != 7000 {
		t.Errorf("step 2: %+v", s)
	}
	if res.Outside != (Cell{4000, 1}) {
		t.Errorf("outside: %+v, want 4000 ns in 1", res.Outside)
	}
	// the Triton kernel has no launch call; the NCCL kernel's launch is in
	// no cpu_op
	if res.Unlinked != 2 {
		t.Errorf("unlinked %d, want 2", res.Unlinked)
	}
	// softmax in step 2: 10 of 37us = 27.03%; step 1 has none: the spread
	// is 0 to 27.03, median 13.51
	sp, ok := res.SpreadOf(Index(opclass.CatReduction))
	if !ok || sp.Steps != 2 || sp.Min != 0 || math.Abs(sp.Max-1000.0/37) > 1e-9 || math.Abs(sp.Median-500.0/37) > 1e-9 {
		t.Errorf("spread %+v", sp)
	}
}

func TestBuildRange(t *testing.T) {
	res := Build(small(t), &Range{First: 2, Last: 2})
	if res.DeviceNs != 37000 || len(res.Steps) != 1 || res.Steps[0].N != 2 || res.Outside != (Cell{}) {
		t.Errorf("range 2-2: %d ns, steps %+v, outside %+v", res.DeviceNs, res.Steps, res.Outside)
	}
}

func TestCellsHoldEveryCategory(t *testing.T) {
	if len(Cells{}) != len(opclass.Categories) {
		t.Fatalf("Cells has %d slots, opclass %d categories", len(Cells{}), len(opclass.Categories))
	}
}
