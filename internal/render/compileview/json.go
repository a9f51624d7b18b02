package compileview

import (
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/layout"
)

type cxStepCountJSON struct {
	Step  int64 `json:"step"`
	Count int   `json:"count"`
}

func cxStepCounts(sc []compile.StepCount) []cxStepCountJSON {
	out := make([]cxStepCountJSON, 0, len(sc))
	for _, s := range sc {
		out = append(out, cxStepCountJSON{s.Step, s.Count})
	}
	return out
}

type cxSplitJSON struct {
	CacheLookupNs int64 `json:"cache_lookup_ns"`
	DynamoNs      int64 `json:"dynamo_ns"`
	PregraphNs    int64 `json:"pregraph_ns"`
	AOTNs         int64 `json:"aot_wrapper_ns"`
	GraphNs       int64 `json:"graph_ns"`
	LaunchNs      int64 `json:"launch_ns"`
	TotalNs       int64 `json:"total_ns"`
}

func cxSplitOf(s compile.Split) cxSplitJSON {
	return cxSplitJSON{s.CacheLookupNs, s.DynamoNs, s.PregraphNs, s.AOTNs, s.GraphNs, s.LaunchNs, s.Total()}
}

func cxStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func cxInt(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

func cxStrs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// compileJSON is the summary document of tracetab.compile/2.
func compileJSON(file string, s *compile.Summary) map[string]any {
	type regionJ struct {
		Name      string            `json:"name"`
		Kind      string            `json:"kind"`
		Frame     *int              `json:"frame"`
		Compile   *int              `json:"compile"`
		Calls     int               `json:"calls"`
		Outermost int               `json:"outermost_calls"`
		TotalNs   int64             `json:"cpu_total_ns"`
		MedianNs  int64             `json:"median_ns"`
		PerStep   []cxStepCountJSON `json:"calls_per_step"`
	}
	type frameJ struct {
		Frame      int   `json:"frame"`
		Compiles   []int `json:"compiles"`
		Recompiles int   `json:"recompiles"`
		Calls      int   `json:"calls"`
	}
	type costJ struct {
		Name         string      `json:"name"`
		Calls        int         `json:"calls"`
		MedianNs     int64       `json:"median_ns"`
		PerCall      cxSplitJSON `json:"per_call"`
		Sum          cxSplitJSON `json:"sum"`
		LaunchCalls  int         `json:"launch_calls"`
		Launches     int         `json:"launches_with_device_work"`
		DeviceOps    int         `json:"device_ops"`
		TritonLaunch int         `json:"triton_launches"`
	}
	type partJ struct {
		Name    string `json:"name"`
		Calls   int    `json:"calls"`
		TotalNs int64  `json:"cpu_total_ns"`
	}
	type fusedJ struct {
		Category *string  `json:"category"`
		Ops      []string `json:"ops"`
		Unknown  []string `json:"unknown_words"`
		Decoded  bool     `json:"decoded"`
		Why      *string  `json:"not_decoded_because"`
	}
	type kernelJ struct {
		Name     string  `json:"name"`
		Class    string  `json:"class"`
		Family   *string `json:"family"`
		Count    int     `json:"count"`
		TotalNs  int64   `json:"total_ns"`
		MedianNs int64   `json:"median_ns"`
		InGraph  int     `json:"in_graph_replays"`
		Unlinked int     `json:"unlinked"`
		Via      *string `json:"launched_by"`
		Op       *string `json:"op"`
		Fused    *fusedJ `json:"fused"`
	}
	type seqJ struct {
		Kernels     int    `json:"kernels"`
		Replays     int    `json:"replays"`
		MedianGPUNs int64  `json:"median_gpu_busy_ns"`
		First       string `json:"first"`
		Last        string `json:"last"`
	}
	type stepJ struct {
		Step          int64 `json:"step"`
		CompiledCalls int   `json:"compiled_calls"`
		CompiledCPUNs int64 `json:"compiled_cpu_ns"`
		LaunchCalls   int   `json:"launch_calls"`
		GraphReplays  int   `json:"graph_replays"`
		Inductor      int   `json:"inductor_kernels"`
		Library       int   `json:"library_kernels"`
		Other         int   `json:"other_kernels"`
		Outside       int   `json:"kernels_outside"`
	}
	regions := []regionJ{}
	for _, r := range s.Regions {
		regions = append(regions, regionJ{r.Name, r.Kind, cxInt(r.Frame), cxInt(r.Compile), r.Calls, r.Outermost, r.TotalNs, r.MedianNs, cxStepCounts(r.PerStep)})
	}
	frames := []frameJ{}
	for _, f := range s.Frames {
		frames = append(frames, frameJ{f.ID, f.Compiles, f.Recompiles, f.Calls})
	}
	costs := []costJ{}
	for _, c := range s.Costs {
		costs = append(costs, costJ{c.Name, c.Calls, c.MedianNs, cxSplitOf(c.PerCall), cxSplitOf(c.Sum), c.LaunchCalls, c.Launches, c.DeviceOps, c.TritonLaunch})
	}
	parts := []partJ{}
	for _, p := range s.Parts {
		parts = append(parts, partJ{p.Name, p.Calls, p.TotalNs})
	}
	kernels := []kernelJ{}
	for _, k := range s.Kernels {
		kj := kernelJ{k.Name, k.Class, cxStr(k.Family), k.Count, k.TotalNs, k.MedianNs, k.InGraph, k.Unlinked, cxStr(k.Via), cxStr(k.Op), nil}
		if k.Class == compile.ClassInductor {
			d := k.Decoded
			kj.Fused = &fusedJ{cxStr(d.Category), cxStrs(d.Ops), cxStrs(d.Unknown), d.OK, cxStr(d.Why)}
		}
		kernels = append(kernels, kj)
	}
	seqs := []seqJ{}
	for _, q := range s.Graphs.Sequences {
		seqs = append(seqs, seqJ{q.Kernels, q.Replays, q.MedianGPUNs, q.First, q.Last})
	}
	stepRows := []stepJ{}
	for _, r := range s.Steps {
		stepRows = append(stepRows, stepJ{r.Step, r.CompiledCalls, r.CompiledCPUNs, r.LaunchCalls, r.GraphReplays, r.Inductor, r.Library, r.Other, r.Outside})
	}
	taxSteps := s.Tax.Steps
	if taxSteps == nil {
		taxSteps = []int64{}
	}
	sc := s.Scope
	g := s.Graphs
	return map[string]any{
		"schema":      CompileSchema,
		"mode":        "summary",
		"file":        file,
		"has_compile": s.HasCompile,
		"regions":     regions,
		"frames":      frames,
		"costs":       costs,
		"parts":       parts,
		"kernels":     kernels,
		"undecoded":   cxStrs(s.Undecoded),
		"scope": map[string]any{
			"compiled_kernels": sc.CompiledKernels, "compiled_ns": sc.CompiledNs,
			"graph_kernels": sc.GraphKernels, "graph_ns": sc.GraphNs,
			"outside_kernels": sc.OutsideKernels, "outside_ns": sc.OutsideNs,
			"inductor_kernels": sc.InductorKernels, "inductor_ns": sc.InductorNs,
			"library_kernels": sc.LibraryKernels, "library_ns": sc.LibraryNs,
		},
		"graphs": map[string]any{
			"replays": g.Replays, "kernels": g.Kernels, "device_ops": g.DeviceOps, "empty_replays": g.Empty,
			"min_kernels_per_replay": cxPerReplay(g, g.MinKernels), "median_kernels_per_replay": cxPerReplay(g, g.MedianKernels), "max_kernels_per_replay": cxPerReplay(g, g.MaxKernels),
			"sequences": seqs, "replays_per_step": cxStepCounts(g.PerStep),
		},
		"compile_tax":                map[string]any{"events": s.Tax.Events, "total_ns": s.Tax.TotalNs, "first": cxStr(s.Tax.First), "steps": taxSteps},
		"steps":                      stepRows,
		"unattributed_cache_lookups": s.UnattributedLookups,
		"graph_only":                 s.GraphOnly(),
		"captures":                   capturesJSON(s.Capture),
		"recompiles":                 recompilesJSON(s.Recompiles),
	}
}

func capturesJSON(c compile.Capture) map[string]any {
	ws := []map[string]any{}
	for _, w := range c.Windows {
		ops := []map[string]any{}
		for _, o := range w.Ops {
			ops = append(ops, map[string]any{"name": o.Name, "launches": o.Count})
		}
		var step any
		if w.Step >= 0 {
			step = w.Step
		}
		ws = append(ws, map[string]any{"from": w.From, "start_ns": w.StartNs, "end_ns": w.EndNs, "step": step,
			"launch_calls": w.Launches, "captured_launches": w.Captured, "capture_info_calls": w.InfoCalls, "ops": ops})
	}
	return map[string]any{"windows": ws, "launch_calls_without_device_op": c.NoDeviceOp, "capture_info_calls": c.InfoCalls}
}

func recompilesJSON(rs []compile.Recompile) []map[string]any {
	out := []map[string]any{}
	for _, r := range rs {
		var step any
		if r.Step >= 0 {
			step = r.Step
		}
		out = append(out, map[string]any{"name": r.Name, "frame": r.Frame, "compile": r.Compile, "calls": r.Calls,
			"first_call_ns": r.FirstNs, "step": step, "compile_work_ns": r.CompileNs, "reason": nil})
	}
	return out
}

// JSON writes the summary as JSON.
func JSON(w io.Writer, file string, s *compile.Summary) error {
	return layout.JSON(w, compileJSON(file, s))
}

// perReplay is a kernels-per-replay figure, null without replays.
func cxPerReplay(g compile.Graphs, n int) *int {
	if g.Replays == 0 {
		return nil
	}
	return &n
}

func cxStepJSON(s compile.StepStats) map[string]any {
	var step any
	if s.HasStep {
		step = s.Step
	}
	var med any
	if s.Kernels > 0 {
		med = s.MedianKernelNs
	}
	return map[string]any{"step": step, "cpu_ns": s.CPUNs, "gpu_busy_ns": s.GPUBusyNs, "gpu_idle_ns": s.GPUIdleNs, "kernels": s.Kernels,
		"launch_calls": s.LaunchCalls, "runtime_calls": s.RuntimeCalls, "memcpys": s.Memcpys, "median_kernel_ns": med}
}

// CompareJSON writes the comparison as JSON.
func CompareJSON(w io.Writer, eager, compiled string, c *compile.Comparison) error {
	stepsOf := func(ss []compile.StepStats) []map[string]any {
		out := []map[string]any{}
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
	metrics := []map[string]any{}
	for _, m := range c.Metrics {
		key := strings.ReplaceAll(m.Name, " ", "_")
		if m.IsTime {
			key += "_ns"
		}
		var ev, cv any = m.Eager, m.Compiled
		if !m.Measured {
			ev, cv = nil, nil
		}
		metrics = append(metrics, map[string]any{"metric": key, "eager": ev, "compiled": cv, "ratio": m.Ratio})
	}
	gone := []map[string]any{}
	for _, d := range c.Disappeared {
		gone = append(gone, map[string]any{"kind": d.Kind, "name": d.Name, "count": d.Count, "total_ns": d.TotalNs})
	}
	fused := []map[string]any{}
	for _, f := range c.Fused {
		eo := []map[string]any{}
		for _, o := range f.EagerOps {
			eo = append(eo, map[string]any{"name": o.Name, "calls": o.Calls, "kernel_ns": o.KernelNs, "kernels": cxStrs(o.Kernels)})
		}
		fused = append(fused, map[string]any{"kernel": f.Kernel, "ops": cxStrs(f.Ops), "count": f.Count, "total_ns": f.TotalNs, "eager_ops": eo, "no_eager_op": cxStrs(f.Missing)})
	}
	stayedOf := func(list []compile.Stayed) []map[string]any {
		out := []map[string]any{}
		for _, s := range list {
			out = append(out, map[string]any{"name": s.Name, "family": cxStr(s.Family), "eager_count": s.EagerCount, "compiled_count": s.CompiledCount,
				"eager_total_ns": s.EagerTotalNs, "compiled_total_ns": s.CompiledTotalNs, "eager_median_ns": s.EagerMedianNs, "compiled_median_ns": s.CompiledMedianNs})
		}
		return out
	}
	var headline any
	if h := c.Headline; h != nil {
		headline = map[string]any{"name": h.Name, "family": h.Family, "eager_count": h.EagerCount, "compiled_count": h.CompiledCount,
			"eager_total_ns": h.EagerTotalNs, "compiled_total_ns": h.CompiledTotalNs, "eager_median_ns": h.EagerMedianNs, "compiled_median_ns": h.CompiledMedianNs}
	}
	return layout.JSON(w, map[string]any{
		"schema": CompileSchema, "mode": "compare", "eager": eager, "compiled": compiled,
		"paired_steps": ints(c.Paired), "eager_only_steps": ints(c.EagerOnly), "compiled_only_steps": ints(c.CompiledOnly),
		"eager_steps": stepsOf(c.EagerSteps), "compiled_steps": stepsOf(c.CompiledSteps),
		"median_step": map[string]any{"eager": cxStepJSON(c.Median[0]), "compiled": cxStepJSON(c.Median[1])},
		"metrics":     metrics, "disappeared": gone, "fused": fused, "stayed": stayedOf(c.Stayed), "communication": stayedOf(c.Comm), "headline": headline,
		"eager_has_gpu_work": !c.NoGPU[0], "compiled_has_gpu_work": !c.NoGPU[1],
		"eager_shows_compile": c.EagerCompiled, "compiled_shows_compile": c.CompiledCompiled,
		"sentence": CompareSentence(c),
	})
}
