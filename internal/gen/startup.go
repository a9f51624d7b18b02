package gen

import "strconv"

// Startup is one-time start-up work and the steady-state stalls that look
// like it, for tracetab gaps' start-up, launch and share rules. Zero
// values add nothing; the block of each knob comes at the start of its
// step, before the scenario's stall and matmul_add, and delays the rest of
// the step by its length.
type Startup struct {
	// FirstLaunchNs: the trace's first launch call, at the start of the
	// first step, lasts this long (lazy module loading) and its kernel
	// starts when it returns.
	FirstLaunchNs int64
	// FreeNs: a cudaFree this long in the first step (context set-up),
	// then three short ones, so that the long one is an outlier of its
	// name.
	FreeNs int64
	// CreateNs: stream and event creation in the first step, this long in
	// all (cudaStreamCreateWithFlags, then cudaEventCreateWithFlags).
	CreateNs int64
	// BlockingNs: in the second step, a launch call that starts while a
	// 2 ms kernel runs and returns this long after it started, its kernel
	// starting 1 us later: the GPU runs dry during the call.
	BlockingNs int64
	// OverlapPython: in every step, Python frames that outlast their
	// parent: an __exit__ past the train_step frame it started in, and the
	// profiler's step frame past the end of ProfilerStep#N.
	OverlapPython bool
	// EventWaitNs: in the second step, a kernel launched after a
	// cudaStreamWaitEvent on an event no traced stream records waits this
	// long, every stream idle, the host blocked in cudaEventSynchronize.
	EventWaitNs int64
}

const (
	knobKernel   = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"
	shortFreeNs  = 6_000
	longKernelNs = 2_000_000
)

// knobLen is how much the knobs' blocks delay step s on the CPU.
func knobLen(cfg Config, s int) int64 {
	k := cfg.Startup
	var n int64
	if s == 0 {
		if k.FirstLaunchNs > 0 {
			n += k.FirstLaunchNs + 10_000
		}
		if k.FreeNs > 0 {
			n += k.FreeNs + 4*shortFreeNs + 10_000
		}
		if k.CreateNs > 0 {
			n += k.CreateNs + 10_000
		}
	}
	if s == 1 {
		if k.BlockingNs > 0 {
			n += max(k.BlockingNs, longKernelNs) + 40_000
		}
		if k.EventWaitNs > 0 {
			n += k.EventWaitNs + 40_000
		}
	}
	return n
}

// knobs writes the blocks of step s from t on the main thread.
func (g *writer) knobs(cfg Config, s int, t int64) {
	k := cfg.Startup
	call := func(name string, at, dur int64) {
		g.x("cuda_runtime", name, [2]int{pid, mainTid}, at, dur, "\"cbid\": 0, \"correlation\": "+strconv.FormatInt(g.corr, 10))
		g.corr++
		g.f.LaunchCalls++
	}
	if s == 0 {
		if d := k.FirstLaunchNs; d > 0 {
			e := g.op("cpu_op", "aten::fill_", mainTid, t, d+6_000, "[[64, 64], []]", "[\"float\", \"Scalar\"]")
			lag := g.lag
			g.lag = d + 1_000 - 4_100 // the kernel starts 1 us after the call returns
			g.launch(mainTid, e, "cudaLaunchKernel", t+2_000, d, devKernel, 7, knobKernel, 1_500)
			g.lag = lag
			t += d + 10_000
		}
		if d := k.FreeNs; d > 0 {
			call("cudaFree", t, d)
			t += d + 1_000
			for j := 0; j < 3; j++ {
				call("cudaFree", t, shortFreeNs)
				t += shortFreeNs + 1_000
			}
			t += 10_000 + shortFreeNs - 4_000
		}
		if d := k.CreateNs; d > 0 {
			call("cudaStreamCreateWithFlags", t, d*3/4)
			call("cudaEventCreateWithFlags", t+d*3/4, d-d*3/4)
			t += d + 10_000
		}
	}
	if s == 1 {
		if d := k.BlockingNs; d > 0 {
			e := g.op("cpu_op", "aten::mul", mainTid, t, 9_000, "[[64, 64], [64, 64]]", "[\"float\", \"float\"]")
			g.launch(mainTid, e, "cudaLaunchKernel", t+1_000, 5_000, devKernel, 7, gemm, longKernelNs)
			e2 := g.op("cpu_op", "aten::add", mainTid, t+10_000, d+4_000, dimsAdd, typesAdd)
			lag := g.lag
			g.lag = d + 1_000 - 4_100
			g.launch(mainTid, e2, "cudaLaunchKernel", t+12_000, d, devKernel, 7, addKernel, addDur)
			g.lag = lag
			t += max(d, longKernelNs) + 40_000
		}
		if d := k.EventWaitNs; d > 0 {
			call("cudaStreamWaitEvent", t, 2_000)
			e := g.op("cpu_op", "aten::mul", mainTid, t+3_000, 9_000, "[[64, 64], [64, 64]]", "[\"float\", \"float\"]")
			// the event fires d after the wait: the stream is held till then
			g.free[7] = max(g.free[7], t+g.lag+d)
			g.launch(mainTid, e, "cudaLaunchKernel", t+4_000, 5_000, devKernel, 7, addKernel, addDur)
			call("cudaEventSynchronize", t+13_000, d-13_000)
		}
	}
}

// overlapFrames writes step s's Python frames that outlast their parent
// (OverlapPython): train_step around matmul_add, an __exit__ that starts
// in it and ends after it, and the profiler's step frame past the end of
// the ProfilerStep annotation (the next step starts 2 us after it ends).
func (g *writer) overlapFrames(cfg Config, ma, maEnd, stepEnd int64) {
	if !cfg.Startup.OverlapPython {
		return
	}
	py := func(name string, ts, dur int64) { g.x("python_function", name, [2]int{pid, mainTid}, ts, dur, "") }
	py("train.py(40): train_step", ma-1_000, maEnd+6_000-(ma-1_000))
	py("torch/autograd/profiler.py(757): __exit__", maEnd+2_000, 12_000)
	py("torch/profiler/profiler.py(811): step", stepEnd-5_000, 6_500)
}
