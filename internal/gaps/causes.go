package gaps

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Cause of an idle stretch on a GPU: what the launching thread did while
// the GPU waited (host waits), or what the launched op waited on (queued).
type Cause uint8

// The causes. A host wait is split by what ran on the launching thread
// during [GPU idle, launch call start]; the largest share is the cause.
const (
	CauseInput      Cause = iota // the DataLoader (enumerate(DataLoader), __next__) and what it called; input preparation (isInputPrep)
	CauseCPU                     // named CPU work: ops, Python functions, annotations
	CauseSync                    // a blocking call: a *Synchronize, a synchronous copy, aten::item
	CauseLaunch                  // launch calls themselves, a blocking one included
	CauseProfiler                // the profiler's own work (overhead events)
	CauseUntraced                // nothing recorded on the thread (Python not traced, or idle)
	CauseDependency              // queued: waiting on an event (cudaStreamWaitEvent, a GPU-side wait)
	CauseDispatch                // dispatch latency: a queued gap under 30us, or a launch call's op starting after it returned
	CauseQueued                  // queued 30us or more with no recorded dependency and no running launch call
	CauseStartup                 // one-time start-up calls (startup.go)
	numCauses
)

var causeNames = [numCauses]string{"input", "cpu", "sync", "launch", "profiler", "untraced", "dependency", "dispatch", "queued", "startup"}

func (c Cause) String() string { return causeNames[c] }

// Causes lists every cause in display order.
func Causes() []Cause {
	out := make([]Cause, numCauses)
	for k := range out {
		out[k] = Cause(k)
	}
	return out
}

// eventClass is the cause an event's own time counts for.
type eventClass int8

const (
	clsUnknown eventClass = iota
	clsCPU
	clsInput // a DataLoader frame or anything under one
	clsSync
	clsLaunch
	clsProfiler
	clsStep    // a ProfilerStep annotation: its self time is nothing recorded
	clsPrep    // input preparation (isInputPrep) outside the DataLoader, or anything under it
	clsStartup // a start-up call (startup.go) or anything under one
)

// isDataLoader: torch names the loader's frames enumerate(DataLoader)#... and
// Python tracing names them .../dataloader.py(...): __next__.
func isDataLoader(name string) bool { return trace.IsDataLoader(name) }

