// Package chain follows the dispatch chain of a trace: from an annotation
// or op down through child ops and runtime calls to the GPU work each call
// launched, or from a kernel up to its launch call, the ops around it, the
// annotation and the profiler step. Times are int64 ns.
//
// The walk is iterative and streamed: Run hands one Item at a time to a
// Sink, so memory stays linear in the trace and the output is bounded by
// Options.MaxLines whatever the nesting depth.
package chain

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// Direction is the way a chain is walked.
type Direction uint8

// Directions.
const (
	Auto Direction = iota // down from CPU events, up from device ops
	Down                  // from an op or annotation down to the device work
	Up                    // from a device op (or a CPU event) up to the top
)

func (d Direction) String() string {
	switch d {
	case Down:
		return "down"
	case Up:
		return "up"
	}
	return "auto"
}

// DeviceOp is GPU work launched by a call.
type DeviceOp struct {
	Event      int32
	Name       string
	Kind       trace.Kind
	Device     int
	Stream     int64
	Corr       int64
	HasCorr    bool
	QueueNs    int64 // GPU start minus launch call start; valid when HasLaunch
	HasLaunch  bool  // the launch call is in the trace
	DurNs      int64
	StartNs    int64 // from the trace start
	Grid       *[3]int32
	Block      *[3]int32
	Regs       int32 // -1 when absent
	SharedMemB int64 // -1 when absent
	Bytes      int64 // -1 when absent
}

// ItemKind says what an Item is.
type ItemKind uint8

// Item kinds.
const (
	ItemEvent      ItemKind = iota // a CPU event: a node of the tree (down) or a frame (up)
	ItemDevice                     // a device op launched by the last ItemEvent
	ItemMoreDevice                 // Count more device ops of the last ItemEvent, not listed
	ItemHop                        // the walk crosses to another thread (down: Count top-level events follow)
)

// Thread names a CPU track by its pid and tid.
type Thread struct {
	Pid, Tid ID
}

// ID is a pid or tid: a number when the trace wrote one (or a string of
// digits), else its text.
type ID struct {
	Num   int64
	Text  string
	IsNum bool
}

func (i ID) String() string {
	if i.IsNum {
		return strconv.FormatInt(i.Num, 10)
	}
	return i.Text
}

// Item is one line of a chain.
type Item struct {
	Kind   ItemKind
	ID     int // ItemEvent: its number within the chain (0 = the root or first frame)
	Parent int // ItemEvent (down): ID of the parent event, -1 for the root
	Depth  int // down: levels below the root; up: frames above the device op
	Last   bool
	Event  int32
	Name   string
	EvKind trace.Kind
	Thread Thread
	// StartNs is from the trace start. OffsetNs: down, start minus the
	// parent's start; up, the child's start minus this frame's start.
	StartNs, OffsetNs, DurNs int64
	SelfNs                   int64 // duration minus the children on its thread (CPU events)
	HasSelf                  bool
	Marks                    []string
	BackwardOf               string
	Launched                 int // ItemEvent: device ops this call launched in all
	Dev                      *DeviceOp
	Count                    int  // ItemMoreDevice: ops not listed; ItemHop: top-level events that follow
	HasChildren              bool // ItemEvent (down): it has events below it on its thread
	CrossThread              bool // ItemEvent (down): a top-level event of another thread, under the annotation whose window holds it
	ByTime                   bool // ItemHop (up): the step was found by time, not by nesting
	OtherThread              bool // ItemHop (up): the step lives on another thread than the frames
}

// Options bound what is shown.
type Options struct {
	MaxDepth       int // down: show at most this many levels below the root (0: all); self times are unchanged
	MaxLines       int // items over the whole output (0: no limit)
	MaxDeviceLines int // device ops listed per call (0: 20)
}

// Sink receives a chain walk. Render implements it for text and JSON.
type Sink interface {
	Begin(s *Selection) error
	BeginChain(c *ChainInfo) error
	Item(it *Item) error
	EndChain(c *ChainInfo) error
	Summary(s *Summary) error
	End(s *Selection, f *Footer) error
}

// ChainInfo describes one followed instance.
type ChainInfo struct {
	Instance  int // 1-based position among Selection.Instances
	Direction Direction
	Of        int   // instances in the selection
	Step      int64 // profiler step holding the instance, -1 if none
	Root      *Item // the root event (down) or the CPU event walked up from; nil up from a device op
	Device    *DeviceOp
	Unlinked  bool // up from a device op with no launch call in the trace

	MaxLines, MaxDepth int // the bounds in force

	// Filled in by the end of the chain:
	OmittedLines     int // items past Options.MaxLines
	HiddenBelowDepth int // events below Options.MaxDepth
}

// Footer closes the output.
type Footer struct {
	Chains           int // chains shown (fully or in part)
	OmittedInstances int // chosen instances not walked because the line budget was spent
	OmittedLines     int // all items not shown
	MaxLines         int
}

func itoa(n int) string { return strconv.Itoa(n) }
