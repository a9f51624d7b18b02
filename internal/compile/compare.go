package compile

import (
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// StepStats is what one profiler step (or the whole trace, when it has no
// steps) of one side holds. Device work belongs to the step of its launch
// call.
type StepStats struct {
	Step           int64
	HasStep        bool // false: the whole trace as one window
	CPUNs          int64
	GPUBusyNs      int64
	GPUIdleNs      int64 // the device work's first start to last end, minus busy
	Kernels        int
	LaunchCalls    int // runtime and driver calls that launched device work
	RuntimeCalls   int // every runtime and driver call
	Memcpys        int
	MedianKernelNs int64
}

// Metric is one row of the side-by-side comparison.
type Metric struct {
	Name     string
	IsTime   bool
	Eager    int64
	Compiled int64
	Ratio    *float64 // compiled / eager, rounded to 2 decimals; nil when eager is 0 or unmeasured
	Measured bool     // false: a side has no device work, so a GPU time means nothing
}

// Gone is an eager op or kernel with no counterpart in the compiled trace.
type Gone struct {
	Name    string
	Kind    string // "op" or "kernel"
	Count   int    // in the compared steps
	TotalNs int64  // its CPU (op) or GPU (kernel) time there
}

// EagerOp is an eager op whose name an Inductor kernel carries.
type EagerOp struct {
	Name     string
	Calls    int
	KernelNs int64    // GPU time of the kernels it launched
	Kernels  []string // their names
}

// Fusion is one Inductor kernel of the compiled trace and the eager ops it
// stands for.
type Fusion struct {
	Kernel   string
	Ops      []string // decoded from the name
	Count    int
	TotalNs  int64
	EagerOps []EagerOp // eager ops named aten::<op> for each op found in the eager trace
	Missing  []string  // ops with no eager op of that name
}

// Stayed is a non-Inductor kernel both traces run.
type Stayed struct {
	Name                            string
	Family                          string // gemm, attention, ... or "" (other)
	EagerCount, CompiledCount       int
	EagerTotalNs, CompiledTotalNs   int64
	EagerMedianNs, CompiledMedianNs int64
}

// Comparison is eager against compiled.
type Comparison struct {
	EagerSteps, CompiledSteps []StepStats // the compared steps of each side
	Paired                    []int64     // step numbers present on both sides (compared pairwise)
	EagerOnly, CompiledOnly   []int64     // steps present on one side only
	Median                    [2]StepStats
	Metrics                   []Metric // on the median step
	Disappeared               []Gone
	Fused                     []Fusion
	Stayed                    []Stayed // compute kernels both traces run
	Comm                      []Stayed // communication kernels both traces run (not compute: their own list)
	// Headline is the kept library kernel the closing sentence names: of
	// the GEMM library kernels (not a split-K reduction, epilogue or
	// matrix-vector helper) the one with the largest eager time, else the
	// attention, then the convolution kernel.
	Headline         *Stayed
	NoGPU            [2]bool     // eager, compiled: no kernel, memcpy or memset at all
	Devices          [2][]string // GPU names from deviceProperties, sorted and distinct
	EagerCompiled    bool        // the eager trace shows torch.compile activity
	CompiledCompiled bool        // the compiled trace does
}

func ratio(e, c int64) *float64 {
	if e == 0 {
		return nil
	}
	r := math.Round(float64(c)/float64(e)*100) / 100
	return &r
}

// windows are the step windows to compare, or the whole trace as one.
func windows(t *trace.Trace) []trace.Step {
	if w := t.StepWindows(); len(w) > 0 {
		return w
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		lo, hi = min(lo, e.Start), max(hi, e.End())
	}
	if lo > hi {
		lo, hi = 0, 0
	}
	return []trace.Step{{N: -1, Start: lo, End: hi + 1}}
}

// stepStats measures each window; keep selects windows by index.
func stepStats(t *trace.Trace, ws []trace.Step, hasSteps bool) []StepStats {
	l := t.Links()
	out := make([]StepStats, len(ws))
	durs := make([][]int64, len(ws))
	var work []trace.DeviceWork
	devs := map[int]bool{}
	for k, w := range ws {
		out[k] = StepStats{Step: w.N, HasStep: hasSteps, CPUNs: w.End - w.Start}
		if !hasSteps {
			out[k].CPUNs = w.End - 1 - w.Start
		}
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		switch {
		case e.Kind.IsLaunch():
			k := trace.StepAt(ws, e.Start)
			if k < 0 {
				continue
			}
			out[k].RuntimeCalls++
			if l.Launched[i] > 0 {
				out[k].LaunchCalls++
			}
		case e.Kind.IsDeviceWork():
			k := trace.StepAt(ws, t.LaunchTime(i))
			d := t.Tracks[e.Track].Device
			devs[d] = true
			if !hasSteps {
				k = 0 // the one window: the device work's own (below)
			}
			work = append(work, trace.DeviceWork{Start: e.Start, End: e.End(), Device: int32(d), Step: int32(k)})
			if k < 0 {
				continue
			}
			switch e.Kind {
			case trace.KindKernel:
				out[k].Kernels++
				durs[k] = append(durs[k], e.Dur)
			case trace.KindMemcpy:
				out[k].Memcpys++
			}
		}
	}
	// GPU busy and idle by the one definition (trace.FillGPU): the steps'
	// GPU windows, or without steps the device work's first start to last
	// end
	gw := slices.Clone(ws)
	if !hasSteps {
		lo := int64(math.MaxInt64)
		for _, w := range work {
			lo = min(lo, w.Start)
		}
		if len(work) == 0 {
			lo = 0
		}
		gw = []trace.Step{{N: -1, Start: lo, End: lo}}
	}
	trace.FillGPU(gw, work, len(devs))
	for k := range out {
		out[k].GPUBusyNs, out[k].GPUIdleNs = gw[k].GPUBusyNs, gw[k].GPUIdleNs
		out[k].MedianKernelNs = median(durs[k])
	}
	return out
}

func medianStats(ss []StepStats) StepStats {
	m := StepStats{Step: -1}
	if len(ss) == 0 {
		return m
	}
	m.HasStep = ss[0].HasStep
	pick := func(f func(StepStats) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		return median(v)
	}
	m.CPUNs = pick(func(s StepStats) int64 { return s.CPUNs })
	m.GPUBusyNs = pick(func(s StepStats) int64 { return s.GPUBusyNs })
	m.GPUIdleNs = pick(func(s StepStats) int64 { return s.GPUIdleNs })
	m.Kernels = int(pick(func(s StepStats) int64 { return int64(s.Kernels) }))
	m.LaunchCalls = int(pick(func(s StepStats) int64 { return int64(s.LaunchCalls) }))
	m.RuntimeCalls = int(pick(func(s StepStats) int64 { return int64(s.RuntimeCalls) }))
	m.Memcpys = int(pick(func(s StepStats) int64 { return int64(s.Memcpys) }))
	m.MedianKernelNs = pick(func(s StepStats) int64 { return s.MedianKernelNs })
	return m
}

// side is one trace restricted to the compared windows.
type side struct {
	t      *trace.Trace
	ws     []trace.Step
	opN    map[string]int
	opNs   map[string]int64
	kerN   map[string]int
	kerNs  map[string]int64
	kerDur map[string][]int64
	kerOp  map[string]map[string]int // per kernel name: the ops that launched it
	// per eager op name: kernels launched below it
	below   map[string]map[string]bool
	belowNs map[string]int64
}

func newSide(t *trace.Trace, ws []trace.Step) *side {
	s := &side{t: t, ws: ws, opN: map[string]int{}, opNs: map[string]int64{}, kerN: map[string]int{}, kerNs: map[string]int64{},
		kerDur: map[string][]int64{}, kerOp: map[string]map[string]int{}, below: map[string]map[string]bool{}, belowNs: map[string]int64{}}
	l := t.Links()
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		switch {
		case e.Kind == trace.KindCPUOp:
			if trace.StepAt(ws, e.Start) < 0 {
				continue
			}
			n := t.Str(e.Name)
			s.opN[n]++
			s.opNs[n] += e.Dur
		case e.Kind == trace.KindKernel:
			if trace.StepAt(ws, t.LaunchTime(i)) < 0 {
				continue
			}
			n := t.Str(e.Name)
			s.kerN[n]++
			s.kerNs[n] += e.Dur
			s.kerDur[n] = append(s.kerDur[n], e.Dur)
			if r := l.Launch[i]; r >= 0 {
				if o := l.Launch[r]; o >= 0 {
					if s.kerOp[n] == nil {
						s.kerOp[n] = map[string]int{}
					}
					s.kerOp[n][t.NameOf(int(o))]++
				}
				seen := map[string]bool{}
				for p := l.Parent[r]; p >= 0; p = l.Parent[p] {
					pe := t.Ev(int(p))
					if pe.Kind != trace.KindCPUOp {
						continue
					}
					on := t.Str(pe.Name)
					if seen[on] {
						continue
					}
					seen[on] = true
					if s.below[on] == nil {
						s.below[on] = map[string]bool{}
					}
					s.below[on][n] = true
					s.belowNs[on] += e.Dur
				}
			}
		}
	}
	return s
}

