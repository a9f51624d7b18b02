package compileview

import (
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/layout"
)

// compareJSON is the comparison document (mode "compare"); like the
// summary's, its fields are in the order of their JSON names.
type compareJSON struct {
	Communication  []stayedJSON    `json:"communication"`
	Compiled       string          `json:"compiled"`
	CompiledHasGPU bool            `json:"compiled_has_gpu_work"`
	CompiledOnly   []int64         `json:"compiled_only_steps"`
	CompiledShows  bool            `json:"compiled_shows_compile"`
	CompiledSteps  []stepStatsJSON `json:"compiled_steps"`
	Disappeared    []goneJSON      `json:"disappeared"`
	Eager          string          `json:"eager"`
	EagerHasGPU    bool            `json:"eager_has_gpu_work"`
	EagerOnly      []int64         `json:"eager_only_steps"`
	EagerShows     bool            `json:"eager_shows_compile"`
	EagerSteps     []stepStatsJSON `json:"eager_steps"`
	Fused          []fusionJSON    `json:"fused"`
	Headline       *headlineJSON   `json:"headline"`
	MedianStep     medianStepJSON  `json:"median_step"`
	Metrics        []metricJSON    `json:"metrics"`
	Mode           string          `json:"mode"`
	Paired         []int64         `json:"paired_steps"`
	Schema         string          `json:"schema"`
	Sentence       string          `json:"sentence"`
	Stayed         []stayedJSON    `json:"stayed"`
}

type medianStepJSON struct {
	Compiled stepStatsJSON `json:"compiled"`
	Eager    stepStatsJSON `json:"eager"`
}

type stepStatsJSON struct {
	CPUNs          int64  `json:"cpu_ns"`
	GPUBusyNs      int64  `json:"gpu_busy_ns"`
	GPUIdleNs      int64  `json:"gpu_idle_ns"`
	Kernels        int    `json:"kernels"`
	LaunchCalls    int    `json:"launch_calls"`
	MedianKernelNs *int64 `json:"median_kernel_ns"` // null without kernels
	Memcpys        int    `json:"memcpys"`
	RuntimeCalls   int    `json:"runtime_calls"`
	Step           *int64 `json:"step"` // null: the whole trace as one window
}

type metricJSON struct {
	Compiled *int64   `json:"compiled"` // null: not measured
	Eager    *int64   `json:"eager"`
	Metric   string   `json:"metric"`
	Ratio    *float64 `json:"ratio"`
}