// isLaunchCall: runtime and driver calls that enqueue GPU work. Others
// (cudaMalloc, cudaFree, cudaGetDevice, ...) are CPU work under their name.
func isLaunchCall(name string) bool {
	for _, p := range []string{"Launch", "Memcpy", "Memset", "EventRecord", "StreamWaitEvent"} {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

// causer answers, for any CPU thread and time window, what ran there. Its
// class memo makes the walk up the nesting happen once per event.
type causer struct {
	t       *trace.Trace
	l       *trace.Links
	class   []eventClass
	names   []uint8           // per name: nameKnown and the name's facts (nameBits)
	startup map[int32]bool    // the start-up calls (startup.go)
	prof    []span            // overhead events, by start
	waits   map[int32][]int64 // per CPU track: starts of cudaStreamWaitEvent calls
	gsync   map[[2]int64][]span
	// streamOps is each (device, stream)'s ops, for prevLaunch.
	streamOps      map[[2]int64][]op
	python, graphs bool // the trace has python_function events; graph launches
	// others is, with --stream, each device's busy time on the streams
	// left out (nil otherwise).
	others map[int]ivs
	// scratch of splitThread, reused from gap to gap
	cands []int32
	self  []int64
	inner []int64
	stack []open
	hint  []int      // per track: where its last search in splitThread ended, -1
	pairs [][2]int64 // scratch of profilerIn
	// suParts is the current gap's start-up calls and the time each holds
	// (valid until the next gap is explained).
	suParts []callPart
}

// callPart is the time of a gap one call holds.
type callPart struct {
	i  int32
	ns int64
}

type span struct {
	s, e int64
	i    int32
}

func newCauser(t *trace.Trace, l *trace.Links) *causer { return newCauserWith(t, l, nil) }

// threadFacts is what Analyze reads of the events beside the causer, in
// newCauserWith's pass: the blocking calls (blockingCalls) and the active
// threads (activeThreads), the same as those give. Their own passes over
// every event (and one over the launch links) took about 4.5 M
// instructions on the 20 MB default trace and read the 200 MB one's 24 MB
// of events twice more.
type threadFacts struct {
	win                 ivs // the blocking calls' window (nil: anywhere)
	threads             bool
	syncs               []span
	launchers, withStep []bool // with threads
}

// newCauser makes the causer in one pass over the events that, with x,
// also gathers x's facts.
func newCauserWith(t *trace.Trace, l *trace.Links, x *threadFacts) *causer {
	c := &causer{t: t, l: l, class: make([]eventClass, t.NumEvents()), names: make([]uint8, len(t.Strings)), waits: map[int32][]int64{},
		gsync: map[[2]int64][]span{}, hint: make([]int, len(t.Tracks))}
	for k := range c.hint {
		c.hint[k] = -1
	}
	su := newStartupFinder(t, l)
	waitName := make([]int8, len(t.Strings)) // 0 unknown, 1 no, 2 yes
	var isSync, isStep []int8                // as blockingCalls and activeThreads: 0 unknown, 1 no, 2 yes
	if x != nil {
		isSync = make([]int8, len(t.Strings))
		if x.threads {
			isStep = make([]int8, len(t.Strings))
			x.launchers, x.withStep = make([]bool, len(t.Tracks)), make([]bool, len(t.Tracks))
		}
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		su.see(int32(i), e)
		if x != nil {
			x.see(t, l, i, e, isSync, isStep)
		}
		switch {
		case e.Kind == trace.KindPython:
			c.python = true
		case e.Kind == trace.KindOverhead:
			c.prof = append(c.prof, span{e.Start, e.End(), int32(i)})
		case e.Kind.IsLaunch():
			if waitName[e.Name] == 0 {
				waitName[e.Name] = 1
				if name := t.Str(e.Name); strings.Contains(name, "StreamWaitEvent") {
					waitName[e.Name] = 2
				} else if trace.IsGraphLaunch(name) {
					c.graphs = true
				}
			}
			if waitName[e.Name] == 2 {
				c.waits[e.Track] = append(c.waits[e.Track], e.Start)
			}
		case e.Kind == trace.KindSync && strings.Contains(t.Str(e.Name), "Wait Event"):
			tr := &t.Tracks[e.Track]
			k := [2]int64{int64(tr.Device), tr.Stream}
			c.gsync[k] = append(c.gsync[k], span{e.Start, e.End(), int32(i)})
		}
	}
	c.startup = su.finish()
	by := func(a, b span) int { return cmp.Compare(a.s, b.s) }
	slices.SortFunc(c.prof, by)
	for _, v := range c.waits {
		slices.Sort(v)
	}
	for _, v := range c.gsync {
		slices.SortFunc(v, by)
	}
	if x != nil {
		slices.SortFunc(x.syncs, by)
	}
	return c
}

// see reads event i for x: what blockingCalls and activeThreads read of it.
func (x *threadFacts) see(t *trace.Trace, l *trace.Links, i int, e *trace.Event, isSync, isStep []int8) {
	switch {
	case e.Kind.IsLaunch():
		if isSync[e.Name] == 0 {
			isSync[e.Name] = 1
			if trace.IsBlockingCall(t.Str(e.Name)) {
				isSync[e.Name] = 2
			}
		}
		if isSync[e.Name] == 2 && (x.win == nil || x.win.contains(e.Start)) {
			x.syncs = append(x.syncs, span{e.Start, e.End(), int32(i)})
		}
	case !x.threads:
	case e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp:
		if isStep[e.Name] == 0 {
			isStep[e.Name] = 1
			if _, ok := trace.StepNumber(t.Str(e.Name)); ok {
				isStep[e.Name] = 2
			}
		}
		if isStep[e.Name] == 2 {
			x.withStep[e.Track] = true
		}
	case e.Kind.IsDevice() && e.Kind != trace.KindGPUAnnotation:
		if r := l.Launch[i]; r >= 0 {
			x.launchers[t.Ev(int(r)).Track] = true
		}
	}
}

// isStartup reports whether event i is a start-up call.
func (c *causer) isStartup(i int32) bool { return i >= 0 && len(c.startup) > 0 && c.startup[i] }

// What a name says, read once per name (causer.names).
const (
	nameKnown uint8 = 1 << iota
	nameBlockingCall
	nameBlockingOp
	nameLoader
	namePrepPython
	namePrepAnnotation
	nameLaunch
	nameStep
)

func (c *causer) nameBits(id trace.StrID) uint8 {
	if b := c.names[id]; b != 0 {
		return b
	}
	name := c.t.Str(id)
	b := nameKnown
	set := func(bit uint8, on bool) {
		if on {
			b |= bit
		}
	}
	set(nameBlockingCall, trace.IsBlockingCall(name))
	set(nameBlockingOp, name == "aten::item" || name == "aten::_local_scalar_dense")
	set(nameLoader, isDataLoader(name))
	set(namePrepPython, isInputPrep(trace.KindPython, name))
	set(namePrepAnnotation, isInputPrep(trace.KindAnnotation, name))
	set(nameLaunch, isLaunchCall(name))
	_, step := trace.StepNumber(name)
	set(nameStep, step)
	c.names[id] = b
	return b
}

func (c *causer) own(i int32) eventClass {
	e := c.t.Ev(int(i))
	b := c.nameBits(e.Name)
	switch {
	case e.Kind == trace.KindOverhead:
		return clsProfiler
	case e.Kind.IsLaunch() && c.isStartup(i):
		return clsStartup
	case (e.Kind.IsLaunch() && b&nameBlockingCall != 0) || (e.Kind == trace.KindCPUOp && b&nameBlockingOp != 0):
		return clsSync
	case b&nameLoader != 0:
		return clsInput
	case (e.Kind == trace.KindPython && b&namePrepPython != 0) || (e.Kind == trace.KindAnnotation && b&namePrepAnnotation != 0):
		return clsPrep
	case e.Kind.IsLaunch() && b&nameLaunch != 0:
		return clsLaunch
	case (e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp) && b&nameStep != 0:
		return clsStep
	}
	return clsCPU
}

// classOf is the class of event i's own time: a blocking call, a start-up
// call or the profiler's work is that wherever it runs; anything else
// under a DataLoader frame is input, under input preparation input
// preparation, under a start-up call start-up.
func (c *causer) classOf(i int32) eventClass {
	if k := c.class[i]; k != clsUnknown {
		return k
	}
	// Walk up to the first ancestor already known (or the root), then
	// fill the chain back down: iterative, whatever the depth.
	var chain []int32
	p := i
	for p >= 0 && c.class[p] == clsUnknown {
		chain = append(chain, p)
		p = c.l.Parent[p]
	}
	under := clsUnknown
	if p >= 0 {
		under = c.class[p]
	}
	for k := len(chain) - 1; k >= 0; k-- {
		x := chain[k]
		cl := c.own(x)
		switch {
		case cl == clsProfiler:
		case under == clsStartup:
			cl = clsStartup
		case cl == clsSync || cl == clsStartup:
		case under == clsInput || under == clsPrep:
			cl = under
		}
		c.class[x] = cl
		under = cl
	}
	return c.class[i]
}

// split is how a window of a CPU thread was spent.
type split struct {
	ns       [numCauses]int64
	prepNs   int64 // of ns[CauseInput]: input preparation outside the DataLoader
	prepTop  int32 // the event named for input preparation covering most of the window, -1
	prepTopN int64
	inside   int32 // the innermost event covering more than half the gap, -1
	insideBy [numCauses]int64
	drained  int32 // a blocking call that returned inside the window, -1
	drainNs  int64 // its time in the window
}

var classCause = [...]Cause{clsCPU: CauseCPU, clsInput: CauseInput, clsSync: CauseSync, clsLaunch: CauseLaunch, clsProfiler: CauseProfiler,
	clsStep: CauseUntraced, clsPrep: CauseInput, clsStartup: CauseStartup}

// open is a candidate running at the sweep's cursor: its position and
// where it ends inside the window.
type open struct {
	j   int
	end int64
}

// sweep gives each instant of [lo, hi) to the candidate that started last
// among those running then (the innermost; the candidates come in the
// track's order: by start, longer first), adding it to self[j]: an
// instant counts once however the events overlap. It returns the time no
// candidate covers. Candidates that are not CPU events are skipped.
func (c *causer) sweep(cands []int32, lo, hi int64, self []int64) int64 {
	stack := c.stack[:0]
	cur, none := lo, int64(0)
	advance := func(to int64) {
		for cur < to {
			for len(stack) > 0 && stack[len(stack)-1].end <= cur {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				none += to - cur
				cur = to
				return
			}
			top := stack[len(stack)-1]
			t := min(top.end, to)
			self[top.j] += t - cur
			cur = t
		}
	}
	for j, i := range cands {
		e := c.t.Ev(int(i))
		if !e.Kind.IsCPU() && e.Kind != trace.KindOther {
			continue
		}
		s, en := max(e.Start, lo), min(e.End(), hi)
		if en <= s {
			continue
		}
		advance(s)
		stack = append(stack, open{j, en})
	}
	advance(hi)
	c.stack = stack
	return none
}

// splitThread attributes each instant of [lo, hi) on track to the innermost
// event running there (sweep). It visits only the events that meet the
// window: the chain holding lo, then those starting inside (binary search).
func (c *causer) splitThread(track int32, lo, hi, gapLen int64) split {
	sp := split{inside: -1, drained: -1, prepTop: -1}
	c.suParts = c.suParts[:0]
	if hi <= lo {
		return sp
	}
	ord := c.l.Order[c.l.TrackStart[track]:c.l.TrackStart[track+1]]
	k := c.firstAtOrAfter(track, ord, lo)
	cands := c.cands[:0]
	if k > 0 {
		for p := ord[k-1]; p >= 0; p = c.l.Parent[p] {
			if c.t.Ev(int(p)).End() > lo {
				cands = append(cands, p)
			}
		}
		slices.Reverse(cands) // outermost first
	}
	for ; k < len(ord) && c.t.Ev(int(ord[k])).Start < hi; k++ {
		cands = append(cands, ord[k])
	}
	self := c.self[:0]
	for range cands {
		self = append(self, 0)
	}
	sp.ns[CauseUntraced] += c.sweep(cands, lo, hi, self)
	insidePos := -1
	for j, i := range cands {
		e := c.t.Ev(int(i))
		cl := min(e.End(), hi) - max(e.Start, lo)
		if cl <= 0 || (!e.Kind.IsCPU() && e.Kind != trace.KindOther) {
			continue
		}
		cls := c.classOf(i)
		if cls == clsSync && e.Start < lo && e.End() > lo {
			sp.drained, sp.drainNs = i, self[j]
		}
		if cls != clsStep && 2*cl > gapLen {
			insidePos = j // later candidates are the innermost
		}
		if cls == clsPrep && cl > sp.prepTopN && c.own(i) == clsPrep {
			sp.prepTop, sp.prepTopN = i, cl
		}
		if self[j] == 0 {
			continue
		}
		sp.ns[classCause[cls]] += self[j]
		switch cls {
		case clsPrep:
			sp.prepNs += self[j]
		case clsStartup:
			c.suParts = append(c.suParts, callPart{i, self[j]})
		}
	}
	if insidePos >= 0 {
		// The instants inside that event, by cause: a sweep of it and the
		// candidates after it over its own span.
		i := cands[insidePos]
		e := c.t.Ev(int(i))
		sp.inside = i
		inner := c.inner[:0]
		for range cands[insidePos:] {
			inner = append(inner, 0)
		}
		c.sweep(cands[insidePos:], max(e.Start, lo), min(e.End(), hi), inner)
		for j, ns := range inner {
			if ns > 0 {
				sp.insideBy[classCause[c.classOf(cands[insidePos+j])]] += ns
			}
		}
		c.inner = inner
	}
	c.cands, c.self = cands, self
	return sp
}

// firstAtOrAfter is the first position in ord (a track's events by
// start) of an event starting at or after lo: a gallop from where the
// track's last search ended (gaps come mostly in time order), then a
// binary search in the range it found.
func (c *causer) firstAtOrAfter(track int32, ord []int32, lo int64) int {
	start := func(k int) int64 { return c.t.Ev(int(ord[k])).Start }
	from, to := 0, len(ord)
	if h := c.hint[track]; h >= 0 && h <= len(ord) {
		step := 1
		if h == 0 || start(h-1) < lo {
			// every event before h starts before lo: gallop forward
			from = h
			for from+step <= len(ord) && start(from+step-1) < lo {
				from += step
				step *= 2
			}
			to = min(len(ord), from+step)
		} else {
			// every event from h-1 on starts at or after lo: gallop back
			to = h - 1
			for to-step >= 0 && start(to-step) >= lo {
				to -= step
				step *= 2
			}
			from = max(0, to-step)
		}
	}
	k, _ := slices.BinarySearchFunc(ord[from:to], lo, func(i int32, v int64) int { return cmp.Compare(c.t.Ev(int(i)).Start, v) })
	k += from
	c.hint[track] = k
	return k
}

// profilerIn is the time [s, e) overlaps the profiler's own events, and
// the longest of them.
func (c *causer) profilerIn(s, e int64) (int64, int32) {
	k, _ := slices.BinarySearchFunc(c.prof, e, func(x span, v int64) int { return cmp.Compare(x.s, v) })
	pairs := c.pairs[:0]
	best, bestLen := int32(-1), int64(0)
	for j := k - 1; j >= 0 && j >= k-64; j-- {
		x := c.prof[j]
		if x.e > s {
			lo, hi := max(x.s, s), min(x.e, e)
			pairs = append(pairs, [2]int64{lo, hi})
			if hi-lo > bestLen {
				best, bestLen = x.i, hi-lo
			}
		}
	}
	c.pairs = pairs
	return mergeIvs(pairs).total(), best
}

// waitedOnStream reports a recorded dependency of next on another stream:
// a GPU-side wait event on its stream during the gap, or a
// cudaStreamWaitEvent call on its launching thread between the launch of
// the op before it on its stream and its own launch.
func (c *causer) waitedOnStream(dev int, streamID int64, next *op, gs, ge int64) bool {
	if v := c.gsync[[2]int64{int64(dev), streamID}]; len(v) > 0 {
		k, _ := slices.BinarySearchFunc(v, ge, func(x span, t int64) int { return cmp.Compare(x.s, t) })
		if k > 0 && v[k-1].e > gs {
			return true
		}
	}
	if next.call < 0 {
		return false
	}
	w := c.waits[c.t.Ev(int(next.call)).Track]
	k, _ := slices.BinarySearch(w, next.launch)
	return k > 0 && w[k-1] >= c.prevLaunch(dev, streamID, next)
}

// prevLaunch is the launch of the op before next on its stream (noLaunch
// when none): next is found in its stream's list (sorted by start, then
// event) by binary search.
func (c *causer) prevLaunch(dev int, streamID int64, next *op) int64 {
	ops := c.streamOps[[2]int64{int64(dev), streamID}]
	k, found := slices.BinarySearchFunc(ops, *next, byStart)
	if !found || k == 0 {
		return noLaunch
	}
	return ops[k-1].launch
}
