// Package chain follows the dispatch chain of a trace: from an annotation
// or op down through child ops and runtime calls to the GPU work each call
// launched, or from a kernel up to its launch call, the ops around it, the
// annotation, the profiler step and the Python frames. Times are int64 ns.
package chain

import (
	"regexp"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Node is one hop of a chain.
type Node struct {
	Event      int32 // trace event index
	Name       string
	Kind       trace.Kind
	OffsetNs   int64 // start minus the parent's start (down), or minus the child's start (up)
	StartNs    int64 // from the trace start
	DurNs      int64
	SelfNs     int64 // duration minus children (CPU events)
	Marks      []string
	BackwardOf string // the forward op, when a fwdbwd flow lands here
	Children   []*Node
	Launched   []*DeviceOp // device work this runtime or driver call launched
}

// DeviceOp is GPU work launched by a call.
type DeviceOp struct {
	Event     int32
	Name      string
	Kind      trace.Kind
	Device    int
	Stream    int64
	QueueNs   int64 // GPU start minus launch call start
	DurNs     int64
	StartNs   int64 // from the trace start
	Grid      *[3]int32
	Block     *[3]int32
	Regs      int32
	SharedMem int64
	Bytes     int64
}

// Options select what to follow.
type Options struct {
	Pattern  *regexp.Regexp // nil: the first complete profiler step
	Step     int64          // with HasStep: only instances in ProfilerStep#Step
	HasStep  bool
	Instance int  // 1-based instance to show (default 1)
	All      bool // every instance
	MaxDepth int  // 0: no limit
}

// Chain is one followed instance.
type Chain struct {
	Direction string // "down" from an op or annotation, "up" from a device op
	Root      *Node  // down: the matched event and its subtree
	Kernel    *DeviceOp
	Up        []*Node // up: launch call first, then ops outward, then the step
	Unlinked  bool    // up: the device op has no launch call in the trace
	Step      int64   // profiler step holding the instance, -1 if none
}

// Result is what chain found.
type Result struct {
	Chains  []*Chain
	Matches int // instances that matched (before --instance/--step selection)
	Pattern string
	Summary *Summary
}

func isLaunch(name string) bool {
	return strings.Contains(name, "LaunchKernel") || strings.Contains(name, "GraphLaunch") ||
		strings.HasPrefix(name, "cuLaunch") || strings.Contains(name, "LaunchCooperativeKernel") ||
		strings.Contains(name, "ModuleLaunchKernel")
}

// marks names the patterns the cheat sheet teaches.
func marks(t *trace.Trace, name string, kind trace.Kind, prevSibling string, launched []*DeviceOp) []string {
	var m []string
	switch {
	case strings.HasPrefix(name, "cudaOccupancy") || strings.HasPrefix(name, "hipOccupancy"):
		m = append(m, "occupancy query: the library is picking a kernel variant")
	case kind.IsLaunch() && trace.IsBlockingCall(name):
		m = append(m, "blocking: the CPU waits for the GPU")
	}
	if kind.IsLaunch() && (strings.HasPrefix(prevSibling, "cudaOccupancy") || strings.HasPrefix(prevSibling, "hipOccupancy")) && isLaunch(name) {
		m = append(m, "launch after an occupancy query (GEMM-like)")
	}
	if trace.IsGraphLaunch(name) && len(launched) > 0 {
		m = append(m, "graph launch: one call, "+itoa(len(launched))+" device ops")
	}
	return m
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
