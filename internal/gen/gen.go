// Package gen writes realistic synthetic PyTorch profiler traces in the
// Kineto 2.x form (relative ns timestamps with baseTimeNanoseconds): nested
// annotations and aten ops, runtime calls with correlation ids, kernels,
// memcpys and memsets on several streams, ac2g and fwdbwd flows, shapes.
//
// Its shape follows the blog's matmul_add on a GPU: ProfilerStep#N >
// matmul_add > aten::matmul > aten::mm > cudaOccupancy... + cudaLaunchKernel
// > GEMM kernel, then aten::add > cudaLaunchKernel > elementwise kernel, with
// a cold first step (a dead window before aten::matmul and a late first
// kernel), a profiler buffer request that stalls the GPU, and a long
// cudaDeviceSynchronize at the end. Layers add a training-like body for
// size: linear layers, a copy, a backward thread, an all-reduce on a second
// stream.
package gen

import (
	"bufio"
	"io"
	"strconv"
)

// Config sizes the trace.
type Config struct {
	Steps       int   // profiler steps (ProfilerStep#2 ... #Steps+1)
	Layers      int   // extra linear layers per step (0: the blog's matmul_add only)
	TargetBytes int64 // when > 0, keep adding steps until this many bytes are written
	// Variant of the matmul_add body: "" (eager: aten::matmul > aten::mm),
	// "bmm" (aten::matmul > aten::bmm) or "compiled" (TorchDynamo Cache
	// Lookup, Torch-Compiled Region > aten::addmm with a DtoD memcpy) or
	// "triton" (TorchDynamo Cache Lookup, Torch-Compiled Region > AOT
	// prologue, ## Call CompiledFxGraph ## > aten::mm with the eager GEMM,
	// then the Inductor kernel triton_poi_fused_add_0 through cuLaunchKernel).
	Variant string
	// GEMMScale multiplies the GEMM kernels' durations (0 means 1), to
	// make a regressed twin of a trace.
	GEMMScale float64
	// Noise: seed, jitter and slowed device ops (noise.go).
	Noise Noise
	// Scenario adds a stall to every step (see Scenarios in scenarios.go).
	Scenario string
	// World > 0 writes rank Rank of a job of World ranks (rank.go): a
	// distributedInfo and one all-reduce per step whose kernel ends at
	// the same instant on every rank.
	Rank, World int
	// StragglerDelay > 0 makes rank Straggler launch each all-reduce this
	// many ns later than the others, which wait for it in the kernel.
	Straggler      int
	StragglerDelay int64
	// StragglerBeforeStep: the straggler's delay is before each
	// ProfilerStep#N begins (late.go), not inside the step.
	StragglerBeforeStep bool
	// PGSeq writes "Process Group Name" and "Seq" on the all-reduce kernels.
	PGSeq bool
	// Roofline ends every step with ops of known FLOPs (roofline.go).
	Roofline bool
	// Warm leaves out the cold first step (its 2.5 ms GPU lag and dead
	// window): a trace profiled after warm-up, every step alike.
	Warm bool
	// Memory writes [memory] events (memory.go).
	Memory Memory
	// Capture > 0 captures a CUDA graph of this many kernel launches
	// before the first step and replays it in every step (capture.go).
	Capture int
	// RecompileAt > 0: the compiled region recompiles (0/1) from
	// ProfilerStep#RecompileAt on (recompile.go).
	RecompileAt int
	// Kineto: the style of export_chrome_trace on a multi-GPU node with
	// record_shapes and profile_memory (kineto.go).
	Kineto Kineto
	// Startup adds one-time start-up calls and steady-state stalls (startup.go).
	Startup Startup
	// GPUBound: device ops take GPUBoundScale times longer and every step
	// ends in a cudaDeviceSynchronize that waits for its device work, so
	// the device time sets the step time (gpubound.go).
	GPUBound bool
	// Modules wraps each step's forward ops in nn.Module frames
	// (modules.go), for the module view.
	Modules bool
	// BaseTimeNs is the trace's baseTimeNanoseconds, its wall-clock start
	// (0: 1790857026000000000, 2026-10-01).
	BaseTimeNs int64
}

