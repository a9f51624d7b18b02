package chain

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// Query says which instances to follow.
type Query struct {
	Match    *Matcher // nil: the default (the first profiler step, or without steps the first top-level event)
	Dir      Direction
	Step     int64 // with HasStep: only instances in ProfilerStep#Step
	HasStep  bool
	Instance int  // 1-based, among the instances of the trace (or of --step); 0 = 1
	All      bool // every instance (one nested in another is shown inside it)
}

// Selection modes.
const (
	ModePattern    = "pattern"   // instances of a PATTERN
	ModeStep       = "step"      // no PATTERN: the profiler steps
	ModeTopGPU     = "top-gpu"   // no PATTERN, no steps: top-level events that launched device work
	ModeTopLevel   = "top-level" // no PATTERN, no steps, no device work: top-level events
	maxHeaderNames = 10
)

// Instance is one event a chain can start from.
type Instance struct {
	Event int32
	At    int64 // CPU start, or the launch time of a device op
	Step  int64 // ProfilerStep#N holding At, -1 if none
}

// Selection is what Select found: the instances of the pattern in time
// order and the ones to walk.
type Selection struct {
	Mode      string
	Pattern   string
	Regex     bool
	Dir       Direction // resolved: Down or Up
	Names     []string  // distinct names of the instances, in order of first instance, at most 10
	NameCount int       // distinct names in all
	Total     int       // instances of the pattern in the whole trace (in the direction)
	Instances []Instance
	Chosen    []int // indices into Instances, in order
	Nested    int   // with All, down: instances inside another chosen one, shown within it
	Step      int64 // the --step asked for, -1 when none
	Steps     int   // profiler steps in the trace
	w         *walker
}

// NoMatch: the pattern selects no event (exit 2); Closest are the nearest names.
type NoMatch struct {
	Pattern string
	Regex   bool
	Closest []string
}

func (e *NoMatch) Error() string {
	what := "no event is named " + quote(e.Pattern) + " (an exact name; --regex takes a regular expression)"
	if e.Regex {
		what = "no event name matches the regular expression " + quote(e.Pattern)
	}
	if len(e.Closest) > 0 {
		what += "; closest names: " + joinQuoted(e.Closest)
	}
	return what
}

// Ambiguous: the pattern names both CPU events and device ops, and no
// direction was given (exit 2).
type Ambiguous struct {
	Pattern     string
	CPU, Device int
}

func (e *Ambiguous) Error() string {
	return fmt.Sprintf("%s names both CPU events (%d) and device ops (%d): choose --down (from the CPU events) or --up (from the device ops)",
		quote(e.Pattern), e.CPU, e.Device)
}

// Empty: the pattern matched but the filters leave nothing (exit 2).
type Empty struct{ Msg string }

func (e *Empty) Error() string { return e.Msg }

func quote(s string) string { return fmt.Sprintf("%q", s) }

func joinQuoted(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ", "
		}
		out += quote(s)
	}
	return out
}

// Select finds the instances of q in t and chooses the ones to walk.
func Select(t *trace.Trace, q Query) (*Selection, error) {
	w := newWalker(t)
	s := &Selection{Step: -1, Steps: len(w.steps), w: w, Dir: q.Dir}
	if q.HasStep {
		s.Step = q.Step
	}
	evs, err := s.starts(t, q)
	if err != nil {
		return nil, err
	}
	s.Instances = instancesOf(w, evs)
	s.Total = len(s.Instances)
	if q.HasStep {
		if err := s.onlyStep(q.Step); err != nil {
			return nil, err
		}
	}
	s.Names, s.NameCount = headerNames(t, s.Instances)
	if err := s.choose(q); err != nil {
		return nil, err
	}
	return s, nil
}

// instancesOf are the events evs as instances, by the time they start
// (stable: events at the same time keep their order).
func instancesOf(w *walker, evs []int32) []Instance {
	var out []Instance
	for _, i := range evs {
		a := w.at(i)
		out = append(out, Instance{Event: i, At: a, Step: w.stepNumAt(a)})
	}
	slices.SortStableFunc(out, func(a, b Instance) int { return cmp.Compare(a.At, b.At) })
	return out
}

