// Command tracegen writes a synthetic PyTorch profiler trace shaped like the
// blog's matmul_add on a GPU, for tracetab's sample, tests and benchmarks.
//
//	tracegen -steps 4 -o testdata/sample.pt.trace.json
//	tracegen -size 1GB -layers 8 -o .cache/bench-1g.json
//	tracegen -size 512MB -layers 8 -kineto -o /work/cache/bench-kineto-512m.json
//	tracegen -size 512MB -layers 8 -shape export -o .cache/bench-export-512m.json
//	tracegen -size 100MB -layers 8 -modules -o /tmp/modules.json
//	tracegen -world 4 -rank 2 -straggler 2 -straggler-delay 3ms -o rank2.json
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/units"
)

func main() {
	steps := flag.Int("steps", 4, "profiler steps")
	layers := flag.Int("layers", 0, "extra linear layers per step (training-like body on two threads and two streams)")
	size := flag.String("size", "", "keep adding steps until the file reaches this size (e.g. 200MB, 1GB)")
	out := flag.String("o", "-", "output file (- for stdout)")
	variant := flag.String("variant", "", "matmul_add body: eager (default), bmm, compiled or triton (compiled with an Inductor kernel)")
	seed := flag.Uint64("seed", 0, "random seed for -jitter")
	jitter := flag.Float64("jitter", 0, "scale each device op's and launch call's duration by a random factor within +-F (0 to 0.2)")
	var slows []gen.Slow
	flag.Func("slow", "PATTERN:FACTOR: device ops whose name matches take FACTOR times as long (repeatable), e.g. gemm:1.3", func(s string) error {
		sl, err := gen.ParseSlow(s)
		slows = append(slows, sl)
		return err
	})
	scenario := flag.String("scenario", "", "a stall in every step: "+strings.Join(gen.Scenarios, ", "))
	rank := flag.Int("rank", 0, "with -world: the rank this trace is of (distributedInfo)")
	world := flag.Int("world", 0, "write one rank of a job of this many ranks: distributedInfo and an all-reduce per step that ends together on every rank")
	straggler := flag.Int("straggler", 0, "with -straggler-delay: the rank that arrives late at every all-reduce")
	delay := flag.String("straggler-delay", "", "how much later the straggler launches each all-reduce (e.g. 3ms)")
	pgSeq := flag.Bool("pg-seq", false, "with -world: write Process Group Name and Seq on the all-reduce kernels")
	roofline := flag.Bool("roofline", false, "end every step with ops of known FLOPs (conv, causal attention, linear, layer norm) with Concrete Inputs")
	gpuBound := flag.Bool("gpu-bound", false, "device ops take 20 times longer and every step ends in a cudaDeviceSynchronize that waits for its device work: the device time sets the step time (a slower kernel makes a slower step)")
	start := flag.String("start", "", "the trace's wall-clock start (baseTimeNanoseconds) as RFC 3339, e.g. 2026-12-01T02:00:00Z (default 2026-10-01T11:37:06Z)")
	warm := flag.Bool("warm", false, "no cold first step (no 2.5 ms GPU lag, no dead window): a trace profiled after warm-up")
	var mem gen.Memory
	flag.IntVar(&mem.AllocsPerOp, "mem-allocs", 0, "[memory] events: allocations on cuda:0 per cpu_op, freed before the op ends")
	memLeak := flag.String("mem-leak", "", "[memory] events: each step leaks this many bytes on cuda:0 in aten::empty (e.g. 1MiB, 4096)")
	flag.IntVar(&mem.PreTrace, "mem-pretrace", 0, "[memory] events: frees of 1 MiB blocks allocated before the trace began")
	flag.BoolVar(&mem.CPU, "mem-cpu", false, "[memory] events: CPU allocations too (one per main-thread op, one per step on a thread without ops)")
	flag.BoolVar(&mem.Reuse, "mem-reuse", false, "[memory] events: freed addresses are handed out again (else every allocation has a new address)")
	capture := flag.Int("capture", 0, "capture a CUDA graph of this many kernel launches before the first step (cudaStreamBeginCapture ... EndCapture) and replay it in every step")
	recompileAt := flag.Int("recompile-at", 0, "with -variant compiled or triton: the compiled region recompiles (Torch-Compiled Region: 0/1) from ProfilerStep#N on")
	beforeStep := flag.Bool("straggler-before-step", false, "with -straggler-delay: the straggler spends its delay before each ProfilerStep#N begins (it enters the step late)")
	critCase := flag.String("critpath", "", "write instead a small trace with a known critical path: "+strings.Join(gen.CritCases, ", "))
	kineto := flag.Bool("kineto", false, "the style export_chrome_trace writes with record_shapes and profile_memory on a 4-GPU node: -export -full-shapes -memory -devices 4")
	shape := flag.String("shape", "", "a benchmark shape: kineto (as -kineto) or export (the Kineto style on one A100, every CPU op tree 3 to 6 deep: -export -full-shapes -memory -deep)")
	var k gen.Kineto
	flag.BoolVar(&k.Deep, "deep", false, "nest aten::to > aten::_to_copy > aten::empty_strided under every cpu_op with inputs")
	flag.BoolVar(&k.Export, "export", false, "absolute epoch microsecond timestamps with three decimals, every event laid out as Kineto writes it")
	flag.BoolVar(&k.Shapes, "full-shapes", false, "record_shapes args as torch writes them (Concrete Inputs, Input type, Input Strides, Input Dims), aten::as_strided nested in aten::transpose")
	flag.BoolVar(&k.Memory, "memory", false, "[memory] records: ops that make a tensor allocate it, the oldest live one is freed")
	flag.IntVar(&k.Devices, "devices", 0, "list this many H100s in deviceProperties (0: one A100)")
	var su gen.Startup
	durFlag(&su.FirstLaunchNs, "first-launch", "the first step starts with a launch call this long (lazy module loading), e.g. 1s")
	durFlag(&su.FreeNs, "startup-free", "the first step has a cudaFree this long (context set-up), e.g. 8s")
	durFlag(&su.CreateNs, "startup-create", "the first step has stream and event creation this long, e.g. 1.4s")
	durFlag(&su.BlockingNs, "blocking-launch", "the second step has a launch call that blocks this long while the GPU runs dry, e.g. 20ms")
	durFlag(&su.EventWaitNs, "event-wait", "the second step has a kernel waiting this long on an event no traced stream records, e.g. 50ms")
	flag.BoolVar(&su.OverlapPython, "overlap-python", false, "every step has Python frames that outlast their parent")
	modules := flag.Bool("modules", false, "wrap each step's forward ops in an nn.Module tree (python_function frames \"nn.Module: Model_0\" > MatmulAdd_0, Linear_N, ReLU_N), as with_modules=True writes them")
	flag.Parse()
	if *critCase != "" {
		writeCritCase(*critCase, *out)
		return
	}
	v := *variant
	if v == "eager" {
		v = ""
	}
	if v != "" && v != "bmm" && v != "compiled" && v != "triton" {
		fmt.Fprintln(os.Stderr, "tracegen: -variant is eager, bmm, compiled or triton")
		os.Exit(2)
	}
	cfg := gen.Config{Steps: *steps, Layers: *layers, Variant: v, Noise: gen.Noise{Seed: *seed, Jitter: *jitter, Slow: slows}}
	if err := cfg.Noise.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(2)
	}
	if !gen.ValidScenario(*scenario) {
		fmt.Fprintln(os.Stderr, "tracegen: -scenario is one of "+strings.Join(gen.Scenarios, ", "))
		os.Exit(2)
	}
	cfg.Scenario = *scenario
	cfg.Warm = *warm
	cfg.GPUBound = *gpuBound
	if *start != "" {
		ts, err := time.Parse(time.RFC3339Nano, *start)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracegen: -start: want RFC 3339, e.g. 2026-12-01T02:00:00Z:", err)
			os.Exit(2)
		}
		cfg.BaseTimeNs = ts.UnixNano()
	}
	if *memLeak != "" {
		n, err := parseBytes(*memLeak)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracegen: -mem-leak:", err)
			os.Exit(2)
		}
		mem.LeakBytes = n
	}
	if err := mem.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(2)
	}
	cfg.Memory = mem
	switch *shape {
	case "":
	case "kineto":
		*kineto = true
	case "export":
		k = gen.ExportStyle()
	default:
		fmt.Fprintln(os.Stderr, "tracegen: -shape is kineto or export")
		os.Exit(2)
	}
	if *kineto {
		k = gen.KinetoStyle()
	}
	if err := k.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(2)
	}
	cfg.Kineto = k
	cfg.Startup = su
	cfg.Rank, cfg.World, cfg.Straggler, cfg.PGSeq = *rank, *world, *straggler, *pgSeq
	cfg.Roofline = *roofline
	cfg.Modules = *modules
	cfg.StragglerBeforeStep = *beforeStep
	cfg.Capture, cfg.RecompileAt = *capture, *recompileAt
	if cfg.Capture < 0 || cfg.RecompileAt < 0 {
		fmt.Fprintln(os.Stderr, "tracegen: -capture and -recompile-at must not be negative")
		os.Exit(2)
	}
	if *delay != "" {
		ns, err := units.ParseDur(*delay)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracegen: -straggler-delay:", err)
			os.Exit(2)
		}
		cfg.StragglerDelay = ns
	}
	if err := cfg.ValidateRank(); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(2)
	}
	if *size != "" {
		n, err := parseSize(*size)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracegen:", err)
			os.Exit(2)
		}
		cfg.TargetBytes = n
	}
	w := os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracegen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	var dst io.Writer = w
	var zw *gzip.Writer
	if strings.HasSuffix(*out, ".gz") { // a .json.gz name gets gzip, as torch's handler writes it
		zw = gzip.NewWriter(w)
		dst = zw
	}
	bw := bufio.NewWriter(dst)
	facts, err := gen.Write(bw, cfg)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "tracegen: %d bytes, %d steps, %d kernels, %d launch calls\n", facts.Bytes, facts.Steps, facts.Kernels, facts.LaunchCalls)
}