// Facts are what the generator put in the trace, for tests to check against.
type Facts struct {
	Steps           int
	Kernels         int
	Memcpys         int
	Memsets         int
	LaunchCalls     int
	CPUOps          int
	Annotations     int
	DeadWindowNs    int64 // first step: matmul_add start to aten::matmul start
	SyncDurNs       int64 // the final cudaDeviceSynchronize
	BufferRequestNs int64
	FirstLaunchNs   int64 // first kernel's start minus its launch call's start
	Bytes           int64
	// GEMMDurNs is the duration of every GEMM kernel of the matmul_add body.
	GEMMDurNs int64
	AddDurNs  int64
	// FusedDurNs is the duration of the Inductor kernel of the "triton" variant.
	FusedDurNs int64
	// Launches counts the runtime and driver calls that launched device work.
	Launches int
	// PerStep holds what each ProfilerStep#N window contains.
	PerStep []StepFacts
	// RooflineCalls counts the calls of RooflineOps written.
	RooflineCalls int
	// Memory is the truth about the [memory] events (nil without them).
	Memory *MemoryFacts
	// CapturedLaunches are the launch calls recorded into the graph;
	// Replayed the kernels its replays ran (capture.go).
	CapturedLaunches, Replayed int
	// RecompileNs is the compile work before the first recompiled call.
	RecompileNs int64
	// MemoryRecords counts the [memory] records (Kineto.Memory).
	MemoryRecords int
	// ModuleFrames counts the nn.Module frames (Config.Modules).
	ModuleFrames int
}

// StepFacts is what the generator wrote inside one ProfilerStep#N.
type StepFacts struct {
	N            int64
	Kernels      int
	Memcpys      int
	RuntimeCalls int // runtime and driver calls
	Launches     int // those that launched device work
}

// layerWidth is the CPU time of one layer of the step's body.
const layerWidth = 60_000

const (
	pid         = 4242
	mainTid     = 4242
	bwdTid      = 4250
	base        = int64(1790857026000000000)
	gemm        = "ampere_sgemm_32x32_sliced1x4_nn"
	fusedKernel = "triton_poi_fused_add_0"
	fusedDur    = 2_112
	addKernel   = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctorOnSelf_add<float>, at::detail::Array<char*, 3>)"
	gemmDurBase = 11_328
	addDur      = 2_592
	// allReduceDur is the all-reduce kernel's duration; in rank mode, the
	// transfer time of the last rank to arrive
	allReduceDur = 48_000
)

