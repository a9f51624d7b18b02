package ranks

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

func parseMini(t *testing.T, events ...string) *Summary {
	t.Helper()
	tr, err := parse.Read(strings.NewReader(`{"traceEvents":[`+strings.Join(events, ",")+`]}`), "mini.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Summarize(tr, 0)
}

// TestZeroDurationNoSteps: every device op lasts 0 ns and the trace has no
// ProfilerStep (issue 19 found an index out of range here): the rank has a
// GPU lane over its device work window (first start to last end: 20 us of
// idle), every other figure 0, and the comparison runs.
func TestZeroDurationNoSteps(t *testing.T) {
	s := parseMini(t,
		`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":0}`,
		`{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":7,"ts":20,"dur":0}`,
		`{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":30,"dur":0}`)
	if !s.HasGPU || s.Window != WindowDevice || s.WindowNs != 20_000 || s.ComputeNs != 0 || s.CommNs != 0 || s.IdleNs != 20_000 || s.OverlapNs != 0 || s.CommKernels != 1 {
		t.Errorf("summary %+v", s)
	}
	r := Compare([]*Summary{s}, DefaultMinSkewPct)
	if r.Verdict != nil || len(r.Notes) == 0 || r.Notes[len(r.Notes)-1] != "one rank: nothing to compare" {
		t.Errorf("verdict %+v notes %q", r.Verdict, r.Notes)
	}
	// a single zero-length op, and one with a length: the window is the op
	one := parseMini(t, `{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":5}`, `{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":40,"dur":0}`)
	if one.WindowNs != 30_000 || one.ComputeNs != 5_000 || one.IdleNs != 25_000 {
		t.Errorf("window %d compute %d idle %d", one.WindowNs, one.ComputeNs, one.IdleNs)
	}
}

// TestOverlapHTA: communication overlapped by compute kernels counts the
// time a communication kernel ran beside a kernel that is not
// communication; a memcpy beside it is not compute (HTA's kernel types).
func TestOverlapHTA(t *testing.T) {
	s := parseMini(t,
		`{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":20,"ts":100,"dur":100}`,
		`{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":150,"dur":100}`,
		`{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD","pid":0,"tid":8,"ts":90,"dur":40}`)
	if s.CommNs != 100_000 || s.OverlapNs != 50_000 || s.ExposedCommNs != 20_000 {
		t.Errorf("comm %d overlap %d exposed %d", s.CommNs, s.OverlapNs, s.ExposedCommNs)
	}
}

// TestSizes: the size of a collective comes from its kernel's args, else
// from the record_param_comms that launched it; nccl-tests' S and factors.
func TestSizes(t *testing.T) {
	s := parseMini(t,
		`{"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":0,"dur":50,"args":{"Collective name":"_allgather_base","dtype":"BFloat16","In msg nelems":10,"Out msg nelems":80,"Group size":8}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":7}}`,
		`{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllGather","pid":0,"tid":7,"ts":100,"dur":2,"args":{"correlation":7}}`,
		`{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":7,"ts":200,"dur":4,"args":{"correlation":9,"Collective name":"allreduce","dtype":"Float","In msg nelems":1000,"Out msg nelems":1000,"Group size":2}}`,
		`{"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":300,"dur":5,"args":{"Collective name":"allreduce","dtype":"Float","In msg nelems":1,"Out msg nelems":1,"Group size":1}}`)
	if len(s.Colls) != 2 || s.SizedOps != 2 || s.SizedOpsNoKernel != 1 {
		t.Fatalf("colls %+v sized %d without kernel %d", s.Colls, s.SizedOps, s.SizedOpsNoKernel)
	}
	ag, ar := s.Colls[0], s.Colls[1]
	if ag.Launch != 10_000 || ag.Size.Bytes() != 160 || KindOf(ag.Size.Coll) != KindAllGather || ar.Size.Bytes() != 4000 || ar.Launch != -1 {
		t.Errorf("all-gather %+v (%d bytes), all-reduce %+v (%d bytes)", ag, ag.Size.Bytes(), ar, ar.Size.Bytes())
	}
	for _, c := range []struct {
		kind string
		n    int64
		f    float64
	}{{KindAllReduce, 8, 1.75}, {KindAllGather, 8, 0.875}, {KindReduceScatter, 4, 0.75}, {KindAllToAll, 2, 0.5}, {KindBroadcast, 8, 1}, {KindReduce, 8, 1}, {KindSendRecv, 2, 1}} {
		if f, ok := BusFactor(c.kind, c.n); !ok || f != c.f {
			t.Errorf("%s n=%d: factor %v, want %v", c.kind, c.n, f, c.f)
		}
	}
	if _, ok := BusFactor("", 8); ok {
		t.Error("a factor for an unknown collective")
	}
	r := Compare([]*Summary{s}, DefaultMinSkewPct)
	// 4000 bytes in 4 us: 1 GB/s, times 2(2-1)/2; 160 bytes in 2 us, times 7/8
	if len(r.Bandwidth) != 2 || r.Bandwidth[0].AlgBW != 1 || r.Bandwidth[0].BusBW != 1 || r.Bandwidth[1].AlgBW != 0.08 || r.Bandwidth[1].BusBW != 0.08*0.875 {
		t.Errorf("bandwidth %+v", r.Bandwidth)
	}
}

// TestDeviceFiguresAsMerged: the figures from one sort of the compute ops
// (their union, their kernels' union, the union with communication from
// the two merged lists) equal those from merging each list on its own, as
// the definitions read, on random intervals: touching, nested, empty and
// reversed ones among them.
func TestDeviceFiguresAsMerged(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	iv := func() [2]int64 {
		s := rng.Int64N(200)
		return [2]int64{s, s + rng.Int64N(30) - 5}
	}
	for round := range 2000 {
		var compute []devIv
		var comm, kernels, plain, steps [][2]int64
		for range rng.IntN(40) {
			x, k := iv(), rng.IntN(2) == 0
			compute = append(compute, devIv{x, k})
			plain = append(plain, x)
			if k {
				kernels = append(kernels, x)
			}
		}
		for range rng.IntN(10) {
			comm = append(comm, iv())
		}
		for range rng.IntN(4) {
			steps = append(steps, iv())
		}
		var got Summary
		deviceFigures(&got, slices.Clone(steps), compute, slices.Clone(comm))
		// the definitions, each list merged on its own
		want := Summary{Window: WindowSteps}
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, x := range append(slices.Clone(plain), comm...) {
			lo, hi = min(lo, x[0]), max(hi, x[1])
		}
		all := merge(append(slices.Clone(plain), comm...))
		w := merge(slices.Clone(steps))
		if len(w) == 0 {
			want.Window = WindowDevice
			if hi > lo {
				w = [][2]int64{{lo, hi}}
			}
		}
		c, m := merge(plain), merge(slices.Clone(comm))
		want.WindowNs = length(w)
		want.ComputeNs = overlap(c, w)
		want.CommNs = overlap(m, w)
		want.ExposedCommNs = overlap(all, w) - want.ComputeNs
		want.IdleNs = want.WindowNs - overlap(all, w)
		want.OverlapNs = overlap(intersect(merge(kernels), m), w)
		if got.Window != want.Window || got.WindowNs != want.WindowNs || got.ComputeNs != want.ComputeNs || got.CommNs != want.CommNs ||
			got.ExposedCommNs != want.ExposedCommNs || got.IdleNs != want.IdleNs || got.OverlapNs != want.OverlapNs {
			t.Fatalf("round %d: got %+v, want %+v", round, got, want)
		}
	}
}
