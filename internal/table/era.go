package table

import (
	"fmt"

	"github.com/tracetab/tracetab/internal/trace"
)

// Two sets of rules make a table. How events are REBUILT (which events
// receive kernels, the id and thread of an unlinked runtime call, which
// [memory] records fall in an op) is what the recording torch's
// _parse_kineto_results did in the profiled process: a fact of the trace,
// judged from its era. How the table is PRINTED (grouping key, footer,
// units, layout) is table()'s, for the version --torch names.

// Recording is the torch that recorded a trace, as far as its era tells.
type Recording struct {
	Era            trace.Era
	Oldest, Newest Version
}

// RecordingOf judges the recording torch of t from its era.
func RecordingOf(t *trace.Trace) Recording {
	e := t.Era()
	return Recording{Era: e, Oldest: Version{e.Oldest[0], e.Oldest[1]}, Newest: Version{e.Newest[0], e.Newest[1]}}
}

// Default is the --torch tracetab assumes when none is given: the newest
// torch that writes the trace's form.
func (r Recording) Default() Version { return r.Newest }

// Why says, in plain words, why Default was assumed.
func (r Recording) Why() string {
	return fmt.Sprintf("the trace has %s, the form written by %s; tracetab assumes the newest of them", r.Era.Notes, r.Era.Torch)
}

// Rebuild is the version whose event rules apply when the table is printed
// with torch print: print itself when the trace could come from it, else
// the nearest version of the recording range (a torch 2.14 table() of a
// 2021 trace is 2.14's layout over the events torch 1.9 recorded).
func (r Recording) Rebuild(print Version) Version {
	switch {
	case print.Less(r.Oldest):
		return r.Oldest
	case r.Newest.Less(print):
		return r.Newest
	}
	return print
}