type writer struct {
	w     *bufio.Writer
	cw    *countWriter
	buf   []byte
	first bool
	ext   int64 // External id counter
	corr  int64 // correlation counter
	evIdx int64
	f     Facts
	// stream busy-until, per stream
	free map[int]int64
	// the GPU lane trails the CPU lane
	lag int64
	// noise scales durations (noise.go)
	noise *noiser
	// rank mode (rank.go): the next launch's device op gets this start
	// and duration instead of its own, and these extra kernel args;
	// lateIn is how late this rank entered the step (late.go)
	lateIn   int64
	fixColl  func(start int64) (int64, int64)
	collArgs string
	seq      int64
	mem      *memState // [memory] events (memory.go), nil without
	// the Kineto style (kineto.go)
	k kstate
	// gpuBound: Config.GPUBound (gpubound.go)
	gpuBound bool
	// moduleID numbers the module frames' Python ids (modules.go)
	moduleID int64
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Write writes one trace to w and returns what it contains.
func Write(w io.Writer, cfg Config) (Facts, error) {
	cw := &countWriter{w: w}
	g := &writer{w: bufio.NewWriterSize(cw, 1<<20), cw: cw, first: true, ext: 1, corr: 1000, free: map[int]int64{}, noise: newNoiser(cfg.Noise)}
	if cfg.Steps <= 0 {
		cfg.Steps = 1
	}
	g.k = newKState(cfg.Kineto, baseTime(cfg))
	g.gpuBound = cfg.GPUBound
	g.header(cfg)
	g.memInit(cfg.Memory)
	t := int64(1_000_000) // 1 ms after the trace start
	t = g.capture(cfg, t)
	for s := 0; ; s++ {
		before := g.f
		g.memStepStart()
		t0 := t
		t = g.step(s, t, cfg)
		g.memStepEnd(t0, t-2_000)
		g.f.Steps++
		g.f.PerStep = append(g.f.PerStep, StepFacts{N: int64(s + 2), Kernels: g.f.Kernels - before.Kernels,
			Memcpys: g.f.Memcpys - before.Memcpys, RuntimeCalls: g.f.LaunchCalls - before.LaunchCalls,
			Launches: g.f.Launches - before.Launches})
		if cfg.TargetBytes > 0 {
			if g.cw.n+int64(g.w.Buffered()) >= cfg.TargetBytes {
				break
			}
		} else if s+1 >= cfg.Steps {
			break
		}
	}
	t = g.finalSync(t)
	g.footer(t)
	g.f.Memory = g.memFacts()
	if err := g.w.Flush(); err != nil {
		return g.f, err
	}
	g.f.Bytes = cw.n
	return g.f, nil
}

func (g *writer) header(cfg Config) {
	if g.kHeader(cfg) {
		return
	}
	g.w.WriteString(`{
  "schemaVersion": 1,
  "deviceProperties": [
    {
      "id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85031714816,
      "computeMajor": 8, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "numSms": 108
    }
  ],
  "cupti_version": 24,
  "cuda_runtime_version": 12080,
  "cuda_driver_version": 12080,
  "record_shapes": 1,
  "trace_id": "7A7B2C9D0E1F4A5B8C6D7E8F9A0B1C2D",
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": ` + strconv.FormatInt(baseTime(cfg), 10) + `,
`)
	g.distInfo(cfg)
	g.w.WriteString(`  "traceEvents": [
`)
	for _, m := range []string{
		`{"ph": "M", "name": "process_name", "ts": 0.000, "pid": 4242, "tid": 0, "args": {"name": "python3"}}`,
		`{"ph": "M", "name": "process_labels", "ts": 0.000, "pid": 4242, "tid": 0, "args": {"labels": "CPU"}}`,
		`{"ph": "M", "name": "thread_name", "ts": 0.000, "pid": 4242, "tid": 4242, "args": {"name": "thread 4242 (python3)"}}`,
		`{"ph": "M", "name": "thread_name", "ts": 0.000, "pid": 4242, "tid": 4250, "args": {"name": "thread 4250 (pt_autograd_0)"}}`,
		`{"ph": "M", "name": "process_name", "ts": 0.000, "pid": 0, "tid": 0, "args": {"name": "python3"}}`,
		`{"ph": "M", "name": "process_labels", "ts": 0.000, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}}`,
		`{"ph": "M", "name": "thread_name", "ts": 0.000, "pid": 0, "tid": 7, "args": {"name": "stream 7"}}`,
		`{"ph": "M", "name": "thread_name", "ts": 0.000, "pid": 0, "tid": 20, "args": {"name": "stream 20"}}`,
	} {
		g.sep()
		g.w.WriteString("  ")
		g.w.WriteString(m)
	}
}

func (g *writer) sep() {
	if !g.first {
		g.w.WriteString(",\n")
	}
	g.first = false
}

// ts formats ns as Kineto does: "{us}.{ns:03}".
func appendTs(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	b = append(b, '.')
	r := ns % 1000
	if r < 100 {
		b = append(b, '0')
	}
	if r < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, r, 10)
}

// x writes one complete event; args is the inside of the args object.
func (g *writer) x(cat, name string, pidTid [2]int, ts, dur int64, args string) {
	g.sep()
	b := g.buf[:0]
	b = append(b, "  {\n    \"ph\": \"X\", \"cat\": \""...)
	b = append(b, cat...)
	b = append(b, "\", \"name\": \""...)
	b = append(b, name...)
	b = append(b, "\", \"pid\": "...)
	b = strconv.AppendInt(b, int64(pidTid[0]), 10)
	b = append(b, ", \"tid\": "...)
	b = strconv.AppendInt(b, int64(pidTid[1]), 10)
	b = append(b, ",\n    \"ts\": "...)
	b = appendTs(b, ts+g.k.tsOff)
	b = append(b, ", \"dur\": "...)
	b = appendTs(b, dur)
	if args != "" {
		b = append(b, ",\n    \"args\": {\n      "...)
		b = append(b, args...)
		b = append(b, "\n    }"...)
	}
	b = append(b, "\n  }"...)
	g.w.Write(b)
	g.buf = b
}