type goneJSON struct {
	Count   int    `json:"count"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	TotalNs int64  `json:"total_ns"`
}

type fusionJSON struct {
	Count     int           `json:"count"`
	EagerOps  []eagerOpJSON `json:"eager_ops"`
	Kernel    string        `json:"kernel"`
	NoEagerOp []string      `json:"no_eager_op"`
	Ops       []string      `json:"ops"`
	TotalNs   int64         `json:"total_ns"`
}

type eagerOpJSON struct {
	Calls    int      `json:"calls"`
	KernelNs int64    `json:"kernel_ns"`
	Kernels  []string `json:"kernels"`
	Name     string   `json:"name"`
}

type stayedJSON struct {
	CompiledCount    int     `json:"compiled_count"`
	CompiledMedianNs int64   `json:"compiled_median_ns"`
	CompiledTotalNs  int64   `json:"compiled_total_ns"`
	EagerCount       int     `json:"eager_count"`
	EagerMedianNs    int64   `json:"eager_median_ns"`
	EagerTotalNs     int64   `json:"eager_total_ns"`
	Family           *string `json:"family"` // null: other
	Name             string  `json:"name"`
}

// headlineJSON is stayedJSON with the family always a string.
type headlineJSON struct {
	CompiledCount    int    `json:"compiled_count"`
	CompiledMedianNs int64  `json:"compiled_median_ns"`
	CompiledTotalNs  int64  `json:"compiled_total_ns"`
	EagerCount       int    `json:"eager_count"`
	EagerMedianNs    int64  `json:"eager_median_ns"`
	EagerTotalNs     int64  `json:"eager_total_ns"`
	Family           string `json:"family"`
	Name             string `json:"name"`
}

func cxStepJSON(s compile.StepStats) stepStatsJSON {
	j := stepStatsJSON{CPUNs: s.CPUNs, GPUBusyNs: s.GPUBusyNs, GPUIdleNs: s.GPUIdleNs, Kernels: s.Kernels,
		LaunchCalls: s.LaunchCalls, Memcpys: s.Memcpys, RuntimeCalls: s.RuntimeCalls}
	if s.HasStep {
		j.Step = &s.Step
	}
	if s.Kernels > 0 {
		j.MedianKernelNs = &s.MedianKernelNs
	}
	return j
}

// CompareJSON writes the comparison as JSON.
func CompareJSON(w io.Writer, eager, compiled string, c *compile.Comparison) error {
	stepsOf := func(ss []compile.StepStats) []stepStatsJSON {
		out := []stepStatsJSON{}
		for _, s := range ss {
			out = append(out, cxStepJSON(s))
		}
		return out
	}
	ints := func(v []int64) []int64 {
		if v == nil {
			return []int64{}
		}
		return v
	}
	metrics := []metricJSON{}
	for _, m := range c.Metrics {
		key := strings.ReplaceAll(m.Name, " ", "_")
		if m.IsTime {
			key += "_ns"
		}
		mj := metricJSON{Metric: key, Ratio: m.Ratio}
		if m.Measured {
			mj.Eager, mj.Compiled = &m.Eager, &m.Compiled
		}
		metrics = append(metrics, mj)
	}
	gone := []goneJSON{}
	for _, d := range c.Disappeared {
		gone = append(gone, goneJSON{Count: d.Count, Kind: d.Kind, Name: d.Name, TotalNs: d.TotalNs})
	}
	fused := []fusionJSON{}
	for _, f := range c.Fused {
		eo := []eagerOpJSON{}
		for _, o := range f.EagerOps {
			eo = append(eo, eagerOpJSON{Calls: o.Calls, KernelNs: o.KernelNs, Kernels: cxStrs(o.Kernels), Name: o.Name})
		}
		fused = append(fused, fusionJSON{Count: f.Count, EagerOps: eo, Kernel: f.Kernel, NoEagerOp: cxStrs(f.Missing), Ops: cxStrs(f.Ops), TotalNs: f.TotalNs})
	}
	stayedOf := func(list []compile.Stayed) []stayedJSON {
		out := []stayedJSON{}
		for _, s := range list {
			out = append(out, stayedJSON{CompiledCount: s.CompiledCount, CompiledMedianNs: s.CompiledMedianNs, CompiledTotalNs: s.CompiledTotalNs,
				EagerCount: s.EagerCount, EagerMedianNs: s.EagerMedianNs, EagerTotalNs: s.EagerTotalNs, Family: cxStr(s.Family), Name: s.Name})
		}
		return out
	}
	var headline *headlineJSON
	if h := c.Headline; h != nil {
		headline = &headlineJSON{CompiledCount: h.CompiledCount, CompiledMedianNs: h.CompiledMedianNs, CompiledTotalNs: h.CompiledTotalNs,
			EagerCount: h.EagerCount, EagerMedianNs: h.EagerMedianNs, EagerTotalNs: h.EagerTotalNs, Family: h.Family, Name: h.Name}
	}
	return layout.JSON(w, compareJSON{
		Communication: stayedOf(c.Comm), Compiled: compiled, CompiledHasGPU: !c.NoGPU[1], CompiledOnly: ints(c.CompiledOnly),
		CompiledShows: c.CompiledCompiled, CompiledSteps: stepsOf(c.CompiledSteps), Disappeared: gone,
		Eager: eager, EagerHasGPU: !c.NoGPU[0], EagerOnly: ints(c.EagerOnly), EagerShows: c.EagerCompiled, EagerSteps: stepsOf(c.EagerSteps),
		Fused: fused, Headline: headline,
		MedianStep: medianStepJSON{Compiled: cxStepJSON(c.Median[1]), Eager: cxStepJSON(c.Median[0])},
		Metrics:    metrics, Mode: "compare", Paired: ints(c.Paired), Schema: CompileSchema, Sentence: CompareSentence(c),
		Stayed: stayedOf(c.Stayed),
	})
}
