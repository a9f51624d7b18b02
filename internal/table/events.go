package table

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// fevents is torch's list of FunctionEvents, column-wise: index i is one
// event in list order (sorted by start, then longest first, ties in file
// order), after the tree is built and duplicate nodes removed.
type fevents struct {
	ev     []int32 // trace event index, -1 for a synthetic [memory] event
	key    []int32 // index into keys: the name after ProfilerStep#N -> ProfilerStep*
	keys   []string
	start  []float64 // us from the trace start
	end    []float64
	kind   []trace.Kind
	device []bool  // device_type is not CPU
	ann    []bool  // is_user_annotation
	thread []int32 // thread group (a track index, or -1 for torch's thread "0")

	parent     []int32
	firstChild []int32
	lastChild  []int32
	nextSib    []int32
	nChildren  []int32
	firstKern  []int32 // kernels attached to a CPU event: a list through nextKern
	lastKern   []int32
	kernDur    []float64 // kernel list entries
	nextKern   []int32
	deleted    []bool

	cpuMem, devMem []int64 // nil when the trace has no [memory] events

	evCPUMem, evDevMem []int64 // usage per trace event, while building
}

func (f *fevents) n() int { return len(f.key) }

func isFiltered(name string, v Version) bool {
	switch name {
	case "aten::is_leaf", "aten::output_nr", "aten::_version",
		"profiler::_record_function_enter", "profiler::_record_function_exit":
		return true
	case "[memory]", "[OutOfMemory]", "profiler::_record_function_enter_new":
		return v.AtLeast(1, 9)
	}
	return false
}

func rewriteName(name string) string {
	if strings.HasPrefix(name, "ProfilerStep#") {
		return "ProfilerStep*"
	}
	return name
}

// isFunctionEventKind reports whether events of kind k become FunctionEvents.
func isFunctionEventKind(k trace.Kind) bool {
	return k.IsCPU() || k.IsDevice()
}

// margin returns how far kineto moved gpu_user_annotation spans when it
// wrote them (semantics §1.5h): the span starts a ns before its first
// device op and lasts b ns longer.
func margin(t *trace.Trace, l *trace.Links, i int) (a, b int64) {
	e := t.Ev(i)
	tr := e.Track
	ord := l.Order[l.TrackStart[tr]:l.TrackStart[tr+1]]
	j, _ := slices.BinarySearchFunc(ord, e.Start, func(x int32, s int64) int { return cmp.Compare(t.Ev(int(x)).Start, s) })
	for ; j < len(ord); j++ {
		o := t.Ev(int(ord[j]))
		if o.Kind == trace.KindGPUAnnotation {
			continue
		}
		switch d := o.Start - e.Start; {
		case d == 1000 && !t.FractionalTs:
			return 1000, 1000
		case d == 1000:
			return 1000, 1500
		case d == 1:
			return 1, 2
		}
		return 0, 0
	}
	return 0, 0
}

// mainThread is the track torch gives unlinked runtime and overhead events
// (the thread that stopped the profiler): the tid equal to the pid that
// carries cpu_ops, else the track of the first cpu_op.
func mainThread(t *trace.Trace) int32 {
	first := int32(-1)
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if e.Kind != trace.KindCPUOp {
			continue
		}
		tr := &t.Tracks[e.Track]
		if !tr.Pid.IsStr && !tr.Tid.IsStr && tr.Pid.Int == tr.Tid.Int {
			return e.Track
		}
		if first < 0 {
			first = e.Track
		}
	}
	return first
}
