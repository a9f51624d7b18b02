package compileview

import (
	"io"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/layout"
)

// CompileSchema versions the JSON form of the compile summary and
// comparison.
const CompileSchema = "tracetab.compile/2"

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

type regionJSON struct {
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
type frameJSON struct {
	Frame      int   `json:"frame"`
	Compiles   []int `json:"compiles"`
	Recompiles int   `json:"recompiles"`
	Calls      int   `json:"calls"`
}
type costJSON struct {
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
type partJSON struct {
	Name    string `json:"name"`
	Calls   int    `json:"calls"`
	TotalNs int64  `json:"cpu_total_ns"`
}
type fusedJSON struct {
	Category *string  `json:"category"`
	Ops      []string `json:"ops"`
	Unknown  []string `json:"unknown_words"`
	Decoded  bool     `json:"decoded"`
	Why      *string  `json:"not_decoded_because"`
}
type kernelJSON struct {
	Name     string     `json:"name"`
	Class    string     `json:"class"`
	Family   *string    `json:"family"`
	Count    int        `json:"count"`
	TotalNs  int64      `json:"total_ns"`
	MedianNs int64      `json:"median_ns"`
	InGraph  int        `json:"in_graph_replays"`
	Unlinked int        `json:"unlinked"`
	Via      *string    `json:"launched_by"`
	Op       *string    `json:"op"`
	Fused    *fusedJSON `json:"fused"`
}
type seqJSON struct {
	Kernels     int    `json:"kernels"`
	Replays     int    `json:"replays"`
	MedianGPUNs int64  `json:"median_gpu_busy_ns"`
	First       string `json:"first"`
	Last        string `json:"last"`
}
type stepRowJSON struct {
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

// compileJSON is the summary document of tracetab.compile/2.
func compileJSON(file string, s *compile.Summary) summaryJSON {
	regions := []regionJSON{}
	for _, r := range s.Regions {
		regions = append(regions, regionJSON{r.Name, r.Kind, cxInt(r.Frame), cxInt(r.Compile), r.Calls, r.Outermost, r.TotalNs, r.MedianNs, cxStepCounts(r.PerStep)})
	}
	frames := []frameJSON{}
	for _, f := range s.Frames {
		frames = append(frames, frameJSON{f.ID, f.Compiles, f.Recompiles, f.Calls})
	}
	costs := []costJSON{}
	for _, c := range s.Costs {
		costs = append(costs, costJSON{c.Name, c.Calls, c.MedianNs, cxSplitOf(c.PerCall), cxSplitOf(c.Sum), c.LaunchCalls, c.Launches, c.DeviceOps, c.TritonLaunch})
	}
	parts := []partJSON{}
	for _, p := range s.Parts {
		parts = append(parts, partJSON{p.Name, p.Calls, p.TotalNs})
	}
	kernels := []kernelJSON{}
	for _, k := range s.Kernels {
		kj := kernelJSON{k.Name, k.Class, cxStr(k.Family), k.Count, k.TotalNs, k.MedianNs, k.InGraph, k.Unlinked, cxStr(k.Via), cxStr(k.Op), nil}
		if k.Class == compile.ClassInductor {
			d := k.Decoded
			kj.Fused = &fusedJSON{cxStr(d.Category), cxStrs(d.Ops), cxStrs(d.Unknown), d.OK, cxStr(d.Why)}
		}
		kernels = append(kernels, kj)
	}
	seqs := []seqJSON{}
	for _, q := range s.Graphs.Sequences {
		seqs = append(seqs, seqJSON{q.Kernels, q.Replays, q.MedianGPUNs, q.First, q.Last})
	}
	stepRows := []stepRowJSON{}
	for _, r := range s.Steps {
		stepRows = append(stepRows, stepRowJSON{r.Step, r.CompiledCalls, r.CompiledCPUNs, r.LaunchCalls, r.GraphReplays, r.Inductor, r.Library, r.Other, r.Outside})
	}
	taxSteps := s.Tax.Steps
	if taxSteps == nil {
		taxSteps = []int64{}
	}
	sc := s.Scope
	g := s.Graphs
	return summaryJSON{
		Captures:   capturesJSON(s.Capture),
		CompileTax: taxJSON{Events: s.Tax.Events, First: cxStr(s.Tax.First), Steps: taxSteps, TotalNs: s.Tax.TotalNs},
		Costs:      costs,
		File:       file,
		Frames:     frames,
		GraphOnly:  s.GraphOnly(),
		Graphs: graphsJSON{DeviceOps: g.DeviceOps, EmptyReplays: g.Empty, Kernels: g.Kernels,
			MaxPerReplay: cxPerReplay(g, g.MaxKernels), MedianPerReplay: cxPerReplay(g, g.MedianKernels), MinPerReplay: cxPerReplay(g, g.MinKernels),
			Replays: g.Replays, ReplaysPerStep: cxStepCounts(g.PerStep), Sequences: seqs},
		HasCompile: s.HasCompile,
		Kernels:    kernels,
		Mode:       "summary",
		Parts:      parts,
		Recompiles: recompilesJSON(s.Recompiles),
		Regions:    regions,
		Schema:     CompileSchema,
		Scope: scopeJSON{CompiledKernels: sc.CompiledKernels, CompiledNs: sc.CompiledNs, GraphKernels: sc.GraphKernels, GraphNs: sc.GraphNs,
			InductorKernels: sc.InductorKernels, InductorNs: sc.InductorNs, LibraryKernels: sc.LibraryKernels, LibraryNs: sc.LibraryNs,
			OutsideKernels: sc.OutsideKernels, OutsideNs: sc.OutsideNs},
		Steps:     stepRows,
		Unattrib:  s.UnattributedLookups,
		Undecoded: cxStrs(s.Undecoded),
	}
}

// The JSON types below stand for what were maps: their fields are in the
// order of their JSON names (the order encoding/json and jsoniter give a
// map's keys), which the documents keep.

// summaryJSON is the summary document (mode "summary").
type summaryJSON struct {
	Captures   captureJSON     `json:"captures"`
	CompileTax taxJSON         `json:"compile_tax"`
	Costs      []costJSON      `json:"costs"`
	File       string          `json:"file"`
	Frames     []frameJSON     `json:"frames"`
	GraphOnly  bool            `json:"graph_only"`
	Graphs     graphsJSON      `json:"graphs"`
	HasCompile bool            `json:"has_compile"`
	Kernels    []kernelJSON    `json:"kernels"`
	Mode       string          `json:"mode"`
	Parts      []partJSON      `json:"parts"`
	Recompiles []recompileJSON `json:"recompiles"`
	Regions    []regionJSON    `json:"regions"`
	Schema     string          `json:"schema"`
	Scope      scopeJSON       `json:"scope"`
	Steps      []stepRowJSON   `json:"steps"`
	Unattrib   int             `json:"unattributed_cache_lookups"`
	Undecoded  []string        `json:"undecoded"`
}

type scopeJSON struct {
	CompiledKernels int   `json:"compiled_kernels"`
	CompiledNs      int64 `json:"compiled_ns"`
	GraphKernels    int   `json:"graph_kernels"`
	GraphNs         int64 `json:"graph_ns"`
	InductorKernels int   `json:"inductor_kernels"`
	InductorNs      int64 `json:"inductor_ns"`
	LibraryKernels  int   `json:"library_kernels"`
	LibraryNs       int64 `json:"library_ns"`
	OutsideKernels  int   `json:"outside_kernels"`
	OutsideNs       int64 `json:"outside_ns"`
}

type graphsJSON struct {
	DeviceOps       int               `json:"device_ops"`
	EmptyReplays    int               `json:"empty_replays"`
	Kernels         int               `json:"kernels"`
	MaxPerReplay    *int              `json:"max_kernels_per_replay"`
	MedianPerReplay *int              `json:"median_kernels_per_replay"`
	MinPerReplay    *int              `json:"min_kernels_per_replay"`
	Replays         int               `json:"replays"`
	ReplaysPerStep  []cxStepCountJSON `json:"replays_per_step"`
	Sequences       []seqJSON         `json:"sequences"`
}

type taxJSON struct {
	Events  int     `json:"events"`
	First   *string `json:"first"`
	Steps   []int64 `json:"steps"`
	TotalNs int64   `json:"total_ns"`
}

type captureJSON struct {
	InfoCalls  int                 `json:"capture_info_calls"`
	NoDeviceOp int                 `json:"launch_calls_without_device_op"`
	Windows    []captureWindowJSON `json:"windows"`
}

type captureWindowJSON struct {
	InfoCalls int             `json:"capture_info_calls"`
	Captured  int             `json:"captured_launches"`
	EndNs     int64           `json:"end_ns"`
	From      string          `json:"from"`
	Launches  int             `json:"launch_calls"`
	Ops       []captureOpJSON `json:"ops"`
	StartNs   int64           `json:"start_ns"`
	Step      *int64          `json:"step"`
}

type captureOpJSON struct {
	Launches int    `json:"launches"`
	Name     string `json:"name"`
}

type recompileJSON struct {
	Calls     int     `json:"calls"`
	Compile   int     `json:"compile"`
	CompileNs int64   `json:"compile_work_ns"`
	FirstNs   int64   `json:"first_call_ns"`
	Frame     int     `json:"frame"`
	Name      string  `json:"name"`
	Reason    *string `json:"reason"` // always null: the trace does not say
	Step      *int64  `json:"step"`
}

// cxStep is a step number, null for -1 (outside the steps).
func cxStep(n int64) *int64 {
	if n < 0 {
		return nil
	}
	return &n
}

func capturesJSON(c compile.Capture) captureJSON {
	ws := []captureWindowJSON{}
	for _, w := range c.Windows {
		ops := []captureOpJSON{}
		for _, o := range w.Ops {
			ops = append(ops, captureOpJSON{Launches: o.Count, Name: o.Name})
		}
		ws = append(ws, captureWindowJSON{InfoCalls: w.InfoCalls, Captured: w.Captured, EndNs: w.EndNs, From: w.From,
			Launches: w.Launches, Ops: ops, StartNs: w.StartNs, Step: cxStep(w.Step)})
	}
	return captureJSON{InfoCalls: c.InfoCalls, NoDeviceOp: c.NoDeviceOp, Windows: ws}
}

func recompilesJSON(rs []compile.Recompile) []recompileJSON {
	out := []recompileJSON{}
	for _, r := range rs {
		out = append(out, recompileJSON{Calls: r.Calls, Compile: r.Compile, CompileNs: r.CompileNs, FirstNs: r.FirstNs,
			Frame: r.Frame, Name: r.Name, Step: cxStep(r.Step)})
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
