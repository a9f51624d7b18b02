package table

import "github.com/tracetab/tracetab/internal/trace"

// Attribution is table's attribution of device time to CPU events, for the
// models that need an op's device time in integer nanoseconds (roofline):
// the FunctionEvent tree that Compute builds (torch's list order, children
// after their parent, same-named only children merged into their parent)
// and, for each device op, the event it is attached to (torch's
// device_corr_map: the op whose External id the device op is linked to;
// else, where the recording torch's rules make it one, the runtime call of
// its correlation id). An op's device time is then the device ops attached
// to it and to the events below it: each device op counts once, at one
// place in the tree, where Compute's device_time_total would also count it
// in a linked runtime call's total in 1.13-2.3 rules.
type Attribution struct {
	f *fevents
	// Rebuilt is the torch whose rules rebuilt the events.
	Rebuilt Version
}

// Attribute builds the attribution with o's torch and steps (the grouping,
// sort and name filters of o do not apply).
func Attribute(t *trace.Trace, o Options) *Attribution {
	rec := RecordingOf(t)
	v := o.Torch
	if v == (Version{}) {
		v = rec.Default()
	}
	rv := rec.Rebuild(v)
	var keep, keepMem []bool
	if o.HasSteps {
		keep, keepMem = stepMask(t, o.StepLo, o.StepHi)
	}
	f := buildWith(t, rv, keep, keepMem, true)
	// an event merged into a parent that was merged in turn stands for the
	// last one: resolve each chain once (path compression), so Owner is
	// O(1) however deep a run of same-named events nests
	final := func(o int32) int32 {
		root := o
		for root >= 0 && f.deleted(int(root)) {
			root = f.merged[root]
		}
		for o >= 0 && f.deleted(int(o)) {
			next := f.merged[o]
			f.merged[o] = root
			o = next
		}
		return root
	}
	for p, o := range f.owner {
		if o >= 0 && f.deleted(int(o)) {
			f.owner[p] = final(o)
		}
	}
	return &Attribution{f: f, Rebuilt: rv}
}

// Len is the number of events in the list.
func (a *Attribution) Len() int { return a.f.n() }

// Event is the trace index of event p, -1 for a synthetic [memory] event.
func (a *Attribution) Event(p int) int {
	if x := a.f.ev[p]; x >= 0 {
		return int(x)
	}
	return -1
}

// Merged reports whether event p was merged into its parent (it is in no
// child list; Owner never returns it).
func (a *Attribution) Merged(p int) bool { return a.f.deleted(p) }

// FirstChild is the first CPU child of event p, -1 when none.
func (a *Attribution) FirstChild(p int) int { return int(a.f.firstChild[p]) }

// NextSibling is the next child of p's parent, -1 after the last.
func (a *Attribution) NextSibling(p int) int { return int(a.f.nextSib[p]) }

// HasParent reports whether event p has a CPU parent.
func (a *Attribution) HasParent(p int) bool { return a.f.flags[p]&feHasParent != 0 }

// Owner is, for a device op p, the event its time is attached to (an
// event merged into its parent stands for the parent), -1 when none.
func (a *Attribution) Owner(p int) int { return int(a.f.owner[p]) }
