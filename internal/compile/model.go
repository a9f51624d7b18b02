// Package compile reads what torch.compile left in a trace: the compiled
// regions Dynamo entered (Torch-Compiled Region: F/C, frames and
// recompiles), the AOTAutograd calls (CompiledFunction and its backward),
// the Inductor graphs (## Call CompiledFxGraph H ##), the CPU cost of each
// call split into its parts, the Triton kernels Inductor generated (fused
// ops decoded from their names), the library kernels the compiled code
// still calls, CUDA/HIP graph replays, and compile work inside the
// profiled window. It also compares an eager trace with a compiled one.
// Times are int64 nanoseconds.
package compile

// Kinds of compiled entry point.
const (
	KindDynamo      = "dynamo"       // Torch-Compiled Region: F/C
	KindAOTForward  = "aot_forward"  // CompiledFunction
	KindAOTBackward = "aot_backward" // CompiledFunctionBackward
	KindGraph       = "graph"        // ## Call CompiledFxGraph H ##
)

// Summary is the compile view of one trace.
type Summary struct {
	HasCompile bool // any compiled region, AOT call, Inductor kernel or graph replay

	Regions             []Region // per name, in first-call order
	Frames              []Frame  // Dynamo frames, by id
	Costs               []Cost   // CPU cost of the outermost compiled calls, per name
	Parts               []Part   // the named events inside and around compiled calls, torch's way: calls and CPU total
	Kernels             []Kernel // Inductor kernels anywhere; library and other kernels of compiled code and graph replays
	Undecoded           []string // Inductor kernel names whose fused ops could not be read
	Scope               Scope    // kernels and GPU time inside compiled code, graph replays, and elsewhere
	Graphs              Graphs
	Tax                 Tax
	Steps               []StepRow
	UnattributedLookups int // TorchDynamo Cache Lookup calls followed by no compiled call
	Capture             Capture
	Recompiles          []Recompile // the compiles of a Dynamo frame after its first, in time order
}

// GraphOnly reports whether the compiled code's kernels all ran in graph
// replays: no kernel was launched from a compiled call.
func (s *Summary) GraphOnly() bool {
	return s.Graphs.Replays > 0 && s.Scope.CompiledKernels == 0 && s.Scope.GraphKernels > 0
}

// Recompile is a compile of a Dynamo frame after its first (Torch-Compiled
// Region F/C with C > 0), as the trace shows it. Profiler traces do not
// record why Dynamo recompiled (TORCH_LOGS=recompiles or tlparse do).
type Recompile struct {
	Name           string
	Frame, Compile int
	Calls          int
	FirstNs        int64 // its first call's start, from the trace's origin (docs/output.md)
	Step           int64 // the ProfilerStep#N of its first call; -1 outside the steps
	// CompileNs is the compile work inside the window (the union of the
	// outermost "(dynamo_timed)" events and compile frames) between the
	// frame's previous compile's first call and this one's first call.
	CompileNs int64
}

// Region is one compiled entry point, by name.
type Region struct {
	Name      string
	Kind      string
	Frame     int // Dynamo: F of F/C; -1 otherwise
	Compile   int // Dynamo: C of F/C (0 is the first compile, more are recompiles); -1 otherwise
	Calls     int
	TotalNs   int64 // sum of the calls' durations (torch's CPU total)
	MedianNs  int64
	PerStep   []StepCount
	Outermost int   // calls not nested in another compiled call
	FirstNs   int64 // its first call's start, on the trace's clock (ts)
}

// StepCount is a count in one profiler step.
type StepCount struct {
	Step  int64
	Count int
}

// Frame is one Dynamo frame id with the compile ids seen for it.
type Frame struct {
	ID         int
	Compiles   []int // distinct C values, sorted
	Recompiles int   // compiles beyond the first seen
	Calls      int
}

// Split partitions a compiled call's CPU time: every event's self time
// goes to the nearest enclosing part (launch call, compiled graph, AOT
// wrapper, pregraph bytecode, Dynamo region). CacheLookupNs is the
// TorchDynamo Cache Lookup that ran just before the call, outside it.
type Split struct {
	CacheLookupNs int64
	DynamoNs      int64 // the region's own time and its unnamed children outside the graph
	PregraphNs    int64 // Pregraph bytecode
	AOTNs         int64 // AOTDispatcher Runtime Wrapper Prologue/Epilogue, CompiledFunction(Backward) outside the graph
	GraphNs       int64 // ## Call CompiledFxGraph ## and the launcher op of each Triton kernel: the generated code and the ops it calls, launches excluded
	LaunchNs      int64 // runtime and driver calls
}