func deviceNames(t *trace.Trace) []string {
	var n []string
	for _, d := range t.Devices {
		if d.Name != "" && !slices.Contains(n, d.Name) {
			n = append(n, d.Name)
		}
	}
	slices.Sort(n)
	return n
}

// Compare sets an eager trace against a compiled one.
func Compare(eager, compiled *trace.Trace) *Comparison {
	c := &Comparison{}
	ew, cw := windows(eager), windows(compiled)
	eSteps, cSteps := len(eager.StepWindows()) > 0, len(compiled.StepWindows()) > 0
	if eSteps && cSteps {
		c.Paired, c.EagerOnly, c.CompiledOnly = pairSteps(ew, cw)
		if len(c.Paired) > 0 {
			ew, cw = keepSteps(ew, c.Paired), keepSteps(cw, c.Paired)
		}
	}
	c.EagerSteps = stepStats(eager, ew, eSteps)
	c.CompiledSteps = stepStats(compiled, cw, cSteps)
	e, k := medianStats(c.EagerSteps), medianStats(c.CompiledSteps)
	c.Median = [2]StepStats{e, k}
	c.NoGPU = [2]bool{!eager.HasDeviceWork(), !compiled.HasDeviceWork()}
	c.Metrics = medianMetrics(e, k, !c.NoGPU[0] && !c.NoGPU[1])
	es, cs := newSide(eager, ew), newSide(compiled, cw)
	c.Disappeared = disappeared(es, cs)
	c.Stayed, c.Comm, c.Fused = compiledKernels(es, cs)
	c.Headline = headline(c.Stayed)
	c.Devices = [2][]string{deviceNames(eager), deviceNames(compiled)}
	c.EagerCompiled = Summarize(eager).HasCompile
	c.CompiledCompiled = Summarize(compiled).HasCompile
	return c
}

