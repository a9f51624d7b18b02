// Package gaps answers where the GPU waits and why: busy and idle time per
// device and stream, HTA's idle categories, each idle stretch with the
// cause read from what the launching thread did, one verdict over one
// stated denominator, torch's step-time breakdown, the launch latency of
// every device op, and the dead windows on the CPU lane. All times are
// int64 ns.
package gaps

import (
	"slices"

	istats "github.com/tracetab/tracetab/internal/stats"
)

// Options select what to analyse.
type Options struct {
	Device int   // -1: all devices
	Stream int64 // -1: all streams
	MinGap int64 // ns: shorter idle stretches are not listed (they still count as idle)
	Top    int   // gaps and dead windows to list per device
	// AllGaps lists every gap of at least MinGap, whatever Top (which
	// still bounds the dead windows and blocking calls listed).
	AllGaps bool
	StepLo  int64 // with HasStep: only profiler steps StepLo..StepHi
	StepHi  int64
	HasStep bool
	// LinkedOnly counts only device ops whose launch call is in the trace
	// (TraceLens's timeline does this); by default all device work counts.
	LinkedOnly bool
	// HTA computes the idle categories as HTA 0.6.1 does (see IdleReport).
	HTA bool
	// AllThreads lists dead windows on every CPU thread, not only those that
	// launch GPU work or carry the step annotations.
	AllThreads bool
	// Cells, when > 0, cuts each step's GPU window into that many cells
	// with the busy time in each (Report.StepCells: the text's sparklines),
	// in the pass that makes the step rows.
	Cells int
	// MaxQueue is the launch queue length counted as full (Queue.FullNs);
	// 0: QueueLimit, HTA's default.
	MaxQueue int

	// LazyGaps leaves Report.Gaps empty: Report.EachGap resolves the
	// listed gaps one at a time (export's rows of every gap).
	LazyGaps bool
}

// Lane is the busy/idle summary of one device or one stream.
type Lane struct {
	Device   int
	Stream   int64 // -1 for the whole device
	StartNs  int64 // first device op start (offset from the trace start)
	EndNs    int64 // last device op end
	WindowNs int64
	BusyNs   int64 // union of kernel, memcpy and memset intervals
	IdleNs   int64
	KernelNs int64 // sums of durations per kind (they may overlap)
	MemcpyNs int64
	MemsetNs int64
	Ops      int
}

// BusyPct is busy time as a share of the window.
func (l *Lane) BusyPct() float64 {
	if l.WindowNs == 0 {
		return 0
	}
	return float64(l.BusyNs) * 100 / float64(l.WindowNs)
}

// Edge says where an idle stretch lies in the profiled span.
type Edge uint8

// Edges of a gap.
const (
	Between     Edge = iota // between two device ops
	BeforeFirst             // span start to the first op
	AfterLast               // last op end to the span end
)

// Gap is one idle stretch on a device.
type Gap struct {
	Device  int
	StartNs int64 // offset from the trace start
	LenNs   int64
	Edge    Edge
	Kind    IdleKind // HTA's category on the device lane (Between only)
	// StepBefore and StepAfter are the steps of the ops on either side, by
	// the step their launch call ran in (-1: none); equal inside a step.
	StepBefore, StepAfter int64
	Before, After         string
	Cause                 Cause
	CausePct              float64 // the cause's share of the gap
	Shares                [numCauses]int64
	// Activity is the event named for the cause: the innermost event
	// covering most of the gap, the launch call, the start-up call or the
	// profiler's event ("" when none); ActivityPct is the share of the gap
	// it holds for the cause (at most CausePct).
	Activity    string
	ActivityPct float64
	Note        string // "pipeline drained at a sync (cudaStreamSynchronize)"
	LaunchLagNs int64  // next op's launch start minus gap start (host waits: > 0)
	// The next op's launch call (HasLaunchCall), its duration, and whether
	// it was running when the GPU went idle (a blocking launch).
	LaunchCall     string
	LaunchCallNs   int64
	HasLaunchCall  bool
	BlockingLaunch bool
	InputPrepNs    int64 // of the input share: input preparation outside the DataLoader
	// HostActivity is, for a queued gap, what the launching thread did
	// meanwhile: the innermost event covering most of the gap.
	HostActivity    string
	HostActivityPct float64
	// OtherStreamBusyNs is how long another stream of the device was busy
	// during the gap; only --stream leaves other streams out of the lane
	// (a device gap is otherwise every stream idle).
	OtherStreamBusyNs int64
}

// LatencyStats summarise launch-to-start delays (ns).
type LatencyStats struct {
	Name   string
	Count  int
	MinNs  int64
	MedNs  int64
	P90Ns  int64
	MaxNs  int64
	MeanNs float64
}

// DeadWindow is time inside an op or annotation before its first child
// starts, or between two top-level ops on a thread.
type DeadWindow struct {
	Thread  string
	Inside  string // the op or annotation ("" for a gap between top-level ops)
	After   string // the op before a gap between top-level ops
	StartNs int64
	LenNs   int64
	Step    int64
}

// StepLane is one profiler step seen from both lanes.
type StepLane struct {
	Step    int64
	StartNs int64
	CPUNs   int64
	// the step's share of the verdict's GPU time (trace.FillGPU): summed
	// over the steps, GPUBusyNs and GPUIdleNs are the verdict's busy and
	// idle time
	GPUWindowNs int64
	GPUBusyNs   int64
	GPUIdleNs   int64
	LargestGap  int64
	Cold        bool
}

// Report is the whole analysis.
type Report struct {
	Devices       []Lane
	Streams       []Lane
	Queues        []Queue // the launch queue of each of Streams, in its order
	Idle          IdleReport
	Gaps          []Gap
	Latency       LatencyStats
	LatencyByName []LatencyStats
	LaneOffsetNs  int64 // first device op start minus its launch call start
	HasLaneOffset bool
	Dead          []DeadWindow
	Steps         []StepLane
	StepCells     []StepCells // with Options.Cells, one per step row
	Breakdown     *Breakdown
	Efficiency    *Efficiency // the plugin's GPU Summary per device (effwindow.go)
	Verdict       Verdict
	UnlinkedOps   int
	NoGPU         bool
	Syncs         []Sync
	Narrowed      string // "device 0", "stream 7": the verdict covers only that

	lazy *lazyGaps // with Options.LazyGaps (eachgap.go)
}

// Sync is one blocking call on the CPU and the GPU work it waited for.
type Sync struct {
	Name      string
	StartNs   int64
	DurNs     int64
	GPUBusyNs int64 // GPU work that ran during the call
}

func percentile(sorted []int64, p float64) int64 { return istats.NearestRank(sorted, p) }

func stats(name string, d []int64) LatencyStats {
	if !slices.IsSorted(d) {
		slices.Sort(d)
	}
	var sum int64
	for _, x := range d {
		sum += x
	}
	return LatencyStats{Name: name, Count: len(d), MinNs: d[0], MedNs: percentile(d, 0.5), P90Ns: percentile(d, 0.9),
		MaxNs: d[len(d)-1], MeanNs: float64(sum) / float64(len(d))}
}
