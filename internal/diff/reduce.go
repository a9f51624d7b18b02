package diff

import (
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Options choose the rows and the samples.
type Options struct {
	By           string // op, kernel, step or module
	GroupByShape bool
	// Torch is the table() version of the op rows; zero means each
	// trace's recording torch, judged from its era (as table does).
	Torch table.Version
	// Normalize: one sample per profiler step (of the work inside the
	// step windows, device ops by the step of their launch call) and a row
	// for the work outside the steps; otherwise one sample per trace of the
	// whole trace.
	Normalize bool
	KeyOp     bool // --by kernel: device rows keyed by the op that launched them
	// Roofline adds the ModelMetrics samples to the op rows (roofline.go).
	Roofline bool

	// Reuse is what the caller has already computed of the one trace it
	// reduces (reuse.go); nil: nothing.
	Reuse *Reuse
}

// TraceInfo is what a side knows of one of its traces.
type TraceInfo struct {
	File  string
	Steps []int64 // the trace's ProfilerStep numbers, in time order
	Env   Env
}

// Row is one keyed row with its samples: one per step (or per trace), in
// nanoseconds, counts or bytes.
type Row struct {
	Key     string
	Label   string // --by step: the trace's own step number
	Device  bool   // a device op row
	Samples map[string][]float64
	Kernels []string // --key op: the device ops behind the row
	Parent  string   // --by module: the parent module's path ("" at the top)
}

// OutsideKey is the row of the work outside the profiler steps.
const OutsideKey = "(outside steps)"

// Side is the traces of one side reduced to rows and totals.
type Side struct {
	Traces  []TraceInfo
	PerStep bool
	By      string
	Rows    []Row
	Outside *Row // work outside the steps, one sample per trace; nil unless PerStep
	Totals  map[string][]float64
	// Missing maps metrics the side cannot measure ("self_cuda",
	// "total.step_time") to the reason.
	Missing map[string]string
	// StepsPerSample is the largest number of steps behind one row sample
	// (1 unless a trace has more than MaxSamplesPerTrace steps).
	StepsPerSample int
	nb             int
}

// Samples is the number of samples per row: steps (or groups of steps),
// or traces.
func (s *Side) Samples() int { return s.nb }

// MaxSamplesPerTrace bounds the op tables computed per trace: a trace with
// more steps has its row samples taken over groups of consecutive steps,
// each divided by its number of steps (the time stays linear in the size).
const MaxSamplesPerTrace = 24

// additive metric values of one row in one bucket (a step or a trace)
type vals [7]float64

const (
	iSelfCuda = iota
	iCudaTotal
	iSelfCPU
	iCPUTotal
	iCount
	iSelfCPUMem
	iSelfCudaMem
)

var addNames = [7]string{"self_cuda", "cuda_total", "self_cpu", "cpu_total", "count", "self_cpu_mem", "self_cuda_mem"}

type racc struct {
	device  bool
	label   string
	parent  string
	b       map[int]*vals
	kernels map[string]bool
}

type acc struct {
	order []string
	rows  map[string]*racc
	nb    int     // buckets so far
	peak  peakAcc // Options.Roofline: pct_peak per row and bucket
}

func (a *acc) add(key string, device bool, bucket int, v vals) *racc {
	r := a.rows[key]
	if r == nil {
		r = &racc{device: device, b: map[int]*vals{}}
		a.rows[key] = r
		a.order = append(a.order, key)
	}
	x := r.b[bucket]
	if x == nil {
		x = &vals{}
		r.b[bucket] = x
	}
	for k := range v {
		x[k] += v[k]
	}
	return r
}

func ns(us float64) float64 { return math.Round(us * 1000) }

func rowVals(r *table.Row) vals {
	return vals{ns(r.SelfDev), ns(r.DevTotal), ns(r.SelfCPU), ns(r.CPUTotal), float64(r.Count), float64(r.SelfCPUMem), float64(r.SelfDevMem)}
}

func opKey(r *table.Row, shape bool) string {
	key := r.Name
	if r.Device {
		key = "[device] " + key
	}
	if shape {
		key += " " + r.Shapes
	}
	return key
}

// Reduce computes one side from its traces (files[k] names traces[k]).
func Reduce(traces []*trace.Trace, files []string, o Options) (*Side, error) {
	s := &Side{PerStep: o.Normalize, By: o.By, Totals: map[string][]float64{}, Missing: map[string]string{}, StepsPerSample: 1}
	a := &acc{rows: map[string]*racc{}}
	if len(traces) != 1 {
		o.Reuse = nil // the analyses of one trace
	}
	var outside []vals
	for k, t := range traces {
		ov, err := reduceOne(s, a, t, files[k], o)
		if err != nil {
			return nil, err
		}
		outside = append(outside, ov)
	}
	s.nb = a.nb
	for _, key := range a.order {
		r := a.rows[key]
		row := Row{Key: key, Label: r.label, Device: r.device, Parent: r.parent, Samples: samplesOf(r.b, a.nb)}
		if o.Roofline {
			row.Samples["pct_peak"] = a.peakSamples(key, a.nb)
		}
		for kn := range r.kernels {
			row.Kernels = append(row.Kernels, kn)
		}
		slices.Sort(row.Kernels)
		s.Rows = append(s.Rows, row)
	}
	if s.PerStep && o.By != "step" {
		b := map[int]*vals{}
		for k := range outside {
			b[k] = &outside[k]
		}
		s.Outside = &Row{Key: OutsideKey, Samples: samplesOf(b, len(outside))}
		for _, m := range []string{"avg", "cuda_avg", "self_cuda_per_call", "self_cpu_per_call"} {
			s.Outside.Samples[m] = nil
		}
	}
	return s, nil
}

// samplesOf turns buckets into samples: additive metrics have one per
// bucket (0 where the row did not run), per-call metrics one per bucket in
// which it ran.
func samplesOf(b map[int]*vals, nb int) map[string][]float64 {
	out := map[string][]float64{}
	for i, m := range addNames {
		xs := make([]float64, nb)
		for k, v := range b {
			xs[k] = v[i]
		}
		out[m] = xs
	}
	for k := 0; k < nb; k++ {
		v := b[k]
		if v == nil || v[iCount] == 0 {
			continue
		}
		n := v[iCount]
		out["avg"] = append(out["avg"], math.Round(v[iCPUTotal]/n))
		out["cuda_avg"] = append(out["cuda_avg"], math.Round(v[iCudaTotal]/n))
		out["self_cuda_per_call"] = append(out["self_cuda_per_call"], math.Round(v[iSelfCuda]/n))
		out["self_cpu_per_call"] = append(out["self_cpu_per_call"], math.Round(v[iSelfCPU]/n))
	}
	return out
}

// reduceOne adds one trace's buckets; it returns the trace's work outside
// the steps.
func reduceOne(s *Side, a *acc, t *trace.Trace, file string, o Options) (vals, error) {
	steps := t.Steps(nil)
	info := TraceInfo{File: file, Env: EnvOf(t)}
	for _, st := range steps {
		info.Steps = append(info.Steps, st.N)
	}
	s.Traces = append(s.Traces, info)
	miss := func(n need, metrics func(string) need, prefix string, list []string) {
		for _, m := range list {
			if metrics(m) == n {
				if _, ok := s.Missing[prefix+m]; !ok {
					s.Missing[prefix+m] = file + ": " + needReason[n]
				}
			}
		}
	}
	for n, lacks := range map[need]bool{needSteps: len(steps) == 0, needDevice: !t.HasDeviceWork(), needMemory: len(t.Mem) == 0} {
		if lacks {
			miss(n, rowNeeds, "", RowMetrics)
			miss(n, totalNeeds, "total.", TotalMetrics)
		}
	}
	perStep := o.Normalize && len(steps) > 0
	topt := table.Options{Torch: o.Torch, GroupByShape: o.GroupByShape}
	all, err := o.Reuse.table(t, topt)
	if err != nil {
		return vals{}, err
	}
	groups, per, err := stepTables(s, t, topt, steps, perStep)
	if err != nil {
		return vals{}, err
	}
	base := a.nb
	nb := 1
	if perStep {
		nb = len(groups) // op and kernel rows alike: one sample per step, or per group of steps in a long trace
	}
	a.nb += nb

	// rows
	if o.Roofline && o.By != "op" {
		s.Missing["pct_peak"] = "pct_peak is a metric of op rows: use --by op"
	}
	if o.Roofline && o.By == "op" {
		addPeakSamples(s, a, t, file, o, steps, groups, base)
	}
	var outside vals
	switch o.By {
	case "module":
		for _, m := range []string{"self_cpu_mem", "self_cuda_mem"} {
			s.Missing[m] = ModuleMemoryReason
		}
		var g [][2]int
		if perStep {
			g = groups
		}
		outside = addModules(a, t, steps, g, base)
	case "step":
		addStepRows(a, steps, base)
	case "kernel":
		outside = addKernelRows(a, t, o.KeyOp, steps, groups, base)
	default:
		outside = addOpRows(a, all, per, groups, o.GroupByShape, base)
	}
	outside[iCPUTotal], outside[iCudaTotal] = outside[iSelfCPU], outside[iSelfCuda]
	addTotals(s, t, all, per, groups, steps, o.Reuse.gaps(t))
	return outside, nil
}

// pct2 is a*100/b rounded to 2 decimals, as every *_pct field is.
func pct2(a, b int64) float64 { return math.Round(float64(a)*1e4/float64(b)) / 100 }

// groupSteps cuts the steps into at most n runs of consecutive steps (one
// step each when there are at most n) whose step numbers increase, so a run
// is a StepLo..StepHi range.
func groupSteps(steps []trace.Step, n int) [][2]int {
	var g [][2]int
	increasing := true
	for k := 1; k < len(steps); k++ {
		increasing = increasing && steps[k].N > steps[k-1].N
	}
	size := 1
	if increasing && len(steps) > n {
		size = (len(steps) + n - 1) / n
	}
	for lo := 0; lo < len(steps); lo += size {
		g = append(g, [2]int{lo, min(lo+size, len(steps)) - 1})
	}
	return g
}

// launcherName is the op that launched device op i: the innermost cpu_op
// around its launch call, else the launch call, else "(no launch call)".
func launcherName(t *trace.Trace, l *trace.Links, i int) string {
	r := l.Launch[i]
	if r < 0 {
		return "(no launch call) " + t.NameOf(i)
	}
	if op := l.Launch[r]; op >= 0 {
		return t.NameOf(int(op))
	}
	return t.NameOf(int(r))
}

func itoa(n int) string { return itoa64(int64(n)) }

func itoa64(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