func (g *writer) span(cat, name, p, t string, ts, dur int64, args string) {
	g.sep()
	b := g.buf[:0]
	b = append(b, "  {\"ph\": \"X\", \"cat\": \""...)
	b = append(b, cat...)
	b = append(b, "\", \"name\": \""...)
	b = append(b, name...)
	b = append(b, "\", \"pid\": "...)
	b = append(b, p...)
	b = append(b, ", \"tid\": "...)
	b = append(b, t...)
	b = append(b, ", \"ts\": "...)
	b = appendTs(b, ts)
	b = append(b, ", \"dur\": "...)
	b = appendTs(b, dur)
	b = append(b, ", \"args\": {"...)
	b = append(b, args...)
	b = append(b, "}}"...)
	g.w.Write(b)
	g.buf = b
}

func (g *writer) flow(cat string, ph byte, id int64, p, t int, ts int64) {
	if g.k.Export {
		g.kFlow(cat, ph, id, p, t, ts)
		return
	}
	g.sep()
	b := g.buf[:0]
	b = append(b, "  {\"ph\": \""...)
	b = append(b, ph)
	b = append(b, "\", \"id\": "...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, ", \"pid\": "...)
	b = strconv.AppendInt(b, int64(p), 10)
	b = append(b, ", \"tid\": "...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, ", \"ts\": "...)
	b = appendTs(b, ts)
	b = append(b, ", \"cat\": \""...)
	b = append(b, cat...)
	b = append(b, "\", \"name\": \""...)
	b = append(b, cat...)
	if ph == 'f' {
		b = append(b, "\", \"bp\": \"e"...)
	}
	b = append(b, "\"}"...)
	g.w.Write(b)
	g.buf = b
}

func (g *writer) opArgs(ext int64, dims, types string) string {
	g.evIdx++
	a := "\"External id\": " + strconv.FormatInt(ext, 10) + ", \"Record function id\": 0"
	if dims != "" && g.k.Shapes {
		a += g.recordShapes(dims, types)
	} else if dims != "" {
		a += ", \"Input Dims\": " + dims + ", \"Input type\": " + types
	}
	return a + ", \"Ev Idx\": " + strconv.FormatInt(g.evIdx, 10)
}

// op writes a cpu_op or user_annotation and returns its External id.
func (g *writer) op(cat, name string, tid int, ts, dur int64, dims, types string) int64 {
	ext := g.ext
	g.ext++
	g.x(cat, name, [2]int{pid, tid}, ts, dur, g.opArgs(ext, dims, types))
	if cat == "cpu_op" {
		g.memOp(name, tid, ts, dur)
		g.f.CPUOps++
	} else {
		g.f.Annotations++
	}
	g.afterOp(cat, name, tid, ts, dur, dims, types)
	return ext
}

// device kinds for launch
const (
	devKernel = iota
	devMemcpy
	devMemset
)

// launch writes a runtime call at ts on tid, linked to op ext, and the
// device op it starts on stream; it returns the device op's end.
func (g *writer) launch(tid int, ext int64, call string, ts, dur int64, kind, stream int, name string, gpuDur int64) int64 {
	return g.launchCat("cuda_runtime", tid, ext, call, ts, dur, kind, stream, name, gpuDur)
}

// launchCat is launch with the launch call's category (cuda_driver for cuLaunchKernel).
func (g *writer) launchCat(cat string, tid int, ext int64, call string, ts, dur int64, kind, stream int, name string, gpuDur int64) int64 {
	dur, gpuDur = g.noise.cpu(dur), g.noise.device(name, g.gpuBoundDur(gpuDur))
	corr := g.corr
	g.corr++
	cbid := "211"
	if kind != devKernel {
		cbid = "41"
	}
	g.x(cat, call, [2]int{pid, tid}, ts, dur,
		"\"External id\": "+strconv.FormatInt(ext, 10)+", \"cbid\": "+cbid+", \"correlation\": "+strconv.FormatInt(corr, 10))
	g.f.LaunchCalls++
	g.f.Launches++
	start := ts + g.lag + 4_100
	if f := g.free[stream]; f > start {
		start = f
	}
	if g.fixColl != nil {
		start, gpuDur = g.fixColl(start)
	}
	end := start + gpuDur
	g.free[stream] = end + 1_000
	common := "\"External id\": " + strconv.FormatInt(ext, 10) + ", \"device\": 0, \"context\": 1, \"stream\": " +
		strconv.Itoa(stream) + ", \"correlation\": " + strconv.FormatInt(corr, 10)
	switch kind {
	case devKernel:
		g.x("kernel", name, [2]int{0, stream}, start, gpuDur, "\"queued\": 0, "+common+
			", \"registers per thread\": 90, \"shared memory\": 16384, \"blocks per SM\": 0.148, \"warps per SM\": 1.185, \"grid\": [16, 1, 1], \"block\": [256, 1, 1], \"est. achieved occupancy %\": 3"+g.collArgs)
		g.f.Kernels++
	case devMemcpy:
		g.x("gpu_memcpy", name, [2]int{0, stream}, start, gpuDur, common+", \"bytes\": 16384, \"memory bandwidth (GB/s)\": 8.19")
		g.f.Memcpys++
	case devMemset:
		g.x("gpu_memset", name, [2]int{0, stream}, start, gpuDur, common+", \"bytes\": 16384, \"memory bandwidth (GB/s)\": 12.5")
		g.f.Memsets++
	}
	g.flow("ac2g", 's', corr, pid, tid, ts)
	g.flow("ac2g", 'f', corr, 0, stream, start)
	if g.f.FirstLaunchNs == 0 {
		g.f.FirstLaunchNs = start - ts
	}
	return end
}

