// Package memory is the model behind `tracetab memory`: what the
// "[memory]" instant events of a trace recorded with profile_memory=True
// say about each device's memory. It computes and renders nothing.
//
// Definitions (every view and every other command that shows these numbers
// takes them from here):
//
//   - A record is one "[memory]" instant: Bytes > 0 is an allocation,
//     Bytes < 0 a free, Bytes == 0 neither. "[OutOfMemory]" instants are
//     counted apart and change nothing.
//   - A device is one (Device Type, Device Id) pair of the records. Its
//     records are taken in time order (file order among equal times).
//   - Allocated is the record's "Total Allocated" after it, as torch wrote
//     it; Reserved its "Total Reserved". A trace without "Total Allocated"
//     (torch before 1.10) gives the allocated only relative to the level
//     before the device's first record: Device.Totals is false and every
//     allocated figure is that running sum of Bytes from 0.
//   - The peak is the first record (in time order) with the largest
//     allocated. Its op is the innermost cpu_op on the record's own thread
//     whose [start, end) holds the record's time (the TensorBoard plugin's
//     rule); its annotation the innermost user_annotation other than a
//     ProfilerStep#N; its Python frame the innermost python_function.
//   - A free matches the latest allocation of the same Addr on the same
//     device that is not yet freed. A free with no such allocation freed
//     memory allocated before the trace began: it is counted apart
//     (Device.PreTraceFrees) and never makes a figure negative.
//   - An allocation is alive at the peak when it was made at or before the
//     peak record and its matching free, if any, comes after it.
//   - An allocation's op is the innermost cpu_op on the allocating thread
//     at the allocation's time, NoOp when there is none.
//   - Step levels: the allocated at a ProfilerStep#N's start is the level
//     after the last record before its start; at its end, after the last
//     record before its end (records at exactly the end belong to the
//     next step). Growth is end minus start.
//   - Leak rule: a device with two or more steps and "Total Allocated" is
//     flagged when every step grows by more than Options.LeakShare of the
//     allocated at that step's start.
//
// Times are int64 ns from the output contract's origin (trace.TraceStart).
package memory

// NoOp names allocations made outside every cpu_op of their thread.
const NoOp = "(no op)"

// DefaultLeakShare is the leak rule's default share: 0.01% of the
// allocated at a step's start.
const DefaultLeakShare = 0.0001

// Options are the model's knobs.
type Options struct {
	// LeakShare is the leak rule's share, a fraction (0.0001 = 0.01%);
	// 0 means DefaultLeakShare, a negative value 0 (any growth).
	LeakShare float64
}

// Model is the memory view of one trace.
type Model struct {
	// Records counts the "[memory]" records; OutOfMemory the
	// "[OutOfMemory]" ones.
	Records, OutOfMemory int
	// WindowStartNs, WindowEndNs bound the trace: its origin (0) and the
	// end of its last event (or record).
	WindowStartNs, WindowEndNs int64
	// Steps are the trace's ProfilerStep#N windows, sorted by start.
	Steps []StepWindow
	// LeakShare is the share the leak rule used (a fraction).
	LeakShare float64
	// Devices, CPU first, then by device type and id.
	Devices []*Device
	// Notes say what could not be measured and why (one sentence each).
	Notes []string
}

// StepWindow is one ProfilerStep#N on the CPU.
type StepWindow struct {
	N              int64
	StartNs, EndNs int64
}

// Device is everything the model knows about one device's memory.
type Device struct {
	Type     int8   // c10::DeviceType as written (0 CPU, 1 CUDA, 6 HIP, ...)
	ID       int    // Device Id as written; -1 for none (the CPU)
	TypeName string // torch's name of the type: "cpu", "cuda", "hip", ...
	Name     string // TypeName, with ":ID" when ID >= 0: "cpu", "cuda:0"

	// Totals: every record carries "Total Allocated" (else allocated
	// figures are relative to the level before the first record);
	// Reserved: every record carries "Total Reserved" (else reserved
	// figures are 0 and meaningless); Addrs: every record carries "Addr"
	// (else nothing is matched: Alive, Lifetimes and Leak.Survivors are
	// not measured).
	Totals, Reserved, Addrs bool

	Records     int   // [memory] records of the device
	Allocations int   // records with Bytes > 0
	Frees       int   // records with Bytes < 0
	AllocBytes  int64 // sum of the allocations' Bytes
	FreedBytes  int64 // sum of the frees' -Bytes
	OutOfMemory int   // [OutOfMemory] records of the device
	// Inconsistent counts records whose Total Allocated is not the
	// previous record's plus their Bytes (records lost, or written out of
	// order); 0 on every trace torch wrote whole.
	Inconsistent int

	// PreTraceFrees are frees with no allocation in the trace (memory
	// allocated before it began), PreTraceFreedBytes their bytes.
	PreTraceFrees      int
	PreTraceFreedBytes int64
	// SizeMismatches counts frees whose size differs from the matched
	// allocation's (the allocation's size counts).
	SizeMismatches int

	// Start is the level before the device's first record (allocated; the
	// first record's reserved), End the level after its last record.
	Start, End Level

	Peak         Peak // the peak allocated
	PeakReserved Peak // the first record with the largest reserved (Op and frames not set); Bytes 0 without Reserved

	// Steps holds one entry per trace step (Model.Steps), in order.
	Steps []StepMemory

	Alive     Alive
	Leak      Leak
	Lifetimes []Lifetime // per allocating op, by bytes allocated (descending), then name

	// Series is THE time series other views draw: one point per record
	// of the device, in time order, with the allocated and reserved after
	// it (reserved 0 without Reserved). The level holds from a point's
	// time until the next point's; before the first point it is Start.
	Series []Point
}

