// Package categories files the device time of a trace under op
// categories (table --by category): GEMM, attention, convolution,
// elementwise, reduction/normalisation, communication, memcpy/memset and
// other, in total and per profiler step. What a device op is, opclass
// decides; this package adds the time up. It renders nothing.
package categories

import (
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/trace"
)

// Cell is the device work of one category: the summed durations of its
// kernels, memcpys and memsets (ns as written; overlapping ops count
// each), and how many there were.
type Cell struct {
	DeviceNs int64
	Kernels  int // kernel calls (and memcpy/memset calls in memcpy/memset)
}

// Cells holds one Cell per category, in opclass.Categories order.
type Cells [8]Cell

// Step is one ProfilerStep#N and the device work launched from it (by the
// one definition of trace.Steps: a device op belongs to the step holding
// its launch call's start, or its own start without a launch call).
type Step struct {
	N        int64
	DeviceNs int64 // the sum of the cells
	Kernels  int
	Cells    Cells
}

// Result is the whole trace's device time by category.
type Result struct {
	DeviceNs int64 // every device op counted, the sum of Cells
	Kernels  int
	Cells    Cells
	Steps    []Step // empty when the trace has no ProfilerStep#N
	// Outside is the device work launched outside every step (only when
	// the trace has steps and no range was asked for).
	Outside Cell
	// Unlinked counts the device ops the trace links to no op (no launch
	// call, or a launch outside every cpu_op): opclass files them by
	// their kernel's name.
	Unlinked int
}

// Range selects the steps numbered First to Last; nil: the whole trace.
type Range struct{ First, Last int64 }

// Index is the position of category c in opclass.Categories, -1 if none.
func Index(c opclass.Category) int {
	for k, x := range opclass.Categories {
		if x == c {
			return k
		}
	}
	return -1
}

// LaunchingOp is the name of the cpu_op that launched device op i (the
// innermost cpu_op around its launch call), "" when the trace links it to
// none.
func LaunchingOp(t *trace.Trace, i int) string {
	l := t.Links()
	r := l.Launch[i]
	if r < 0 {
		return ""
	}
	if op := l.Launch[r]; op >= 0 {
		return t.NameOf(int(op))
	}
	return ""
}

// Classify is the category of device op i.
func Classify(t *trace.Trace, i int) opclass.Category {
	e := t.Ev(i)
	return opclass.Of(e.Kind, t.NameOf(i), LaunchingOp(t, i))
}

// Build adds up the device time of t by category; with a range, only the
// device work launched in those steps counts, and only those steps are
// listed.
func Build(t *trace.Trace, sel *Range) *Result {
	steps := t.StepWindows()
	res := &Result{Steps: make([]Step, len(steps))}
	cls := newClassifier(t)
	for k := range steps {
		res.Steps[k].N = steps[k].N
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		k := trace.StepAt(steps, t.LaunchTime(i))
		if sel != nil && (k < 0 || steps[k].N < sel.First || steps[k].N > sel.Last) {
			continue
		}
		c, linked := cls.of(i)
		if !linked {
			res.Unlinked++
		}
		dur := max(e.Dur, 0)
		res.DeviceNs += dur
		res.Kernels++
		res.Cells[c].DeviceNs += dur
		res.Cells[c].Kernels++
		if k < 0 {
			res.Outside.DeviceNs += dur
			res.Outside.Kernels++
			continue
		}
		s := &res.Steps[k]
		s.DeviceNs += dur
		s.Kernels++
		s.Cells[c].DeviceNs += dur
		s.Cells[c].Kernels++
	}
	if sel != nil {
		kept := res.Steps[:0]
		for _, s := range res.Steps {
			if s.N >= sel.First && s.N <= sel.Last {
				kept = append(kept, s)
			}
		}
		res.Steps = kept
	}
	return res
}

// classifier is Classify remembered per kind, device op name and
// launching op name: opclass.Of reads names with regular expressions,
// too slow to run on each of millions of device ops that share a few
// hundred names.
type classifier struct {
	t    *trace.Trace
	l    *trace.Links
	seen map[classKey]classVal
}

type classKey struct {
	kind  trace.Kind
	name  trace.StrID
	op    trace.StrID
	hasOp bool
}

type classVal struct {
	cat    int
	linked bool // the launching op has a name (LaunchingOp is not "")
}

func newClassifier(t *trace.Trace) *classifier {
	return &classifier{t: t, l: t.Links(), seen: map[classKey]classVal{}}
}

// of is device op i's category (its index in opclass.Categories) and
// whether the trace links it to a launching op: Index(Classify(t, i)) and
// LaunchingOp(t, i) != "".
func (c *classifier) of(i int) (int, bool) {
	e := c.t.Ev(i)
	k := classKey{kind: e.Kind, name: e.Name}
	if r := c.l.Launch[i]; r >= 0 {
		if op := c.l.Launch[r]; op >= 0 {
			k.op, k.hasOp = c.t.Ev(int(op)).Name, true
		}
	}
	v, ok := c.seen[k]
	if !ok {
		op := ""
		if k.hasOp {
			op = c.t.Str(k.op)
		}
		v = classVal{cat: Index(opclass.Of(e.Kind, c.t.Str(e.Name), op)), linked: op != ""}
		c.seen[k] = v
	}
	return v.cat, v.linked
}