const (
	dims64   = "[[64, 64], [64, 64]]"
	types2   = "[\"float\", \"float\"]"
	dimsAdd  = "[[64, 64], [64, 64], []]"
	typesAdd = "[\"float\", \"float\", \"Scalar\"]"
)

// stepPlan is where one step's parts lie (ns), laid out before any is
// written: the step annotation is written first (begin order), so its end
// comes from the layers' fixed widths.
type stepPlan struct {
	no        int   // N of ProfilerStep#N
	cold      bool  // the first step of a cold run
	lateIn    int64 // the straggler's late entry (late.go)
	start     int64 // the step annotation's start
	ma, maEnd int64 // matmul_add
	dead      int64 // before aten::matmul: the dead window
	mm, mmIn  int64 // aten::matmul, its aten::mm
	occ       int64 // the occupancy query before the GEMM's launch
	launch1   int64 // the GEMM's launch
	mmEnd     int64
	matmulEnd int64
	add       int64 // aten::add
	launch2   int64 // its launch
	addEnd    int64
	cur       int64 // the body after matmul_add: the layers, then communication
	comm      bool  // the body ends in a copy and an all-reduce
	rfStart   int64 // the roofline block
	bodyEnd   int64
	end       int64
}

// step writes one ProfilerStep starting at t and returns where the next
// starts: the plan, the step annotation (held back for -gpu-bound until
// the body's device work is known), matmul_add and its variant, the
// layers, the communication, the frames and the roofline block.
func (g *writer) step(s int, t int64, cfg Config) int64 {
	gemmDur := int64(gemmDurBase)
	if cfg.GEMMScale > 0 {
		gemmDur = int64(float64(gemmDurBase) * cfg.GEMMScale)
	}
	p := g.planStep(s, t, cfg)
	writeStep := func(end int64) {
		g.op("user_annotation", "ProfilerStep#"+strconv.Itoa(p.no), mainTid, p.start, end-p.start, "", "")
	}
	var endHeld func(int64, func(int64)) int64
	if cfg.GPUBound {
		endHeld = g.stepHold() // the step's end is known after its body
	} else {
		writeStep(p.end)
	}
	g.knobs(cfg, s, p.start+21_000)
	g.scenario(cfg, p.start+21_000+knobLen(cfg, s))
	g.stepModules(cfg, p.ma, p.maEnd, p.cur)
	g.op("user_annotation", "matmul_add", mainTid, p.ma, p.maEnd-p.ma, "", "")
	g.memStepBody(p.maEnd, p.start)
	gemmEnd := g.matmul(cfg, p, gemmDur)
	g.f.GEMMDurNs = gemmDur
	if p.cold {
		// the profiler's own buffer request (CUPTI's pseudo-thread) stalls
		// the GPU between the first GEMM and the first add
		g.x("overhead", "Activity Buffer Request", [2]int{-1, 0}, gemmEnd-2_000, 171_000, "")
		g.f.BufferRequestNs = 171_000
		g.free[7] = gemmEnd - 2_000 + 171_000
	}
	g.addOp(cfg, p)
	g.graphReplay(cfg, p.maEnd+1_000)
	for l := 0; l < cfg.Layers; l++ {
		g.layer(cfg, l, p.cur+int64(l)*layerWidth)
	}
	if p.comm {
		g.allReduce(cfg, p.cur+int64(cfg.Layers)*layerWidth)
	}
	g.overlapFrames(cfg, p.ma, p.maEnd, p.end)
	g.rooflineBlock(cfg, p.rfStart)
	end := p.end
	if endHeld != nil {
		end = endHeld(p.bodyEnd, writeStep)
	}
	return end + 2_000
}