// Level is the allocated and reserved at one instant.
type Level struct {
	Allocated, Reserved int64
}

// Peak is a device's largest allocated (or reserved) and where it was.
type Peak struct {
	Bytes int64 // allocated (reserved) after the peak record
	// AboveStartBytes is Bytes minus Device.Start's allocated (reserved):
	// known even without Totals.
	AboveStartBytes int64
	Ns              int64 // the peak record's time
	Record          int   // index of the peak record in trace.Mem; -1 when the device has none
	Step            int64 // the ProfilerStep#N holding the peak; valid when InStep
	InStep          bool
	Op              string // innermost cpu_op at the peak record on its thread; NoOp when none
	Annotation      string // innermost user_annotation (not ProfilerStep#N); "" when none
	Python          string // innermost python_function; "" when none
}

// StepMemory is one ProfilerStep#N seen from one device.
type StepMemory struct {
	N              int64
	StartNs, EndNs int64
	Start, End     Level // before the step's first record, after its last one (see the package doc)
	GrowthBytes    int64 // End.Allocated - Start.Allocated
	PeakBytes      int64 // the largest allocated inside the step (Start's when no record)
	Allocations    int
	Frees          int
}

// Alive is what was allocated and not yet freed at the peak.
type Alive struct {
	Measured bool // false when the records carry no Addr
	// InTraceBytes and InTraceCount sum the alive allocations made
	// inside the trace.
	InTraceBytes int64
	InTraceCount int
	// BeforeTraceBytes is the rest of the peak: memory allocated before
	// the trace and still held (Peak.Bytes - InTraceBytes); valid with
	// Totals only. BeforeTraceFreedLater counts the pre-trace frees that
	// come after the peak (part of BeforeTraceBytes, with their bytes).
	BeforeTraceBytes           int64
	BeforeTraceFreedLater      int
	BeforeTraceFreedLaterBytes int64
	// Groups: the alive allocations by allocating op, by bytes
	// (descending), then name; all of them (views cut to their top N).
	Groups []AliveGroup
}

// AliveGroup is the alive allocations of one op at the peak.
type AliveGroup struct {
	Op          string
	Bytes       int64
	Count       int
	OldestNs    int64 // the oldest one's allocation time
	OldestAgeNs int64 // the peak's time minus OldestNs
}

// Leak is the leak rule's verdict and the allocations that outlive their step.
type Leak struct {
	// Judged: the rule could be applied (two or more steps, Totals).
	// Reason says why not otherwise.
	Judged bool
	Reason string
	// Flagged: every step grew by more than Share of its start.
	Flagged bool
	Share   float64 // the rule's share (Options.LeakShare), a fraction
	// GrowingSteps counts the steps that grew by more than the share;
	// MinGrowthBytes is the smallest step growth, TotalGrowthBytes the sum.
	GrowingSteps     int
	MinGrowthBytes   int64
	TotalGrowthBytes int64
	// Survivors are the ops whose allocations made inside a step were not
	// freed before that step ended, by bytes (descending), then name;
	// measured with Addrs (else nil).
	Survivors []Survivor
}

// Survivor is one op's allocations that outlived their step.
type Survivor struct {
	Op    string
	Bytes int64 // allocated in a step and not freed by its end
	Count int
	Steps int // steps in which it left some
	// NeverFreedBytes, NeverFreedCount: the part still alive at the end
	// of the trace.
	NeverFreedBytes int64
	NeverFreedCount int
}

// Lifetime is the TensorBoard plugin's memory events table in aggregate:
// one allocating op's allocations on one device.
type Lifetime struct {
	Op         string
	Count      int   // allocations
	Bytes      int64 // their bytes
	MaxBytes   int64 // the largest one
	Freed      int   // freed inside the trace: the lifetimes below are theirs
	MedianNs   int64 // median lifetime (stats.MedianNs) of the freed ones; 0 when none
	MaxNs      int64 // longest lifetime of the freed ones
	NeverFreed int   // still alive at the end of the trace
}

// Point is one record's effect on a device's curve.
type Point struct {
	Ns                  int64
	Allocated, Reserved int64
}
