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
	l := w.l
	s := &Selection{Step: -1, Steps: len(w.steps), w: w, Dir: q.Dir}
	if q.HasStep {
		s.Step = q.Step
	}
	var evs []int32
	switch {
	case q.Match != nil:
		s.Mode, s.Pattern, s.Regex = ModePattern, q.Match.Pattern, q.Match.Regex
		match := matchTable(t, q.Match)
		var cpu, dev []int32
		i := int32(0)
		for _, c := range t.Events.Chunks() {
			for k := range c {
				e := &c[k]
				if match[e.Name] {
					switch {
					case e.Kind.IsDeviceWork():
						dev = append(dev, i)
					case e.Kind.IsCPU():
						cpu = append(cpu, i)
					}
				}
				i++
			}
		}
		switch {
		case len(cpu) == 0 && len(dev) == 0:
			return nil, &NoMatch{Pattern: q.Match.Pattern, Regex: q.Match.Regex, Closest: Closest(t, q.Match.Pattern, 5)}
		case q.Dir == Auto && len(cpu) > 0 && len(dev) > 0:
			return nil, &Ambiguous{Pattern: q.Match.Pattern, CPU: len(cpu), Device: len(dev)}
		case q.Dir == Down && len(cpu) == 0:
			return nil, &Empty{fmt.Sprintf("%s names only device ops (%d), which launch nothing: walk up from them (drop --down)", quote(q.Match.Pattern), len(dev))}
		case q.Dir == Down || (q.Dir == Auto && len(dev) == 0):
			s.Dir, evs = Down, cpu
		case len(dev) > 0:
			s.Dir, evs = Up, dev
		default: // --up from CPU events: their enclosing events
			s.Dir, evs = Up, cpu
		}
	case len(w.steps) > 0:
		s.Mode, s.Dir = ModeStep, Down
		for _, st := range w.steps {
			evs = append(evs, st.Ev)
		}
	default:
		s.Dir = Down
		w.prepare()
		gpu := w.launchedBelow()
		for _, i := range w.top {
			if gpu[i] {
				evs = append(evs, i)
			}
		}
		s.Mode = ModeTopGPU
		if len(evs) == 0 {
			s.Mode, evs = ModeTopLevel, w.top
		}
		if len(evs) == 0 {
			return nil, &Empty{"the trace has no CPU event to start a chain from: name a device op as PATTERN to walk up from it"}
		}
	}
	for _, i := range evs {
		a := w.at(i)
		s.Instances = append(s.Instances, Instance{Event: i, At: a, Step: w.stepNumAt(a)})
	}
	slices.SortStableFunc(s.Instances, func(a, b Instance) int { return cmp.Compare(a.At, b.At) })
	s.Total = len(s.Instances)
	if q.HasStep {
		found := false
		for _, st := range w.steps {
			found = found || st.N == q.Step
		}
		if !found {
			return nil, &Empty{fmt.Sprintf("--step %d: the trace has no ProfilerStep#%d (%s)", q.Step, q.Step, w.stepList())}
		}
		s.Instances = slices.DeleteFunc(s.Instances, func(in Instance) bool { return in.Step != q.Step })
		if len(s.Instances) == 0 {
			return nil, &Empty{fmt.Sprintf("no instance in ProfilerStep#%d (%d in the whole trace)", q.Step, s.Total)}
		}
	}
	seen := map[string]bool{}
	for _, in := range s.Instances {
		n := t.NameOf(int(in.Event))
		if !seen[n] {
			seen[n] = true
			if len(s.Names) < maxHeaderNames {
				s.Names = append(s.Names, n)
			}
		}
	}
	s.NameCount = len(seen)
	switch {
	case q.All && s.Dir == Down:
		w.prepare()
		in := make([]bool, t.NumEvents())
		memo := make([]uint8, t.NumEvents())
		for _, x := range s.Instances {
			in[x.Event] = true
		}
		for k, x := range s.Instances {
			if p := l.Parent[x.Event]; p >= 0 && w.insideAny(p, in, memo) {
				s.Nested++
				continue
			}
			s.Chosen = append(s.Chosen, k)
		}
	case q.All:
		for k := range s.Instances {
			s.Chosen = append(s.Chosen, k)
		}
	default:
		k := max(q.Instance, 1)
		if k > len(s.Instances) {
			where := "in the trace"
			if q.HasStep {
				where = fmt.Sprintf("in ProfilerStep#%d", q.Step)
			}
			what := fmt.Sprintf("there are %d instances", len(s.Instances))
			if len(s.Instances) == 1 {
				what = "there is 1 instance"
			}
			return nil, &Empty{fmt.Sprintf("--instance %d: %s %s", k, what, where)}
		}
		s.Chosen = []int{k - 1}
	}
	return s, nil
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