// planStep lays out step s from t (the straggler's late entry, when it
// has one, written first), and sets the lag and dead window a cold first
// step has.
func (g *writer) planStep(s int, t int64, cfg Config) stepPlan {
	p := stepPlan{no: s + 2, cold: s == 0 && !cfg.Warm}
	p.lateIn = g.enterLate(cfg, t)
	p.start = t + p.lateIn
	p.ma = p.start + 21_000 + scenarioLen(cfg) + knobLen(cfg, s)
	p.dead = 9_000
	if p.cold {
		p.dead = 228_000 // the blog's dead window: nothing runs before aten::matmul
		g.lag = 2_500_000
		g.f.DeadWindowNs = p.dead
	} else {
		g.lag = 0
	}
	// aten::matmul > aten::mm > occupancy query + launch
	p.mm = p.ma + p.dead
	p.mmIn = p.mm + 6_000
	p.occ = p.mmIn + 8_000
	p.launch1 = p.occ + 5_000
	p.mmEnd = p.launch1 + 18_000 + 4_000
	p.matmulEnd = p.mmEnd + 3_000
	p.add = p.matmulEnd + 11_000
	p.launch2 = p.add + 9_000
	p.addEnd = p.launch2 + 16_000 + 6_000
	p.maEnd = p.addEnd + 8_000
	p.cur = p.maEnd + 10_000
	p.bodyEnd = p.cur + int64(cfg.Layers)*layerWidth
	p.comm = cfg.Layers > 0 || cfg.World > 0
	if p.comm {
		p.bodyEnd += 90_000 + g.stragglerDelay(cfg) - p.lateIn // copy + all-reduce
	}
	p.rfStart = p.bodyEnd
	p.bodyEnd += rooflineLen(cfg)
	p.end = p.bodyEnd + 15_000
	if p.cold {
		p.end += 40_000
		if cfg.World > 0 {
			// rank mode: the cold step lasts until its GPU lag has drained,
			// so every later all-reduce starts when it is launched
			p.end += g.lag
		}
	}
	return p
}

// matmul writes matmul_add's GEMM as the variant runs it (eager, bmm,
// torch.compile's region, Inductor's graph) and returns the GEMM's end.
func (g *writer) matmul(cfg Config, p stepPlan, gemmDur int64) int64 {
	switch cfg.Variant {
	case "compiled":
		// torch.compile: a cache lookup, then the compiled region runs one
		// addmm that first copies the bias device to device.
		g.op("user_annotation", "TorchDynamo Cache Lookup", mainTid, p.mm, 5_000, "", "")
		g.op("user_annotation", g.region(cfg, p.no, p.start+2_000), mainTid, p.mm+6_000, p.matmulEnd-p.mm-6_000+p.addEnd-p.matmulEnd, "", "")
		eAddmm := g.op("cpu_op", "aten::addmm", mainTid, p.mmIn+4_000, p.mmEnd-p.mmIn, "[[64], [64, 64], [64, 64], [], []]", "[\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]")
		g.launch(mainTid, eAddmm, "cudaMemcpyAsync", p.occ, 4_000, devMemcpy, 7, "Memcpy DtoD (Device -> Device)", 1_200)
		return g.launch(mainTid, eAddmm, "cudaLaunchKernel", p.launch1, 18_000, devKernel, 7, gemm, gemmDur)
	case "triton":
		// torch.compile with Inductor: the GEMM stays a cuBLAS call inside
		// the compiled graph, the add becomes one Triton kernel.
		g.op("cpu_op", "TorchDynamo Cache Lookup", mainTid, p.mm, 5_000, "", "")
		g.op("cpu_op", g.region(cfg, p.no, p.start+2_000), mainTid, p.mm+6_000, p.addEnd-p.mm-6_000, "", "")
		g.op("cpu_op", "AOTDispatcher Runtime Wrapper Prologue", mainTid, p.mm+6_500, 1_500, "", "")
		g.op("user_annotation", "## Call CompiledFxGraph fgen3xq7v2tracetab ##", mainTid, p.mm+9_000, p.addEnd-1_000-p.mm-9_000, "", "")
		eMm := g.op("cpu_op", "aten::mm", mainTid, p.mmIn+4_000, p.mmEnd-p.mmIn-4_000, dims64, types2)
		g.occupancyQuery(eMm, p.occ)
		return g.launch(mainTid, eMm, "cudaLaunchKernel", p.launch1, 18_000, devKernel, 7, gemm, gemmDur)
	}
	inner, dims, kern := "aten::mm", dims64, gemm
	if cfg.Variant == "bmm" {
		inner, dims, kern = "aten::bmm", "[[8, 64, 64], [8, 64, 64]]", "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(cutlass_80_simt_sgemm_64x64_8x5_nn_align1::Params)"
	}
	g.op("cpu_op", "aten::matmul", mainTid, p.mm, p.matmulEnd-p.mm, dims, types2)
	eMm := g.op("cpu_op", inner, mainTid, p.mmIn, p.mmEnd-p.mmIn, dims, types2)
	g.occupancyQuery(eMm, p.occ)
	return g.launch(mainTid, eMm, "cudaLaunchKernel", p.launch1, 18_000, devKernel, 7, kern, gemmDur)
}

