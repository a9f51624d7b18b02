// Package trend follows a series of traces of the same workload (a nightly
// run, one trace per night) metric by metric and finds where each metric
// changed level, by E-divisive means (internal/changepoint).
//
// Each trace is reduced to a Run: a few numbers by the definitions the
// other commands use, none of them defined here:
//
//	step_time           the median ProfilerStep#N CPU time (diff's total.step_time of one trace)
//	gpu_idle_pct        GPU idle over the steps each extended to the end of the device work it
//	                    launched, as a share (gaps' verdict, diff's total.gpu_idle_pct)
//	exposed_comm        communication kernels not overlapped by compute, over the same window
//	                    (ranks' exposed communication); only in traces with communication kernels
//	peak_allocated:DEV  the device's peak Total Allocated (memory's peak, check's peak_allocated);
//	                    only in traces with [memory] records
//	op:NAME             an op's self device time over the trace (diff's self_cuda of the op row,
//	                    by the recording torch's table() rules)
//	kernel:NAME         a device op's (kernel, memcpy, memset) device time over the trace (diff's
//	                    self_cuda of the [device] row)
//
// op and kernel metrics are the Top ones by their mean over the series (a
// run in which the op or kernel did not run counts 0 for it).
//
// Runs are comparable when they ran on the same GPU models and number of
// devices, at the same place in a distributed job (world size, rank), were
// written by the same exporter era (a proxy for the torch version) and have
// the same number of profiler steps (diff's environment fields). The series
// is the runs comparable with the newest run; the others are left out, each
// with the first way it differs, never mixed in.
//
// This package prints nothing and decides no exit code.
package trend

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/changepoint"
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// Units of metric values.
const (
	UnitNs    = "ns"
	UnitPct   = "pct"
	UnitBytes = "bytes"
)

// Run is one trace reduced to its metric values.
type Run struct {
	Path    string // as given
	StartNs int64  // the trace's wall-clock start (Unix ns); 0 when HasClock is false
	// HasClock: the trace's times are on the wall clock (baseTimeNanoseconds,
	// or Kineto's epoch timestamps).
	HasClock bool
	Env      diff.Env
	Values   map[string]float64 // metric name -> value, in its unit
	Units    map[string]string  // metric name -> unit
	Steps    int
}

// summarize reduces t (read from path, as given) to a Run. The trace must
// have been read with its [memory] records for the peak. The totals and
// the op and kernel values are diff's totals-only reduction
// (diff.ReduceTotals): what diff.Reduce gives for the trace alone, without
// the per-step tables and the gaps report it would build and trend drop.
// u: see Reuse.
func summarize(t *trace.Trace, path string, u *Reuse) (*Run, error) {
	r := &Run{Path: path, Env: diff.EnvOf(t), Values: map[string]float64{}, Units: map[string]string{}}
	r.StartNs, r.HasClock = t.WallClock()
	set := func(name, unit string, v float64) { r.Values[name], r.Units[name] = v, unit }
	tot, err := diff.ReduceTotals(t, u.diff())
	if err != nil {
		return nil, err
	}
	if tot.HasStepTime {
		set(StepTime, UnitNs, tot.StepTimeNs)
	}
	if tot.HasGPUIdlePct {
		set(GPUIdlePct, UnitPct, tot.GPUIdlePct)
	}
	r.Steps = tot.Steps
	for _, row := range tot.Rows {
		if row.Device {
			set(KernelPrefix+strings.TrimPrefix(row.Key, "[device] "), UnitNs, row.SelfCuda)
		} else if row.SelfCuda > 0 {
			set(OpPrefix+row.Key, UnitNs, row.SelfCuda)
		}
	}
	if s := u.ranks(t); s.CommKernels > 0 && s.HasGPU {
		set(ExposedComm, UnitNs, float64(s.ExposedCommNs))
	}
	if len(t.Mem) > 0 {
		for _, d := range memory.Build(t, memory.Options{}).Devices {
			if b, why := diff.MemoryValue(d, "peak_allocated"); why == "" {
				set(PeakAllocated+":"+d.Name, UnitBytes, float64(b))
			}
		}
	}
	return r, nil
}

// Metric names and prefixes.
const (
	StepTime      = "step_time"
	GPUIdlePct    = "gpu_idle_pct"
	ExposedComm   = "exposed_comm"
	PeakAllocated = "peak_allocated"
	OpPrefix      = "op:"
	KernelPrefix  = "kernel:"
)

// Options choose the metrics, the order and the method's parameters.
type Options struct {
	Top         int  // op and kernel metrics each (5)
	OrderByName bool // order the runs by path instead of by wall-clock start
	CP          changepoint.Options
}

// Result is the series and its metrics.
type Result struct {
	Runs     []*Run // the series, oldest first
	LeftOut  []LeftOut
	Metrics  []Metric
	Notes    []string
	Order    string // "time" or "name"
	Method   changepoint.Options
	Top      int
	TooShort bool // fewer than 2*MinSize runs: no change point can be found
}

