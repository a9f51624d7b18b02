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
//
// Only what cannot be read back from the trace is stored: the name key,
// kind, start and end of an event are derived from its trace event when
// needed (at, span, keyAt), so a table costs about 21 bytes per event on
// top of the trace: the trace index, the kernel sum, flags, and two tree
// links that reuse the memory of the positions and threads (buildTree).
type fevents struct {
	t      *trace.Trace
	start0 int64   // the trace start in ns; times are us from it
	ev     []int32 // trace event index; ^k for the synthetic [memory] event of t.Mem[k]
	// gpuAnn holds the spans (ns as written, margin undone) of GPU
	// annotation events, by trace index.
	gpuAnn map[int32][2]int64

	keyer
	rowsHint int // a bound, near, on the rows keyed by name (lister.rowsHint)
	// ready, when the tree is built beside the averaging, receives
	// positions w: every position before w is final in the tree (left
	// every stack, so its subtree and its flags are final too), the last
	// one the list's length.
	ready chan int
	// treeDone, when the tree is built beside the averaging, is closed
	// once its goroutine ends (treeBuilt: it built the tree; treeWait
	// raises its panic again)
	treeDone  chan struct{}
	treeBuilt bool
	treeWait  func()

	thread []int32 // thread group (a track index, or -1 for torch's thread "0"); nil after the tree is built (nextSib has its memory)

	// kdev is, for a CPU event, the sum of the durations of the device ops
	// attached to it (torch's kernels), in attach order; buildTree turns it
	// into device_time_total in place (finish). Nil in an attribution
	// (Attribute), which reads owner instead.
	kdev       []float64
	firstChild []int32
	nextSib    []int32
	flags      []uint8 // feDeleted, feHasParent, feUnlinked

	mem *memIndex // the [memory] records in time order; nil when the trace has none

	// owner is, for a device op, the position of the event its duration is
	// attached to (the first candidate of attach), -1 when none; merged maps
	// an event merged into its parent (finish) to that parent. Both are nil
	// unless Attribute asked for them.
	owner  []int32
	merged map[int32]int32
}

// Event flags.
const (
	feDeleted   uint8 = 1 << iota // merged into its parent by _remove_dup_nodes
	feHasParent                   // has a CPU parent (not top level)
	feUnlinked                    // a runtime or driver call no op launched (linkOf is 0)
)

func (f *fevents) n() int { return len(f.ev) }

func (f *fevents) deleted(i int) bool { return f.flags[i]&feDeleted != 0 }

// span is the event's (start, end) in us from the trace start, as torch's
// FunctionEvent has them.
func (f *fevents) span(i int) (s, e float64) {
	x := f.ev[i]
	if x < 0 {
		ts := float64(f.t.Mem[^x].Ts-f.start0) / 1000
		return ts, ts
	}
	ev := f.t.Ev(int(x))
	a, b := ev.Start, ev.End()
	if ev.Kind == trace.KindGPUAnnotation {
		se := f.gpuAnn[x]
		a, b = se[0], se[1]
	}
	return float64(a-f.start0) / 1000, float64(b-f.start0) / 1000
}

// at is what FunctionEvent i takes from its trace event, read once: its
// kind, name key and span (as span gives it).
func (f *fevents) at(i int) (kind trace.Kind, key int32, s, e float64) {
	x := f.ev[i]
	if x < 0 {
		s, e = f.span(i)
		return trace.KindCPUOp, f.keyAt(i), s, e
	}
	ev := f.t.Ev(int(x))
	if ev.Kind == trace.KindGPUAnnotation {
		s, e = f.span(i)
		return ev.Kind, f.keyOf(ev.Name), s, e
	}
	return ev.Kind, f.keyOf(ev.Name), float64(ev.Start-f.start0) / 1000, float64(ev.End()-f.start0) / 1000
}

// dur is end - start of event i in us.
func (f *fevents) dur(i int) float64 {
	s, e := f.span(i)
	return e - s
}

func isAnnKind(k trace.Kind) bool {
	return k == trace.KindAnnotation || k == trace.KindGPUAnnotation
}

// keyer maps names to torch's row keys (keys, numbered as first seen),
// once per string id.
type keyer struct {
	keyIDs   []int32 // string id -> index into keys, -1 until first seen
	keys     []string
	keyIndex map[string]int32
}

func newKeyer(t *trace.Trace) keyer {
	return keyer{keyIDs: fill32(len(t.Strings), -1), keyIndex: map[string]int32{}}
}

// kindAt is the kind of position i (a synthetic [memory] event is a cpu_op).
func (f *fevents) kindAt(i int) trace.Kind {
	if x := f.ev[i]; x >= 0 {
		return f.t.Ev(int(x)).Kind
	}
	return trace.KindCPUOp
}

// sameKey reports whether positions i and j have one row key name
// (keyAt(i) == keyAt(j)) without numbering either: the tree compares a
// parent with its only child, beside the averaging, which numbers the
// keys as it goes (a keyer of the tree's own doubled the keys of a trace
// of a million distinct names: +1.9 s and +300 MB on 1e6 nested ops).
func (f *fevents) sameKey(i, j int) bool {
	if x, y := f.ev[i], f.ev[j]; x >= 0 && y >= 0 && f.t.Ev(int(x)).Name == f.t.Ev(int(y)).Name {
		return true // one string id: the rewrite need not be read
	}
	return f.keyName(i) == f.keyName(j)
}

// keyName is the row key name of position i (keys[keyAt(i)]).
func (f *fevents) keyName(i int) string {
	x := f.ev[i]
	if x < 0 {
		if f.t.Mem[^x].OOM {
			return "[OutOfMemory]"
		}
		return "[memory]"
	}
	return rewriteName(f.t.Str(f.t.Ev(int(x)).Name))
}

// keyAt is the index into keys of event i's name.
func (f *fevents) keyAt(i int) int32 { return f.keyer.at(f, i) }

func (f *fevents) keyByName(s string) int32 { return f.keyer.byName(s) }

func (f *fevents) keyOf(name trace.StrID) int32 { return f.keyer.of(f.t, name) }

// at is the key of list position i of f.
func (k *keyer) at(f *fevents, i int) int32 {
	if x := f.ev[i]; x >= 0 {
		return k.of(f.t, f.t.Ev(int(x)).Name) // once per string id
	}
	return k.byName(f.keyName(i))
}

func (k *keyer) byName(s string) int32 {
	id, ok := k.keyIndex[s]
	if !ok {
		id = int32(len(k.keys))
		k.keys = append(k.keys, s)
		k.keyIndex[s] = id
	}
	return id
}

func (k *keyer) of(t *trace.Trace, name trace.StrID) int32 {
	if id := k.keyIDs[name]; id >= 0 {
		return id
	}
	id := k.byName(rewriteName(t.Str(name)))
	k.keyIDs[name] = id
	return id
}

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