// occupancyQuery writes the occupancy query a GEMM makes before its
// launch (picking its variant), on op e's correlation.
func (g *writer) occupancyQuery(e, at int64) {
	g.x("cuda_runtime", "cudaOccupancyMaxActiveBlocksPerMultiprocessor", [2]int{pid, mainTid}, at, 2_700,
		"\"External id\": "+strconv.FormatInt(e, 10)+", \"cbid\": 183, \"correlation\": "+strconv.FormatInt(g.corr, 10))
	g.corr++
	g.f.LaunchCalls++
}

// addOp writes matmul_add's add: one Triton kernel under Inductor, an
// aten::add launch in eager mode (the compiled region's addmm has none).
func (g *writer) addOp(cfg Config, p stepPlan) {
	switch cfg.Variant {
	case "triton":
		eTri := g.op("cpu_op", fusedKernel, mainTid, p.add, p.addEnd-2_000-p.add, "", "")
		g.launchCat("cuda_driver", mainTid, eTri, "cuLaunchKernel", p.launch2, 16_000, devKernel, 7, fusedKernel, fusedDur)
		g.f.FusedDurNs = fusedDur
	case "compiled":
	default:
		eAdd := g.op("cpu_op", "aten::add", mainTid, p.add, p.addEnd-p.add, dimsAdd, typesAdd)
		g.launch(mainTid, eAdd, "cudaLaunchKernel", p.launch2, 16_000, devKernel, 7, addKernel, addDur)
		g.f.AddDurNs = addDur
	}
}