func parseSize(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3}} {
		if strings.HasSuffix(u, suf.s) {
			mult = suf.m
			u = strings.TrimSuffix(u, suf.s)
			break
		}
	}
	f, err := strconv.ParseFloat(u, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("bad -size %q: use e.g. 200MB or 1GB", s)
	}
	return int64(f * float64(mult)), nil
}

// parseBytes reads a size in bytes: 4096, 512KiB, 1MiB, 1MB, 2GiB.
func parseBytes(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}} {
		if x, ok := strings.CutSuffix(u, suf.s); ok {
			mult, u = suf.m, strings.TrimSpace(x)
			break
		}
	}
	n, err := strconv.ParseInt(u, 10, 64)
	if err != nil || n < 0 || n > (1<<50)/mult {
		return 0, fmt.Errorf("bad size %q: use e.g. 4096, 512KiB or 1MiB", s)
	}
	return n * mult, nil
}

// writeCritCase writes one of gen.CritCases and prints its known path.
func writeCritCase(name, out string) {
	if !gen.ValidCritCase(name) {
		fmt.Fprintln(os.Stderr, "tracegen: -critpath is one of "+strings.Join(gen.CritCases, ", "))
		os.Exit(2)
	}
	w := os.Stdout
	if out != "-" {
		f, err := os.Create(out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracegen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	facts, err := gen.WriteCritCase(w, name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "tracegen: critical path %s over %d events: %s\n", units.Dur(facts.PathNs), len(facts.PathEvents), strings.Join(facts.PathEvents, " > "))
}

// durFlag registers a duration flag (units required) writing ns to p.
func durFlag(p *int64, name, usage string) {
	flag.Func(name, usage, func(s string) error {
		ns, err := units.ParseDur(s)
		if err == nil && ns < 0 {
			err = fmt.Errorf("must not be negative")
		}
		*p = ns
		return err
	})
}
