package gaps

import (
	"cmp"
	"container/heap"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	istats "github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// The verdict read from the raw events: an independent reading of the
// cause rules (docs/output.md, gaps --help) over encoding/json's events
// with math/big times (rawtrace_test.go). It shares with tracetab only the
// name predicates (which names are a DataLoader, a launch, a sync, input
// preparation, a creation call): the spans, the gaps, the launch links,
// the nesting, which event holds each instant, the start-up outliers and
// the sums are computed here, another way (a heap of open events over
// elementary segments instead of a stack sweep, containment read from all
// open events instead of parent links).

var sharedOnce sync.Map // path -> *sharedTrace

type sharedTrace struct {
	once sync.Once
	tr   *trace.Trace
	err  error
}

// loadShared parses a shared trace once per test binary.
func loadShared(t *testing.T, path string) *trace.Trace {
	t.Helper()
	v, _ := sharedOnce.LoadOrStore(path, &sharedTrace{})
	s := v.(*sharedTrace)
	s.once.Do(func() { s.tr, s.err = openCached(path) })
	if s.err != nil {
		t.Fatalf("%s: %v", path, s.err)
	}
	return s.tr
}

func rawIsCPUCat(cat string) bool { return rawIsCPU(cat) || cat == "operator" }

// rawKind of an event name and category, as the cause rules read it.
type rawClass int8

const (
	rcCPU rawClass = iota
	rcInput
	rcPrep
	rcSync
	rcLaunch
	rcProfiler
	rcStep
	rcStartup
)

var rawCauseOf = map[rawClass]Cause{rcCPU: CauseCPU, rcInput: CauseInput, rcPrep: CauseInput, rcSync: CauseSync, rcLaunch: CauseLaunch,
	rcProfiler: CauseProfiler, rcStep: CauseUntraced, rcStartup: CauseStartup}

type rawVerdict struct {
	idle, total int64
	byCause     [numCauses]int64
	class       string
	steady      string
}

// rawStartup finds the start-up calls by the documented rule.
func rawStartup(evs []rawEvent, opOf map[int]*rawEvent) map[int]bool {
	out := map[int]bool{}
	byName := map[string][]*rawEvent{}
	for k := range evs {
		e := &evs[k]
		if rawIsLaunch(e.Cat) {
			byName[e.Name] = append(byName[e.Name], e)
		}
	}
	earliest := func(a, b *rawEvent) bool { return a.Ts < b.Ts || (a.Ts == b.Ts && a.Idx < b.Idx) }
	// the first launch of each device op name
	firstOp := map[string]*rawEvent{}
	for k := range evs {
		e := &evs[k]
		if !rawIsDeviceWork(e.Cat) {
			continue
		}
		if c := opOf[e.Idx]; c != nil {
			if f := firstOp[e.Name]; f == nil || earliest(c, f) {
				firstOp[e.Name] = c
			}
		}
	}
	firstLaunch := map[int]bool{}
	for _, c := range firstOp {
		firstLaunch[c.Idx] = true
	}
	for name, calls := range byName {
		if isOneTimeCall(name) || (isPropertyQuery(name) && len(calls) == 1) {
			for _, c := range calls {
				out[c.Idx] = true
			}
			continue
		}
		var d []int64
		first := calls[0]
		for _, c := range calls {
			d = append(d, c.End-c.Ts)
			if earliest(c, first) {
				first = c
			}
		}
		if len(calls) < 3 {
			continue
		}
		med := istats.MedianNs(d)
		for _, c := range calls {
			n := c.End - c.Ts
			if n >= StartupMinNs && n >= StartupFactor*med && (c == first || firstLaunch[c.Idx] || isMemoryCall(name)) {
				out[c.Idx] = true
			}
		}
	}
	return out
}

// rawThread is one CPU thread's events by (start, longer first, file
// order), with each event's class (containment read from every open
// event) and, apart, the long ones (so that a window finds what is open
// at its start by a binary search back a bounded way).
type rawThread struct {
	evs   []*rawEvent
	class map[int]rawClass
	long  []*rawEvent
}

const rawLong = 2_000_000

func inOrder(a, b *rawEvent) int {
	if c := cmp.Compare(a.Ts, b.Ts); c != 0 {
		return c
	}
	if c := cmp.Compare(b.End, a.End); c != 0 {
		return c
	}
	return cmp.Compare(a.Idx, b.Idx)
}

func rawOwnClass(e *rawEvent, startup map[int]bool) rawClass {
	switch {
	case e.Cat == "overhead" || e.Cat == "Overhead":
		return rcProfiler
	case rawIsLaunch(e.Cat) && startup[e.Idx]:
		return rcStartup
	case (rawIsLaunch(e.Cat) && trace.IsBlockingCall(e.Name)) || ((e.Cat == "cpu_op" || e.Cat == "Operator" || e.Cat == "operator") && (e.Name == "aten::item" || e.Name == "aten::_local_scalar_dense")):
		return rcSync
	case isDataLoader(e.Name):
		return rcInput
	case e.Cat == "python_function" && isInputPrep(trace.KindPython, e.Name), e.Cat == "user_annotation" && isInputPrep(trace.KindAnnotation, e.Name):
		return rcPrep
	case rawIsLaunch(e.Cat) && isLaunchCall(e.Name):
		return rcLaunch
	case strings.HasPrefix(e.Name, "ProfilerStep#") && e.Cat != "python_function" && !rawIsLaunch(e.Cat):
		if _, ok := trace.StepNumber(e.Name); ok {
			return rcStep
		}
	}
	return rcCPU
}

func newRawThread(evs []*rawEvent, startup map[int]bool) *rawThread {
	slices.SortFunc(evs, inOrder)
	th := &rawThread{evs: evs, class: map[int]rawClass{}}
	var open []*rawEvent // started, not ended
	for _, e := range evs {
		open = slices.DeleteFunc(open, func(o *rawEvent) bool { return o.End <= e.Ts })
		var inStartup, inLoader, inPrep bool
		for _, o := range open {
			if o.End >= e.End { // o contains e
				switch th.class[o.Idx] {
				case rcStartup:
					inStartup = true
				case rcInput:
					inLoader = true
				case rcPrep:
					inPrep = true
				}
			}
		}
		c := rawOwnClass(e, startup)
		switch {
		case c == rcProfiler:
		case inStartup:
			c = rcStartup
		case c == rcSync || c == rcStartup:
		case inLoader:
			c = rcInput
		case inPrep:
			c = rcPrep
		}
		th.class[e.Idx] = c
		open = append(open, e)
		if e.End-e.Ts > rawLong {
			th.long = append(th.long, e)
		}
	}
	return th
}

// heap of open events, the latest in the track's order on top
type openHeap []*rawEvent

func (h openHeap) Len() int           { return len(h) }
func (h openHeap) Less(a, b int) bool { return inOrder(h[a], h[b]) > 0 }
func (h openHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *openHeap) Push(x any)        { *h = append(*h, x.(*rawEvent)) }
func (h *openHeap) Pop() any {
	x := (*h)[len(*h)-1]
	*h = (*h)[:len(*h)-1]
	return x
}

// split gives each instant of [lo, hi) to the event started last among
// those open then, by cause.
func (th *rawThread) split(lo, hi int64) [numCauses]int64 {
	var out [numCauses]int64
	if hi <= lo {
		return out
	}
	k, _ := slices.BinarySearchFunc(th.evs, lo-rawLong, func(e *rawEvent, v int64) int { return cmp.Compare(e.Ts, v) })
	var cands []*rawEvent
	for _, e := range th.long {
		if e.Ts < lo-rawLong && e.End > lo {
			cands = append(cands, e)
		}
	}
	for ; k < len(th.evs) && th.evs[k].Ts < hi; k++ {
		if e := th.evs[k]; e.End > lo && e.End > e.Ts {
			cands = append(cands, e)
		}
	}
	slices.SortFunc(cands, inOrder)
	bounds := []int64{lo, hi}
	for _, e := range cands {
		for _, b := range []int64{e.Ts, e.End} {
			if b > lo && b < hi {
				bounds = append(bounds, b)
			}
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	h := &openHeap{}
	next := 0
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		for next < len(cands) && cands[next].Ts <= a {
			heap.Push(h, cands[next])
			next++
		}
		for h.Len() > 0 && (*h)[0].End <= a {
			heap.Pop(h)
		}
		if h.Len() == 0 {
			out[CauseUntraced] += b - a
			continue
		}
		out[rawCauseOf[th.class[(*h)[0].Idx]]] += b - a
	}
	return out
}

// rawVerdictOf computes the verdict from the raw events.
func rawVerdictOf(evs []rawEvent) (rawVerdict, bool) {
	var rv rawVerdict
	calls := map[int64]*rawEvent{}
	for k := range evs {
		e := &evs[k]
		if rawIsLaunch(e.Cat) && e.HasCorr {
			if _, dup := calls[e.Corr]; !dup {
				calls[e.Corr] = e
			}
		}
	}
	opOf := map[int]*rawEvent{}
	type dop struct {
		e    *rawEvent
		call *rawEvent
	}
	devOps := map[string][]dop{}
	for k := range evs {
		e := &evs[k]
		if !rawIsDeviceWork(e.Cat) {
			continue
		}
		var c *rawEvent
		if e.HasCorr {
			c = calls[e.Corr]
		}
		if c != nil {
			opOf[e.Idx] = c
		}
		devOps[e.Pid] = append(devOps[e.Pid], dop{e, c})
	}
	if len(devOps) == 0 {
		return rv, false
	}
	startup := rawStartup(evs, opOf)
	launchT := func(o dop) int64 {
		if o.call != nil {
			return o.call.Ts
		}
		return o.e.Ts
	}
	// the span
	var steps [][2]int64
	for _, e := range evs {
		if _, ok := trace.StepNumber(e.Name); ok && (e.Cat == "user_annotation" || e.Cat == "cpu_op" || e.Cat == "Operator" || e.Cat == "operator") {
			steps = append(steps, [2]int64{e.Ts, e.End})
		}
	}
	var span ivs
	if len(steps) > 0 {
		slices.SortFunc(steps, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
		end := make([]int64, len(steps))
		for k, s := range steps {
			end[k] = s[1]
		}
		for _, ops := range devOps {
			for _, o := range ops {
				lt := launchT(o)
				for k := len(steps) - 1; k >= 0; k-- { // the latest step starting at or before lt
					if steps[k][0] <= lt {
						if lt < steps[k][1] {
							end[k] = max(end[k], o.e.End)
						}
						break
					}
				}
			}
		}
		var w [][2]int64
		for k, s := range steps {
			w = append(w, [2]int64{s[0], end[k]})
		}
		span = mergeIvs(w)
	} else {
		lo, hi := int64(1<<62), int64(-1<<62)
		for _, ops := range devOps {
			for _, o := range ops {
				lo, hi = min(lo, o.e.Ts), max(hi, o.e.End)
			}
		}
		span = ivs{{lo, hi}}
	}
	// threads, waits, profiler events
	threadEvs := map[[2]string][]*rawEvent{}
	waits := map[[2]string][]int64{}
	var profRaw [][2]int64
	gpuWait := map[[2]string][][2]int64{}
	for k := range evs {
		e := &evs[k]
		switch {
		case rawIsCPUCat(e.Cat):
			key := [2]string{e.Pid, e.Tid}
			threadEvs[key] = append(threadEvs[key], e)
			if rawIsLaunch(e.Cat) && strings.Contains(e.Name, "StreamWaitEvent") {
				waits[key] = append(waits[key], e.Ts)
			}
			if e.Cat == "overhead" || e.Cat == "Overhead" {
				profRaw = append(profRaw, [2]int64{e.Ts, e.End})
			}
		case e.Cat == "cuda_sync" && strings.Contains(e.Name, "Wait Event"):
			key := [2]string{e.Pid, e.Tid}
			gpuWait[key] = append(gpuWait[key], [2]int64{e.Ts, e.End})
		}
	}
	prof := mergeIvs(profRaw)
	threads := map[[2]string]*rawThread{}
	thread := func(key [2]string) *rawThread {
		if th, ok := threads[key]; ok {
			return th
		}
		th := newRawThread(threadEvs[key], startup)
		threads[key] = th
		return th
	}
	// each stream's ops in order, for the op before one on its stream
	prevOnStream := map[int]*dop{}
	byStream := map[[2]string][]dop{}
	for _, ops := range devOps {
		for _, o := range ops {
			key := [2]string{o.e.Pid, o.e.Tid}
			byStream[key] = append(byStream[key], o)
		}
	}
	for _, ops := range byStream {
		slices.SortStableFunc(ops, func(a, b dop) int { return cmp.Compare(a.e.Ts, b.e.Ts) })
		for k := 1; k < len(ops); k++ {
			p := ops[k-1]
			prevOnStream[ops[k].e.Idx] = &p
		}
	}
	waited := func(o dop, from, to int64) bool {
		for _, w := range gpuWait[[2]string{o.e.Pid, o.e.Tid}] {
			if w[1] > from && w[0] < to {
				return true
			}
		}
		if o.call == nil {
			return false
		}
		lo := int64(-1 << 62)
		if p := prevOnStream[o.e.Idx]; p != nil && p.call != nil {
			lo = p.call.Ts
		}
		for _, w := range waits[[2]string{o.call.Pid, o.call.Tid}] {
			if w >= lo && w < o.call.Ts {
				return true
			}
		}
		return false
	}
	devices := 0
	var busy int64
	for _, ops := range devOps {
		devices++
		slices.SortStableFunc(ops, func(a, b dop) int {
			if c := cmp.Compare(a.e.Ts, b.e.Ts); c != 0 {
				return c
			}
			return cmp.Compare(a.e.Idx, b.e.Idx)
		})
		var w [][2]int64
		for _, o := range ops {
			w = append(w, [2]int64{o.e.Ts, o.e.End})
		}
		busy += intersect(mergeIvs(w), span)
		gap := func(s, e int64, next *dop, lastCall *rawEvent) {
			n := e - s
			clipped := span.overlap(s, e)
			if n <= 0 || clipped <= 0 {
				return
			}
			var sh [numCauses]int64
			tail := func(from int64) {
				if rest := e - from; rest > 0 {
					switch {
					case waited(*next, from, e):
						sh[CauseDependency] += rest
					case from > s || rest < KernelWaitMaxNs:
						sh[CauseDispatch] += rest
					default:
						sh[CauseQueued] += rest
					}
				}
			}
			switch {
			case next == nil:
				if lastCall != nil {
					sh = thread([2]string{lastCall.Pid, lastCall.Tid}).split(s, e)
				} else {
					sh[CauseUntraced] = n
				}
			case next.call != nil && next.call.Ts > s:
				c := next.call
				until := min(c.Ts, e)
				sh = thread([2]string{c.Pid, c.Tid}).split(s, until)
				callEnd := min(max(c.End, until), e)
				if startup[c.Idx] {
					sh[CauseStartup] += callEnd - until
				} else {
					sh[CauseLaunch] += callEnd - until
				}
				tail(callEnd)
			case next.call != nil && next.call.End > s:
				c := next.call
				callEnd := min(c.End, e)
				sh = thread([2]string{c.Pid, c.Tid}).split(s, callEnd)
				tail(callEnd)
			default:
				tail(s)
			}
			if p := prof.overlap(s, e); p > 0 {
				take, moved := p-sh[CauseProfiler], int64(0)
				for _, k := range append([]Cause{CauseUntraced, CauseDispatch, CauseQueued, CauseDependency}, Causes()...) {
					if take <= 0 {
						break
					}
					if k == CauseProfiler {
						continue
					}
					d := min(take, sh[k])
					sh[k] -= d
					take -= d
					moved += d
				}
				sh[CauseProfiler] += moved
			}
			top := Cause(0)
			for k := range sh {
				if sh[k] > sh[top] {
					top = Cause(k)
				}
			}
			if clipped != n {
				var sum int64
				for k := range sh {
					sh[k] = int64(float64(sh[k]) * float64(clipped) / float64(n))
					sum += sh[k]
				}
				sh[top] += clipped - sum
			}
			for k := range sh {
				rv.byCause[k] += sh[k]
			}
		}
		first := ops[0]
		if span[0][0] < first.e.Ts {
			gap(span[0][0], first.e.Ts, &first, nil)
		}
		end := first
		for _, o := range ops[1:] {
			if o.e.Ts <= end.e.End {
				if o.e.End > end.e.End {
					end = o
				}
				continue
			}
			o := o
			gap(end.e.End, o.e.Ts, &o, nil)
			end = o
		}
		if last := span[len(span)-1][1]; last > end.e.End {
			gap(end.e.End, last, nil, end.call)
		}
	}
	rv.total = span.total() * int64(devices)
	rv.idle = rv.total - busy
	classify := func(idle, total int64, by [numCauses]int64, without string) string {
		if pct(idle, total) <= GPUBoundMaxIdlePct || idle <= 0 {
			return ClassGPU
		}
		order := []string{ClassInput, ClassCPU, ClassSync, ClassLaunch, ClassDependency, ClassProfiler, ClassStartup}
		byClass := map[string]int64{}
		for k, ns := range by {
			byClass[ClassOfCause(Cause(k))] += ns
		}
		best := ""
		for _, c := range order {
			if c != without && (best == "" || byClass[c] > byClass[best]) {
				best = c
			}
		}
		return best
	}
	rv.class = classify(rv.idle, rv.total, rv.byCause, "")
	st := rv.byCause
	st[CauseStartup] = 0
	rv.steady = classify(rv.idle-rv.byCause[CauseStartup], rv.total-rv.byCause[CauseStartup], st, ClassStartup)
	return rv, true
}

// TestVerdictRaw: on every shared trace with a GPU lane the verdict's
// class and steady class are the ones the raw events give by the same
// rules, its idle and denominator are the raw ones, and so is the idle
// time of each cause, to the ns; every share rule holds on every gap.
func TestVerdictRaw(t *testing.T) {
	t.Parallel()
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	checked := 0
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name[:min(40, len(name))], func(t *testing.T) {
			r := Analyze(loadShared(t, f), Options{Device: -1, Stream: -1, Top: 0})
			checkShares(t, name, r)
			rv, ok := rawVerdictOf(readRaw(t, f))
			if !ok {
				if !r.NoGPU {
					t.Errorf("raw: no device work; tracetab: %s", r.Verdict.Class)
				}
				return
			}
			checked++
			v := r.Verdict
			t.Logf("%s (steady %s, start-up %.2f%%); raw %s (steady %s)", v.Class, v.SteadyClass, v.StartupPct, rv.class, rv.steady)
			if v.IdleNs != rv.idle || v.SpanNs*int64(v.Devices) != rv.total {
				t.Errorf("idle %d of %d, raw %d of %d", v.IdleNs, v.SpanNs*int64(v.Devices), rv.idle, rv.total)
			}
			if v.Class != rv.class || v.SteadyClass != rv.steady {
				t.Errorf("class %s steady %s, raw %s steady %s: %s", v.Class, v.SteadyClass, rv.class, rv.steady, v.Headline)
			}
			// the two readings agree to the ns, cause by cause
			if v.IdleByCause != rv.byCause {
				t.Errorf("idle by cause %v, raw %v", v.IdleByCause, rv.byCause)
			}
		})
	}
	if checked < 15 {
		t.Errorf("only %d shared traces with a GPU lane checked", checked)
	}
}
