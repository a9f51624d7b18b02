package render

import (
	"io"

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

// CompileJSON writes the summary as JSON.
func CompileJSON(w io.Writer, file string, s *compile.Summary) error {
	return layout.JSON(w, compileJSON(file, s))
}

// perReplay is a kernels-per-replay figure, null without replays.
func cxPerReplay(g compile.Graphs, n int) *int {
	if g.Replays == 0 {
		return nil
	}
	return &n
}
