// Package trace is tracetab's model of a PyTorch profiler Chrome trace: the
// events of every lane, their names, the CPU threads and GPU streams they ran
// on, and the links between a device op and the call that launched it.
//
// All times are int64 nanoseconds. Event.Start is the value of "ts" as the
// file wrote it, converted exactly from its decimal text; when the trace has a
// baseTimeNanoseconds key, absolute time is Base + Start.
package trace

import (
	"math"
	"sync"
)

// Kind classifies an event by its "cat" across every era of the format.
type Kind uint8

// The event kinds. The spellings each one covers are listed in KindOf.
const (
	KindOther         Kind = iota // an X event whose category tracetab does not know
	KindCPUOp                     // cpu_op, Operator (2021), legacy "CPU functions" events
	KindAnnotation                // user_annotation: record_function, ProfilerStep#N
	KindPython                    // python_function
	KindRuntime                   // cuda_runtime, Runtime (2021), xpu_runtime, ...
	KindDriver                    // cuda_driver, xpu_driver, ...
	KindOverhead                  // overhead: CUPTI's own activity
	KindKernel                    // kernel, Kernel
	KindMemcpy                    // gpu_memcpy, Memcpy
	KindMemset                    // gpu_memset, Memset
	KindGPUAnnotation             // gpu_user_annotation, gpu_user_Annotation, User
	KindSync                      // cuda_sync
	KindProfilerRange             // cuda_profiler_range
	KindTraceSpan                 // Trace: the "PyTorch Profiler (N)" span
	numKinds
)

var kindNames = [numKinds]string{
	"other", "cpu_op", "user_annotation", "python_function", "runtime", "driver", "overhead",
	"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "cuda_sync", "cuda_profiler_range", "trace_span",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "invalid"
}

// KindOf maps a category string of any era to its Kind.
func KindOf(cat string) Kind {
	switch cat {
	case "cpu_op", "Operator", "operator":
		return KindCPUOp
	case "user_annotation":
		return KindAnnotation
	case "python_function":
		return KindPython
	case "cuda_runtime", "Runtime", "runtime", "xpu_runtime", "privateuse1_runtime", "mtia_runtime", "glow_runtime", "hpu_runtime":
		return KindRuntime
	case "cuda_driver", "xpu_driver", "privateuse1_driver", "mtia_driver":
		return KindDriver
	case "overhead", "Overhead":
		return KindOverhead
	case "kernel", "Kernel", "xpu_kernel", "mtia_ccp_events":
		return KindKernel
	case "gpu_memcpy", "Memcpy", "xpu_memcpy":
		return KindMemcpy
	case "gpu_memset", "Memset", "xpu_memset":
		return KindMemset
	case "gpu_user_annotation", "gpu_user_Annotation", "User":
		return KindGPUAnnotation
	case "cuda_sync":
		return KindSync
	case "cuda_profiler_range":
		return KindProfilerRange
	case "Trace", "trace":
		return KindTraceSpan
	}
	return KindOther
}

// IsDevice reports whether events of this kind run on a GPU lane.
func (k Kind) IsDevice() bool {
	return k >= KindKernel && k <= KindProfilerRange
}

// IsDeviceWork reports whether the kind is real device work: kernels,
// memcpys and memsets. GPU annotation spans and syncs are not work.
func (k Kind) IsDeviceWork() bool {
	return k == KindKernel || k == KindMemcpy || k == KindMemset
}

// IsCPU reports whether events of this kind run on a CPU thread.
func (k Kind) IsCPU() bool {
	return k >= KindCPUOp && k <= KindOverhead
}

// IsLaunch reports whether the kind can launch device work (runtime and driver calls).
func (k Kind) IsLaunch() bool {
	return k == KindRuntime || k == KindDriver
}

// StrID is the index of an interned string in Trace.Strings. 0 is "".
type StrID uint32

// Event flags.
const (
	FlagExtID      uint8 = 1 << iota // args had "External id"
	FlagLowerExtID                   // args had lower-case "external id" (2021 traces: the linked op's id)
	FlagCorr                         // args had "correlation"
	FlagUnfinished                   // args had "finished": "false"
	FlagTsString                     // ts or dur was written as a JSON string
)

