package critpath

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Window is the stretch of the trace one graph is built over: CPU events
// that start in it (ends included) with a duration > 0, and the device ops
// whose launch call is such an event.
type Window struct {
	Label string // "ProfilerStep#3", "ProfilerStep#3 to #5", "[name] #1", "the whole trace"

	Step    int64 // HasStep: one ProfilerStep#N
	HasStep bool

	FirstStep, LastStep int64 // HasSteps: consecutive steps as one window
	HasSteps            bool

	Annotation                  string // HasAnnotation: events whose name contains it
	FirstInstance, LastInstance int    // from 0, in start order
	HasAnnotation               bool
	Start, End                  int64 // ns on the trace's clock, both included
}

// StepWindows is one window per ProfilerStep#N, in start order; the whole
// trace when it has no steps.
func StepWindows(t *trace.Trace) []Window {
	steps := t.StepWindows()
	if len(steps) == 0 {
		return []Window{WholeTrace(t)}
	}
	out := make([]Window, len(steps))
	for k, s := range steps {
		out[k] = Window{Label: fmt.Sprintf("ProfilerStep#%d", s.N), Step: s.N, HasStep: true, Start: s.Start, End: s.End}
	}
	return out
}

// StepWindow is the window of ProfilerStep#n; ok is false when the trace
// has no such step.
func StepWindow(t *trace.Trace, n int64) (Window, bool) {
	for _, s := range t.StepWindows() {
		if s.N == n {
			return Window{Label: fmt.Sprintf("ProfilerStep#%d", n), Step: n, HasStep: true, Start: s.Start, End: s.End}, true
		}
	}
	return Window{}, false
}

// StepRangeWindow is one window from the start of the first to the end of
// the last of the steps numbered lo..hi (for pipelined jobs, whose work
// crosses step boundaries); ok is false when none is in the trace.
func StepRangeWindow(t *trace.Trace, lo, hi int64) (Window, bool) {
	w := Window{Label: fmt.Sprintf("ProfilerStep#%d to #%d", lo, hi), FirstStep: lo, LastStep: hi, HasSteps: true}
	found := false
	for _, s := range t.StepWindows() {
		if s.N < lo || s.N > hi {
			continue
		}
		if !found || s.Start < w.Start {
			w.Start = s.Start
		}
		if !found || s.End > w.End {
			w.End = s.End
		}
		found = true
	}
	if lo == hi {
		w.Label = fmt.Sprintf("ProfilerStep#%d", lo)
	}
	return w, found
}

// WholeTrace spans every event (HTA's annotation "").
func WholeTrace(t *trace.Trace) Window {
	w := Window{Label: "the whole trace"}
	first := true
	for _, c := range t.Events.Chunks() {
		for i := range c {
			e := &c[i]
			if e.Kind == trace.KindTraceSpan {
				continue
			}
			if first || e.Start < w.Start {
				w.Start = e.Start
			}
			if first || e.End() > w.End {
				w.End = e.End()
			}
			first = false
		}
	}
	return w
}

// AnnotationError is an --annotation or --instance that selects nothing.
type AnnotationError struct{ Msg string }

func (e *AnnotationError) Error() string { return e.Msg }

// AnnotationWindow is HTA's window: the CPU-side events whose name
// contains name, in start order, instances lo..hi of them (from 0): from
// the first one's start to the latest end. Device-side copies of an
// annotation (gpu_user_annotation) are not counted.
func AnnotationWindow(t *trace.Trace, name string, lo, hi int) (Window, error) {
	match := make([]int8, len(t.Strings)) // 0 unknown, 1 no, 2 yes
	type span struct {
		s, e int64
		i    int
	}
	var xs []span
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if t.Tracks[e.Track].Kind != trace.TrackCPU || e.Kind == trace.KindTraceSpan {
			continue
		}
		if match[e.Name] == 0 {
			match[e.Name] = 1
			if strings.Contains(t.Str(e.Name), name) {
				match[e.Name] = 2
			}
		}
		if match[e.Name] == 2 {
			xs = append(xs, span{e.Start, e.End(), i})
		}
	}
	if len(xs) == 0 {
		return Window{}, &AnnotationError{fmt.Sprintf("--annotation: no CPU event's name contains %q", name)}
	}
	if lo < 0 || hi < lo || hi >= len(xs) {
		return Window{}, &AnnotationError{fmt.Sprintf("--instance %s: %d event(s) contain %q, instances 0 to %d", instanceText(lo, hi), len(xs), name, len(xs)-1)}
	}
	slices.SortStableFunc(xs, func(a, b span) int { return cmp.Compare(a.s, b.s) })
	w := Window{Annotation: name, FirstInstance: lo, LastInstance: hi, HasAnnotation: true, Start: xs[lo].s, End: xs[lo].e}
	for _, x := range xs[lo : hi+1] {
		w.End = max(w.End, x.e)
	}
	w.Label = fmt.Sprintf("%s #%s", name, instanceText(lo, hi))
	return w, nil
}

func instanceText(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}