// Total is the sum of the parts, cache lookup included.
func (s Split) Total() int64 {
	return s.CacheLookupNs + s.DynamoNs + s.PregraphNs + s.AOTNs + s.GraphNs + s.LaunchNs
}

func (s *Split) add(o Split) {
	s.CacheLookupNs += o.CacheLookupNs
	s.DynamoNs += o.DynamoNs
	s.PregraphNs += o.PregraphNs
	s.AOTNs += o.AOTNs
	s.GraphNs += o.GraphNs
	s.LaunchNs += o.LaunchNs
}

func (s Split) div(n int) Split {
	if n == 0 {
		return Split{}
	}
	d := int64(n)
	return Split{s.CacheLookupNs / d, s.DynamoNs / d, s.PregraphNs / d, s.AOTNs / d, s.GraphNs / d, s.LaunchNs / d}
}

// Cost is the CPU cost of the outermost calls of one compiled entry point.
type Cost struct {
	Name         string
	Calls        int
	Sum          Split // over all calls
	PerCall      Split // Sum / Calls (integer ns)
	MedianNs     int64 // median call duration, cache lookup excluded
	LaunchCalls  int   // runtime and driver calls inside the calls
	Launches     int   // of those, the ones that launched device work
	DeviceOps    int   // device ops launched from inside the calls (graph replays included)
	TritonLaunch int   // launches of Inductor kernels
}

// Part is a named event of compiled code, counted the way torch's table
// counts it.
type Part struct {
	Name    string
	Calls   int
	TotalNs int64
}

// Kernel classes.
const (
	ClassInductor = "inductor" // a Triton kernel Inductor generated
	ClassLibrary  = "library"  // GEMM, attention, convolution, collective: a library kernel
	ClassOther    = "other"    // any other kernel of compiled code (ATen fallbacks, custom ops, user Triton)
)

// Kernel is one kernel name of compiled code (or any Inductor kernel).
type Kernel struct {
	Name     string
	Class    string
	Family   string // inductor: the category; library: gemm, attention, conv, collective
	Decoded  Decoded
	Count    int
	TotalNs  int64
	MedianNs int64
	InGraph  int    // instances that ran in a graph replay
	Unlinked int    // instances without a launch call in the trace
	Via      string // the launch call that launched most instances (cuLaunchKernel, cudaGraphLaunch, ...)
	Op       string // the op that launched most instances (aten::mm, triton_poi_..., ...)
}

// Scope counts kernels by where they were launched.
type Scope struct {
	CompiledKernels int // launched from inside a compiled call (not by a graph launch)
	CompiledNs      int64
	GraphKernels    int // replayed by a graph launch
	GraphNs         int64
	OutsideKernels  int // launched elsewhere (eager code), or with no launch call in the trace
	OutsideNs       int64
	InductorKernels int
	InductorNs      int64
	LibraryKernels  int
	LibraryNs       int64
}

// Graphs are the CUDA/HIP graph replays.
type Graphs struct {
	Replays                               int
	Kernels                               int // kernels replayed in all
	DeviceOps                             int // kernels, memcpys and memsets replayed
	Empty                                 int // replays with no device op in the trace
	MinKernels, MedianKernels, MaxKernels int
	Sequences                             []GraphSeq
	PerStep                               []StepCount
}

// GraphSeq is one distinct sequence of kernels that graph launches replayed.
type GraphSeq struct {
	Kernels     int
	Replays     int
	MedianGPUNs int64 // median busy time of one replay
	First       string
	Last        string
}

// Tax is compile work inside the profiled window.
type Tax struct {
	Events  int   // outermost compile events
	TotalNs int64 // the union of their intervals (wall time)
	First   string
	Steps   []int64
}

// StepRow is one profiler step's compiled activity.
type StepRow struct {
	Step          int64
	CompiledCalls int   // outermost compiled calls starting in the step
	CompiledCPUNs int64 // their CPU time, cache lookups included
	LaunchCalls   int
	GraphReplays  int
	Inductor      int // Inductor kernels launched in the step
	Library       int
	Other         int // other kernels of compiled code
	Outside       int // kernels launched outside compiled code
}