// Event is one complete ("ph":"X") event. It is kept small: a 1 GB trace holds
// millions of them. Rarely present arguments live in Trace.Extras.
type Event struct {
	Start int64 // ts in ns, as written (relative to Trace.Base when Base != 0)
	Dur   int64 // dur in ns, >= 0
	Name  StrID
	Track int32 // index into Trace.Tracks
	Extra int32 // index into Trace.Extras, -1 when none
	// ext is "External id" (or "external id" when FlagLowerExtID) and corr
	// "correlation", read through Trace.ExtIDOf and Trace.CorrOf: a value
	// from 0 to MaxInt32 as itself, any other as -(k+1) for Trace.BigIDs[k]
	// (ids are small counters in practice; the event is 40 bytes, not 48).
	ext, corr int32
	Kind      Kind
	Flags     uint8
}

// End is Start + Dur.
func (e *Event) End() int64 { return e.Start + e.Dur }

// ExtIDOf is e's "External id" (0 when absent; see FlagExtID).
func (t *Trace) ExtIDOf(e *Event) int64 { return t.idOf(e.ext) }

// CorrOf is e's "correlation" (0 when absent; see FlagCorr).
func (t *Trace) CorrOf(e *Event) int64 { return t.idOf(e.corr) }

func (t *Trace) idOf(v int32) int64 {
	if v >= 0 {
		return int64(v)
	}
	return t.BigIDs[-int64(v)-1]
}

// SetIDs stores e's External id and correlation (an id that does not fit
// the event goes to t.BigIDs).
func (t *Trace) SetIDs(e *Event, ext, corr int64) {
	e.ext, e.corr = t.packID(ext), t.packID(corr)
}

func (t *Trace) packID(v int64) int32 {
	if v >= 0 && v <= math.MaxInt32 {
		return int32(v)
	}
	t.BigIDs = append(t.BigIDs, v)
	return int32(-len(t.BigIDs))
}

// MoveIDs gives e, an event of from, its ids in t (from's BigIDs are not
// t's): a reader merging another trace's events calls it for each.
func (t *Trace) MoveIDs(e *Event, from *Trace) {
	if e.ext < 0 || e.corr < 0 {
		t.SetIDs(e, from.ExtIDOf(e), from.CorrOf(e))
	}
}

// Has reports whether flag f is set.
func (e *Event) Has(f uint8) bool { return e.Flags&f != 0 }

// Extra holds the arguments only some events have: shapes and stacks of ops.
// Strings are interned; shapes are compact JSON text.
type Extra struct {
	InputDims  StrID // "Input Dims" (1.8: "Input dims") as compact JSON, 0 when absent
	InputTypes StrID // "Input type" as compact JSON, 0 when absent
	Stack      StrID // "Call stack", 0 when absent
	Aux        int32 // index into Trace.Aux, -1 when none
	// Concrete is "Concrete Inputs" (torch 2.1+: scalar arguments as
	// strings, "" for tensors) as compact JSON, 0 when absent.
	Concrete StrID
}