// layer writes extra layer l from lt: linear and ReLU forward on the main
// thread, the addmm's backward on the autograd thread (a fwdbwd flow).
func (g *writer) layer(cfg Config, l int, lt int64) {
	g.layerModule(cfg, "Linear", l, lt, 52_000)
	g.op("cpu_op", "aten::linear", mainTid, lt, 52_000, "[[64, 512], [512, 512], [512]]", "[\"float\", \"float\", \"float\"]")
	g.op("cpu_op", "aten::t", mainTid, lt+2_000, 7_000, "[[512, 512]]", "[\"float\"]")
	g.op("cpu_op", "aten::transpose", mainTid, lt+3_500, 4_000, "[[512, 512], [], []]", "[\"float\", \"Scalar\", \"Scalar\"]")
	eAddmm := g.op("cpu_op", "aten::addmm", mainTid, lt+11_000, 38_000, "[[512], [64, 512], [512, 512], [], []]", "[\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]")
	g.launch(mainTid, eAddmm, "cudaLaunchKernel", lt+26_000, 9_000, devKernel, 7,
		"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", 19_000+int64(l%3)*2_000)
	g.layerModule(cfg, "ReLU", l, lt+52_500, 6_500)
	eRelu := g.op("cpu_op", "aten::relu", mainTid, lt+52_500, 6_500, "[[64, 512]]", "[\"float\"]")
	g.launch(mainTid, eRelu, "cudaLaunchKernel", lt+54_000, 4_000, devKernel, 7,
		"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", 3_200)
	// backward on the autograd thread, linked by a fwdbwd flow
	bt := lt + 5_000
	g.flow("fwdbwd", 's', eAddmm, pid, mainTid, lt+11_000)
	g.op("cpu_op", "autograd::engine::evaluate_function: AddmmBackward0", bwdTid, bt, 40_000, "", "")
	g.flow("fwdbwd", 'f', eAddmm, pid, bwdTid, bt)
	g.op("cpu_op", "AddmmBackward0", bwdTid, bt+2_000, 36_000, "", "")
	eMmB := g.op("cpu_op", "aten::mm", bwdTid, bt+5_000, 20_000, "[[64, 512], [512, 512]]", "[\"float\", \"float\"]")
	g.launch(bwdTid, eMmB, "cudaLaunchKernel", bt+10_000, 7_000, devKernel, 7, gemm, 21_000)
	eSum := g.op("cpu_op", "aten::sum", bwdTid, bt+27_000, 9_000, "[[64, 512], [], [], []]", "[\"float\", \"ScalarList\", \"Scalar\", \"\"]")
	g.launch(bwdTid, eSum, "cudaLaunchKernel", bt+30_000, 4_500, devKernel, 7, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>)", 6_400)
}

// allReduce writes the step's communication from ct: a host-to-device
// copy, a memset, then the all-reduce (late on a straggler rank).
func (g *writer) allReduce(cfg Config, ct int64) {
	eCopy := g.op("cpu_op", "aten::copy_", mainTid, ct, 30_000, "[[64, 64], [64, 64], []]", "[\"float\", \"float\", \"Scalar\"]")
	g.launch(mainTid, eCopy, "cudaMemcpyAsync", ct+6_000, 12_000, devMemcpy, 7, "Memcpy HtoD (Pinned -> Device)", 2_000)
	eZero := g.op("cpu_op", "aten::zero_", mainTid, ct+32_000, 12_000, "[[512, 512]]", "[\"float\"]")
	g.launch(mainTid, eZero, "cudaMemsetAsync", ct+35_000, 5_000, devMemset, 7, "Memset (Device)", 1_300)
	ct += g.rankCollective(cfg, ct)
	g.op("cpu_op", "c10d::allreduce_", mainTid, ct+46_000, 40_000, "[[[512, 512]], [], [], [], []]", "[\"TensorList\", \"Object\", \"Object\", \"Object\", \"Int\"]")
	eRec := g.op("cpu_op", "record_param_comms", mainTid, ct+50_000, 30_000, "", "")
	g.launch(mainTid, eRec, "cudaLaunchKernel", ct+60_000, 8_000, devKernel, 20,
		"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", allReduceDur)
	g.fixColl, g.collArgs = nil, ""
}

// finalSync writes the cudaDeviceSynchronize that waits for the GPU.
func (g *writer) finalSync(t int64) int64 {
	dur := int64(1_780_000)
	gpuEnd := g.free[7]
	if g.free[20] > gpuEnd {
		gpuEnd = g.free[20]
	}
	if gpuEnd+5_000 > t+dur {
		dur = gpuEnd + 5_000 - t
	}
	g.x("cuda_runtime", "cudaDeviceSynchronize", [2]int{pid, mainTid}, t, dur,
		"\"cbid\": 165, \"correlation\": "+strconv.FormatInt(g.corr, 10))
	g.corr++
	g.f.LaunchCalls++
	g.f.SyncDurNs = dur
	return t + dur + 3_000
}

func (g *writer) footer(t int64) {
	if g.kFooter(t) {
		return
	}
	g.span("Trace", "PyTorch Profiler (0)", "\"Spans\"", "\"PyTorch Profiler\"", 0, t, "\"Op count\": 0")
	g.sep()
	b := append(g.buf[:0], "  {\"ph\": \"i\", \"s\": \"g\", \"name\": \"Record Window End\", \"pid\": \"\", \"tid\": \"\", \"ts\": "...)
	b = appendTs(b, t)
	b = append(b, "}\n  ],\n  \"traceName\": \"tracetab-sample.pt.trace.json\"\n}\n"...)
	g.w.Write(b)
}