// LeftOut is a run kept out of the series: it is not comparable with the
// newest run.
type LeftOut struct {
	Path   string
	Field  string // diff's mismatch field: gpu_model, devices, world_size, rank, era, steps
	Value  string // the run's value
	Series string // the series' value
}

// Metric is one metric's series and change points.
type Metric struct {
	Name   string
	Unit   string
	Values []float64 // one per run; NaN where the run cannot give it
	Points []Change
}

// Change is one change point of a metric.
type Change struct {
	Index  int    // the first run of the new level (0-based position in the series)
	Run    string // that run's path as given
	Before float64
	After  float64 // medians of the runs from the change point before (or the first run) to Index, and from Index to the next one (or the last run)
	// ChangePct is (After - Before) / Before in percent, rounded to 2
	// decimals; NaN when Before is 0.
	ChangePct float64
	PValue    float64
}

// comparable are the environment fields that make two runs' numbers comparable.
var comparable = []string{"gpu_model", "devices", "world_size", "rank", "era", "steps"}

// Analyze orders the runs, keeps those comparable with the newest, picks
// the metrics and finds their change points.
func Analyze(runs []*Run, o Options) (*Result, error) {
	if o.Top <= 0 {
		o.Top = 5
	}
	res := &Result{Order: "time", Top: o.Top}
	runs = slices.Clone(runs)
	if o.OrderByName {
		res.Order = "name"
		slices.SortStableFunc(runs, func(a, b *Run) int { return cmp.Compare(a.Path, b.Path) })
	} else {
		for _, r := range runs {
			if !r.HasClock {
				return nil, fmt.Errorf("%s has no wall-clock start (no baseTimeNanoseconds, times relative to the trace): order the runs by their names with --order name", r.Path)
			}
		}
		slices.SortStableFunc(runs, func(a, b *Run) int {
			return cmp.Or(cmp.Compare(a.StartNs, b.StartNs), cmp.Compare(a.Path, b.Path))
		})
	}
	if len(runs) == 0 {
		return res, nil
	}
	newest := runs[len(runs)-1]
	for _, r := range runs {
		if f, v, s, ok := differs(r, newest); ok {
			res.LeftOut = append(res.LeftOut, LeftOut{Path: r.Path, Field: f, Value: v, Series: s})
			continue
		}
		res.Runs = append(res.Runs, r)
	}
	res.Method = withDefaults(o.CP)
	res.TooShort = len(res.Runs) < 2*res.Method.MinSize
	res.Metrics = metricsOf(res.Runs, o.Top)
	allPoints(res.Metrics, res.Runs, res.Method)
	return res, nil
}

// withDefaults fills the method's parameters as changepoint does, so they
// can be reported.
func withDefaults(o changepoint.Options) changepoint.Options {
	if o.Alpha <= 0 {
		o.Alpha = changepoint.DefaultAlpha
	}
	if o.Permutations <= 0 {
		o.Permutations = changepoint.DefaultPermutations
	}
	switch {
	case o.MinSize == 0:
		o.MinSize = changepoint.DefaultMinSize
	case o.MinSize < 2:
		o.MinSize = 2
	}
	if o.Seed == 0 {
		o.Seed = changepoint.DefaultSeed
	}
	return o
}

// differs is the first comparable field in which r differs from ref.
func differs(r, ref *Run) (field, value, refValue string, ok bool) {
	for _, m := range diff.CompareEnv([]diff.TraceInfo{{File: ref.Path, Env: ref.Env}}, []diff.TraceInfo{{File: r.Path, Env: r.Env}}) {
		if slices.Contains(comparable, m.Field) {
			return m.Field, m.New, m.Base, true
		}
	}
	return "", "", "", false
}

// metricsOf lists the metrics: the fixed ones any run has, then the top
// ops and kernels by their mean over the runs.
func metricsOf(runs []*Run, top int) []Metric {
	units := map[string]string{}
	sum := map[string]float64{}
	for _, r := range runs {
		for name, v := range r.Values {
			units[name] = r.Units[name]
			sum[name] += v
		}
	}
	var fixed, mem, ops, kernels []string
	for name := range units {
		switch {
		case name == StepTime || name == GPUIdlePct || name == ExposedComm:
			fixed = append(fixed, name)
		case strings.HasPrefix(name, PeakAllocated+":"):
			mem = append(mem, name)
		case strings.HasPrefix(name, OpPrefix):
			ops = append(ops, name)
		case strings.HasPrefix(name, KernelPrefix):
			kernels = append(kernels, name)
		}
	}
	order := map[string]int{StepTime: 0, GPUIdlePct: 1, ExposedComm: 2}
	slices.SortFunc(fixed, func(a, b string) int { return order[a] - order[b] })
	slices.Sort(mem)
	byMean := func(names []string) []string {
		slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(sum[b], sum[a]), cmp.Compare(a, b)) })
		return names[:min(top, len(names))]
	}
	var out []Metric
	for _, group := range [][]string{fixed, mem, byMean(ops), byMean(kernels)} {
		for _, name := range group {
			m := Metric{Name: name, Unit: units[name], Values: make([]float64, len(runs))}
			for k, r := range runs {
				v, ok := r.Values[name]
				switch {
				case ok:
				case strings.HasPrefix(name, OpPrefix) || strings.HasPrefix(name, KernelPrefix):
					v = 0 // it did not run
				default:
					v = math.NaN()
				}
				m.Values[k] = v
			}
			out = append(out, m)
		}
	}
	return out
}