// Aux holds the arguments of device ops: launch parameters, bytes moved,
// a collective's process group and sequence number. A Python frame's
// "Python id" and "Python parent id" are not kept: no view reads them (its
// frames nest by time, as the call stacks do), and as every frame's are
// its own, each frame stored an Aux of its own (150 bytes; 52 thousand
// frames of the 200 MB default bench shape: export's peak RSS 106 -> 91
// MiB without them).
type Aux struct {
	Grid      [3]int32
	Block     [3]int32
	Regs      int32 // registers per thread, -1 when absent
	PG        StrID // "Process Group Name" (or "pg_name") of a collective, 0 when absent
	SharedMem int64 // shared memory bytes, -1 when absent
	Bytes     int64 // memcpy/memset bytes, -1 when absent
	Seq       int64 // "Seq" (or "seq") of a collective in its process group, -1 when absent
	// The size of a collective (record_param_comms and, from torch 2.2,
	// its kernel): "Collective name", "dtype", "In msg nelems", "Out msg
	// nelems", "Group size"; 0 or -1 when absent.
	Coll      StrID
	Dtype     StrID
	InNelems  int64
	OutNelems int64
	GroupSize int64
	// WaitStream and WaitRecord are what a cuda_sync event waited on
	// ("wait_on_stream", "wait_on_cuda_event_record_corr_id": the stream an
	// event was recorded on and the correlation id of its cudaEventRecord
	// call), -1 when absent.
	WaitStream int64
	WaitRecord int64
	// BlocksPerSM and OccupancyPct are a kernel's "blocks per SM" and "est.
	// achieved occupancy %" (Kineto on CUDA) as fixed-point numbers in
	// units of 1e-9 (Nano): exact for up to 9 decimals, more are cut;
	// NoValue when absent.
	BlocksPerSM  int64
	OccupancyPct int64
	HasLaunch    bool // grid/block were present
}

// NoValue marks an absent fixed-point arg of Aux.
const NoValue = math.MinInt64

// Nano is the unit of Aux's fixed-point args: 1 is Nano of them.
const Nano = 1_000_000_000

// NewAux returns an Aux with every "absent" marker set.
func NewAux() Aux {
	return Aux{Regs: -1, SharedMem: -1, Bytes: -1, Seq: -1, InNelems: -1, OutNelems: -1, GroupSize: -1, WaitStream: -1, WaitRecord: -1, BlocksPerSM: NoValue, OccupancyPct: NoValue}
}

// ID is a pid or tid as the trace wrote it: an integer or a string.
type ID struct {
	Str   StrID // non-zero when the value was a string
	Int   int64
	IsStr bool
}

// TrackKind says what a track is.
type TrackKind uint8

// Track kinds.
const (
	TrackCPU    TrackKind = iota // an OS thread (or a pseudo-thread such as pid -1 overhead)
	TrackDevice                  // a GPU stream (pid = device, tid = stream)
	TrackOther                   // spans, metadata-only tracks
)

// Track is one lane of the trace: a CPU thread or a GPU stream.
type Track struct {
	Pid, Tid ID
	Kind     TrackKind
	Device   int   // GPU tracks: device index
	Stream   int64 // GPU tracks: stream id (from the tid, "stream 7" or 7)
	Name     string
}

// FlowKind classifies flow events.
type FlowKind uint8

// Flow kinds.
const (
	FlowLaunch FlowKind = iota // ac2g, async_gpu, async_cpu_to_gpu, async (2021): CPU launch -> GPU op
	FlowFwdBwd                 // fwdbwd, fwd_bwd, forward_backward
	FlowOther
)

// Flow is one end of a flow arrow ("ph" s, t or f).
type Flow struct {
	ID    int64
	Ts    int64
	Track int32
	Kind  FlowKind
	Phase byte // 's', 't' or 'f'
}

// MemEvent is a "[memory]" or "[OutOfMemory]" instant (profile_memory=True).
type MemEvent struct {
	Ts            int64
	Bytes         int64 // negative for frees
	TotalAlloc    int64 // "Total Allocated" after this record (MemHasTotal)
	TotalReserved int64 // "Total Reserved" after this record (MemHasReserved)
	Addr          int64 // "Addr" (MemHasAddr; torch writes it from 1.10 on)
	Track         int32
	DevType       int8 // c10::DeviceType: 0 CPU, 1 CUDA, 2 MKLDNN, 5 IDEEP, 6 HIP, 12 XPU, 20 PrivateUse1
	DevID         int8
	OOM           bool
	Has           uint8 // which of the optional args were present: MemHasTotal, MemHasReserved, MemHasAddr
}

// MemEvent.Has flags: the args a record carried (2021 traces have only
// Device Type, Device Id and Bytes).
const (
	MemHasTotal    uint8 = 1 << iota // "Total Allocated"
	MemHasReserved                   // "Total Reserved"
	MemHasAddr                       // "Addr"
)