// pairSteps splits the step numbers: those on both sides (in the compiled
// side's order), on the eager side only, on the compiled side only.
func pairSteps(ew, cw []trace.Step) (paired, eagerOnly, compiledOnly []int64) {
	eNums := map[int64]bool{}
	for _, w := range ew {
		eNums[w.N] = true
	}
	cNums := map[int64]bool{}
	for _, w := range cw {
		cNums[w.N] = true
		if eNums[w.N] {
			paired = append(paired, w.N)
		} else {
			compiledOnly = append(compiledOnly, w.N)
		}
	}
	for _, w := range ew {
		if !cNums[w.N] {
			eagerOnly = append(eagerOnly, w.N)
		}
	}
	return paired, eagerOnly, compiledOnly
}

// keepSteps keeps the windows whose step is one of nums (in place).
func keepSteps(ws []trace.Step, nums []int64) []trace.Step {
	return slices.DeleteFunc(ws, func(s trace.Step) bool { return !slices.Contains(nums, s.N) })
}

// medianMetrics are the rows of the median step, eager beside compiled.
// GPU times are measured only when both sides have device work (gpu), the
// median kernel only when both sides also have a kernel in it; an
// unmeasured row has no ratio.
func medianMetrics(e, k StepStats, gpu bool) []Metric {
	var out []Metric
	add := func(name string, isTime bool, a, b int64, measured bool) {
		m := Metric{Name: name, IsTime: isTime, Eager: a, Compiled: b, Measured: measured}
		if measured {
			m.Ratio = ratio(a, b)
		}
		out = append(out, m)
	}
	add("CPU time", true, e.CPUNs, k.CPUNs, true)
	add("GPU busy", true, e.GPUBusyNs, k.GPUBusyNs, gpu)
	add("GPU idle", true, e.GPUIdleNs, k.GPUIdleNs, gpu)
	add("kernels", false, int64(e.Kernels), int64(k.Kernels), true)
	add("launch calls", false, int64(e.LaunchCalls), int64(k.LaunchCalls), true)
	add("runtime calls", false, int64(e.RuntimeCalls), int64(k.RuntimeCalls), true)
	add("median kernel", true, e.MedianKernelNs, k.MedianKernelNs, gpu && e.Kernels > 0 && k.Kernels > 0)
	add("memcpys", false, int64(e.Memcpys), int64(k.Memcpys), true)
	return out
}