// onlyStep keeps the instances in ProfilerStep#step: an error when the
// trace has no such step or no instance in it.
func (s *Selection) onlyStep(step int64) error {
	found := false
	for _, st := range s.w.steps {
		found = found || st.N == step
	}
	if !found {
		return &Empty{fmt.Sprintf("--step %d: the trace has no ProfilerStep#%d (%s)", step, step, s.w.stepList())}
	}
	s.Instances = slices.DeleteFunc(s.Instances, func(in Instance) bool { return in.Step != step })
	if len(s.Instances) == 0 {
		return &Empty{fmt.Sprintf("no instance in ProfilerStep#%d (%d in the whole trace)", step, s.Total)}
	}
	return nil
}

// headerNames are the distinct names of the instances in order of first
// instance, at most maxHeaderNames of them, and how many there are.
func headerNames(t *trace.Trace, ins []Instance) ([]string, int) {
	var names []string
	seen := map[string]bool{}
	for _, in := range ins {
		n := t.NameOf(int(in.Event))
		if !seen[n] {
			seen[n] = true
			if len(names) < maxHeaderNames {
				names = append(names, n)
			}
		}
	}
	return names, len(seen)
}

// choose picks the instances to walk: with --all every one (down, those
// not inside another instance, the others counted as nested), else the
// --instance-th (1 when 0).
func (s *Selection) choose(q Query) error {
	switch {
	case q.All && s.Dir == Down:
		s.chooseOutermost()
	case q.All:
		for k := range s.Instances {
			s.Chosen = append(s.Chosen, k)
		}
	default:
		k := max(q.Instance, 1)
		if k > len(s.Instances) {
			return &Empty{instanceOutOfRange(k, len(s.Instances), q)}
		}
		s.Chosen = []int{k - 1}
	}
	return nil
}

// chooseOutermost chooses the instances no other instance encloses (on
// their thread); the others are shown inside theirs (Nested).
func (s *Selection) chooseOutermost() {
	w := s.w
	w.prepare()
	in := make([]bool, w.t.NumEvents())
	memo := make([]uint8, w.t.NumEvents())
	for _, x := range s.Instances {
		in[x.Event] = true
	}
	for k, x := range s.Instances {
		if p := w.l.Parent[x.Event]; p >= 0 && w.insideAny(p, in, memo) {
			s.Nested++
			continue
		}
		s.Chosen = append(s.Chosen, k)
	}
}

// instanceOutOfRange says --instance k asks for more than the n there are.
func instanceOutOfRange(k, n int, q Query) string {
	where := "in the trace"
	if q.HasStep {
		where = fmt.Sprintf("in ProfilerStep#%d", q.Step)
	}
	what := fmt.Sprintf("there are %d instances", n)
	if n == 1 {
		what = "there is 1 instance"
	}
	return fmt.Sprintf("--instance %d: %s %s", k, what, where)
}

// insideAny reports whether p or one of its ancestors is marked in in. It
// memoises the answer in memo (1 no, 2 yes), so all calls of one
// selection are linear together.
func (w *walker) insideAny(p int32, in []bool, memo []uint8) bool {
	var path []int32
	ans := false
	for ; p >= 0; p = w.l.Parent[p] {
		if st := memo[p]; st != 0 {
			ans = st == 2
			break
		}
		if in[p] {
			ans = true
			break
		}
		path = append(path, p)
	}
	v := uint8(1)
	if ans {
		v = 2
	}
	for _, x := range path {
		memo[x] = v
	}
	if p >= 0 && memo[p] == 0 {
		memo[p] = v
	}
	return ans
}

// launchedBelow marks the events whose subtree (on their thread) holds a
// call that launched device work.
func (w *walker) launchedBelow() []bool {
	t, l := w.t, w.l
	has := make([]bool, t.NumEvents())
	for _, p := range w.devPairs {
		has[p[0]] = true
	}
	for k := range t.Tracks {
		ord := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		for j := len(ord) - 1; j >= 0; j-- {
			if i := ord[j]; has[i] {
				if p := l.Parent[i]; p >= 0 {
					has[p] = true
				}
			}
		}
	}
	return has
}

func (w *walker) stepList() string {
	if len(w.steps) == 0 {
		return "it has no profiler steps"
	}
	lo, hi := w.steps[0].N, w.steps[0].N
	for _, s := range w.steps {
		lo, hi = min(lo, s.N), max(hi, s.N)
	}
	return fmt.Sprintf("its steps are %d to %d", lo, hi)
}