// DeviceProp is one entry of the top-level deviceProperties list.
type DeviceProp struct {
	ID           int
	Name         string
	TotalMem     int64
	NumSMs       int
	ComputeMajor int
	ComputeMinor int
}

// DistInfo is the top-level distributedInfo object.
type DistInfo struct {
	Present   bool
	Backend   string
	Rank      int64
	WorldSize int64
}

// Trace is a whole trace file in memory.
type Trace struct {
	File      string // the path given by the user ("-" for stdin)
	Container string // "object" or "array"
	Base      int64  // baseTimeNanoseconds, 0 when absent
	HasBase   bool

	Strings     []string     // interned strings; Strings[0] == ""
	Events      Store[Event] // X events in file order
	Extras      Store[Extra]
	Aux         Store[Aux]
	BigIDs      []int64 // the events' ids that do not fit an Event (see Event.ext)
	Tracks      []Track
	Flows       []Flow // fwdbwd and other flows; launch (ac2g) flows are only counted
	LaunchFlows int
	Mem         []MemEvent
	MemRecords  int // [memory] and [OutOfMemory] records read (Mem holds them unless the reader skipped them)
	Devices     []DeviceProp
	Dist        DistInfo

	// Meta holds top-level scalar keys (schemaVersion, displayTimeUnit,
	// cupti_version, record_shapes, trace_id, ...) as their JSON text.
	Meta map[string]string

	// TraceStart is the ts of the "PyTorch Profiler (N)" span (torch's
	// trace_start) when present; else the smallest event start.
	TraceStart   int64
	HasTraceSpan bool
	WindowEnd    int64 // ts of "Record Window End", when present and plausible
	HasWindowEnd bool
	FractionalTs bool // some ts or dur had decimals (ns era)
	LegacyExport bool // bare array with pid "CPU functions" (torch's non-Kineto exporter)
	LowerExtID   bool // some event had lower-case "external id" (2021 eras)
	EvIdx        bool // some op had "Ev Idx" or "Profiler Event Index" (torch >= 1.13)
	ProcessNames map[int64]string
	Instants     int // other instant events (ph i/I/n)
	Counters     int // ph C
	MetaEvents   int // ph M
	OtherPhases  int // anything else
	Truncated    bool
	BytesRead    int64
	CatCounts    map[string]int // X events per "cat" as written ("" when absent)
	Warnings     []Warning
	linkOnce     sync.Once
	linkCache    *Links
	// parts of the links left out (OmitFromLinks)
	linkNoParent, linkNoLaunched bool
	stepOnce                     sync.Once
	stepCache                    []Step
}

// Str returns the interned string with id s.
func (t *Trace) Str(s StrID) string { return t.Strings[s] }

// Ev returns event i.
func (t *Trace) Ev(i int) *Event { return t.Events.At(i) }

// NumEvents is the number of X events.
func (t *Trace) NumEvents() int { return t.Events.Len() }

// NameOf returns the name of event i.
func (t *Trace) NameOf(i int) string { return t.Strings[t.Events.At(i).Name] }

// ExtraOf returns the Extra of event i, or nil.
func (t *Trace) ExtraOf(i int) *Extra {
	x := t.Events.At(i).Extra
	if x < 0 {
		return nil
	}
	return t.Extras.At(int(x))
}

// AuxOf returns the Aux of event i, or nil.
func (t *Trace) AuxOf(i int) *Aux {
	x := t.ExtraOf(i)
	if x == nil || x.Aux < 0 {
		return nil
	}
	return t.Aux.At(int(x.Aux))
}

// Warning is a problem that did not stop the load. Repeats are counted.
type Warning struct {
	Key    string // stable identifier, e.g. "control-char"
	Msg    string // first occurrence, with its byte offset
	Count  int
	Offset int64
}

// Warn records a warning; repeats of the same key are counted.
func (t *Trace) Warn(key string, off int64, msg string) {
	for i := range t.Warnings {
		if t.Warnings[i].Key == key {
			t.Warnings[i].Count++
			return
		}
	}
	t.Warnings = append(t.Warnings, Warning{Key: key, Msg: msg, Count: 1, Offset: off})
}