// points finds m's change points over the runs that have a value.
func points(m *Metric, runs []*Run, o changepoint.Options) {
	var xs []float64
	var at []int // position in the series of xs[k]
	for k, v := range m.Values {
		if !math.IsNaN(v) {
			xs = append(xs, v)
			at = append(at, k)
		}
	}
	cps := changepoint.Find(xs, o)
	for k, p := range cps {
		lo, hi := 0, len(xs)
		if k > 0 {
			lo = cps[k-1].Index
		}
		if k+1 < len(cps) {
			hi = cps[k+1].Index
		}
		c := Change{Index: at[p.Index], Run: runs[at[p.Index]].Path, Before: median(xs[lo:p.Index]), After: median(xs[p.Index:hi]), PValue: p.PValue}
		c.ChangePct = math.NaN()
		if c.Before != 0 {
			c.ChangePct = math.Round((c.After-c.Before)/math.Abs(c.Before)*1e4) / 100
		}
		m.Points = append(m.Points, c)
	}
}

func median(xs []float64) float64 { return stats.Summarize(xs).Median }

// Rule is a --fail-on rule: a metric (a name, or a path.Match pattern such
// as kernel:*) that worsens beyond a threshold.
type Rule struct {
	Text    string
	Pattern string
	Up      bool    // > : an increase worsens it; < : a decrease does
	Pct     float64 // the threshold, a positive percentage
}

// ParseRule reads NAME>+P% (fail when a change point raises the metric by
// more than P percent) or NAME<-P% (lowers it by more than P percent); the
// sign and the % are optional.
func ParseRule(s string) (Rule, error) {
	i := strings.IndexAny(s, "<>")
	if i <= 0 {
		return Rule{}, fmt.Errorf("--fail-on %q: want METRIC>+P%% or METRIC<-P%%, e.g. 'step_time>+5%%' or 'kernel:*>+10%%'", s)
	}
	r := Rule{Text: s, Pattern: strings.TrimSpace(s[:i]), Up: s[i] == '>'}
	if _, err := path.Match(r.Pattern, ""); err != nil {
		return Rule{}, fmt.Errorf("--fail-on %q: bad pattern %q: %v", s, r.Pattern, err)
	}
	num := strings.TrimSuffix(strings.TrimSpace(s[i+1:]), "%")
	sign := ""
	if num != "" && (num[0] == '+' || num[0] == '-') {
		sign, num = num[:1], num[1:]
	}
	p, err := strconv.ParseFloat(num, 64)
	if err != nil || p < 0 || math.IsInf(p, 0) {
		return Rule{}, fmt.Errorf("--fail-on %q: the threshold must be a percentage, e.g. +5%%", s)
	}
	if (r.Up && sign == "-") || (!r.Up && sign == "+") {
		return Rule{}, fmt.Errorf("--fail-on %q: > goes with an increase (+P%%), < with a decrease (-P%%)", s)
	}
	r.Pct = p
	return r, nil
}

// Gate holds the newest window runs' change points to the rules: a
// change point at one of the newest window runs that moves a matching
// metric beyond the threshold in the rule's direction is a violation; a
// rule that matches no metric is n/a.
func (res *Result) Gate(rules []Rule, window int) *diff.Gate {
	g := &diff.Gate{}
	first := len(res.Runs) - window
	for _, r := range rules {
		g.Rules = append(g.Rules, r.Text)
		matched := false
		for _, m := range res.Metrics {
			if ok, _ := path.Match(r.Pattern, m.Name); !ok {
				continue
			}
			matched = true
			for _, c := range m.Points {
				if c.Index < first || math.IsNaN(c.ChangePct) {
					continue
				}
				if (r.Up && c.ChangePct > r.Pct) || (!r.Up && c.ChangePct < -r.Pct) {
					g.Violations = append(g.Violations, diff.Violation{Rule: r.Text,
						Msg: fmt.Sprintf("%s changed by %+.2f%% at run %d of %d (%s), within the newest %d",
							m.Name, c.ChangePct, c.Index+1, len(res.Runs), c.Run, window)})
				}
			}
		}
		if !matched {
			g.NA = append(g.NA, diff.NA{Rule: r.Text, Reason: "no metric of the series matches " + r.Pattern})
		}
	}
	return g
}
