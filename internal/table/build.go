package table

import (
	"slices"

	"github.com/tracetab/tracetab/internal/bitset"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// build turns the trace into torch's FunctionEvent list: which events
// become rows, their times, threads, the device ops attached to each op,
// and the parent/child tree. The list is built directly in torch's order
// (start, then longest first, then file order) by merging the per-track
// orders the trace already has. buildOn builds it on the caller's
// goroutine, but for a large trace's list when split (two goroutines).
func buildOn(t *trace.Trace, v Version, keep, keepMem []bool, split bool) *fevents {
	f := prepare(t, v, keep, keepMem, false, split)
	f.buildTree(f.firstChild, nil)
	return f
}

// buildBeside is buildOn with the list split and the tree made on a
// goroutine of its own while the caller goes on: the caller reads
// position i only once f.ready has sent a position above i (the
// averaging, which reads the positions in order: it follows the tree a
// step behind on the other core; the tree was 5 of table's 37 ms after
// the parse on the 200 MB default bench trace, the averaging 13).
func buildBeside(t *trace.Trace, v Version, keep, keepMem []bool) *fevents {
	f := prepare(t, v, keep, keepMem, false, true)
	// one send per readyEvery positions, and the last: never blocks
	f.ready = make(chan int, f.n()/readyEvery+2)
	f.treeDone = make(chan struct{})
	// should the tree panic, ready and treeDone are closed all the same
	// (the averaging, waiting on ready, raises the panic again by
	// treeWait; the memory columns, waiting on treeDone, see treeBuilt
	// false)
	f.treeWait = safe.Go(func() {
		defer close(f.treeDone)
		defer close(f.ready)
		if beforeTree != nil {
			beforeTree()
		}
		f.buildTree(f.firstChild, f.ready)
		f.treeBuilt = true
	})
	return f
}

// beforeTree, when set (by tests), runs on the tree's goroutine first.
var beforeTree func()

// readyEvery is how many positions the tree goes between two sends on
// f.ready; readyThreads the most threads whose stacks it reads for them
// (a trace of 200,000 threads read them all every 4,096 positions).
var readyEvery = 4096

const readyThreads = 64

// buildWith is buildOn with the list split; withOwners also records, for
// each device op, the event its time is attached to (Attribute).
func buildWith(t *trace.Trace, v Version, keep, keepMem []bool, withOwners bool) *fevents {
	f := prepare(t, v, keep, keepMem, withOwners, true)
	f.buildTree(f.firstChild, nil)
	return f
}

// prepare is build up to the tree: the list, the kernels attached, and
// the column the tree starts from in f.firstChild.
//
// A large trace's list is made on two goroutines when split.
func prepare(t *trace.Trace, v Version, keep, keepMem []bool, withOwners, split bool) *fevents {
	l := t.Links()
	f := &fevents{t: t, start0: t.TraceStart, keyer: newKeyer(t)}
	isFE := functionEventFilter(t, v, keep)
	extra := f.gpuAnnotationItems(t, l, isFE) // GPU annotation spans, sorted on their own
	// the second goroutine's filter, with a cache of its own (the marking
	// and the list use it one after the other)
	var isFE2 func(int, *trace.Event) bool
	if split {
		isFE2 = functionEventFilter(t, v, keep)
	}
	mem := f.unusedMemory(t, l, v, isFE, isFE2, keepMem)
	extra = sortedExtras(extra, mem, t)
	pos := f.listInOrder(t, l, v, isFE, isFE2, extra, mem)
	if len(f.keyIndex) == 0 {
		// the keys are numbered in the averaging: room for the names
		// listed (export's per-step tables grew the map from empty for
		// every step: a sixth of their averaging)
		f.keyIndex = make(map[string]int32, f.rowsHint)
		f.keys = make([]string, 0, f.rowsHint)
	}
	if withOwners {
		// the attribution reads owners, never the kernel sums (kdev: 8
		// bytes a FunctionEvent, 3.9 MB of roofline's peak on the 200 MB
		// default-shape trace)
		f.owner = fill32(len(f.ev), -1)
		f.merged = map[int32]int32{}
	} else {
		f.kdev = make([]float64, len(f.ev))
	}
	f.attach(t, l, v, pos)
	f.firstChild = treeColumn(pos, len(f.ev))
	return f
}

// functionEventFilter is which events become FunctionEvents: those of a
// kind torch lists, kept by keep (nil: all), whose name torch does not
// filter out under v (each name decided once).
func functionEventFilter(t *trace.Trace, v Version, keep []bool) func(int, *trace.Event) bool {
	filtered := make([]int8, len(t.Strings)) // 0 unknown, 1 kept, 2 filtered out
	return func(i int, e *trace.Event) bool {
		if !isFunctionEventKind(e.Kind) || (keep != nil && !keep[i]) {
			return false
		}
		st := filtered[e.Name]
		if st == 0 {
			st = 1
			if isFiltered(t.Str(e.Name), v) {
				st = 2
			}
			filtered[e.Name] = st
		}
		return st == 1
	}
}

// gpuAnnotationItems are the GPU annotation spans that become
// FunctionEvents, in ns as written (their margin undone); each is also
// recorded in f.gpuAnn.
func (f *fevents) gpuAnnotationItems(t *trace.Trace, l *trace.Links, isFE func(int, *trace.Event) bool) []feItem {
	var out []feItem
	n := t.NumEvents()
	hasGPUAnn := t.CatCounts["gpu_user_annotation"]+t.CatCounts["gpu_user_Annotation"]+t.CatCounts["User"] > 0
	for i := 0; hasGPUAnn && i < n; i++ {
		e := t.Ev(i)
		if e.Kind == trace.KindGPUAnnotation && isFE(i, e) {
			a, b := margin(t, l, i)
			it := feItem{e.Start + a, e.Start + a + max(e.Dur-b, 0), int32(i)}
			out = append(out, it)
			if f.gpuAnn == nil {
				f.gpuAnn = map[int32][2]int64{}
			}
			f.gpuAnn[it.idx] = [2]int64{it.s, it.e}
		}
	}
	return out
}

// sortedExtras adds to the GPU annotation items one instant item per
// [memory] record no op claimed (t.Mem[mem[k]] as index n+k) and sorts
// them in torch's order.
func sortedExtras(extra []feItem, mem []int, t *trace.Trace) []feItem {
	n := t.NumEvents()
	for k, m := range mem {
		ts := t.Mem[m].Ts
		extra = append(extra, feItem{ts, ts, int32(n + k)})
	}
	slices.SortFunc(extra, feItemCmp)
	return extra
}

// listInOrder lists every FunctionEvent in torch's order, each with its
// thread and flags, and returns each trace event's position in the list
// (-1: not a FunctionEvent). A large trace is listed by two goroutines,
// each merging one side of a pivot item of the order (the same total
// order on both sides, so the halves end to end are the one merge); the
// upper half is written from a bound on the lower half's length and moved
// down after (table: the merge was 12 of its 37 ms after the parse on the
// 200 MB default bench trace, with the other core idle).
//
// isFE2 (nil: one goroutine) is the second goroutine's isFE.
func (f *fevents) listInOrder(t *trace.Trace, l *trace.Links, v Version, isFE, isFE2 func(int, *trace.Event) bool, extra []feItem, mem []int) []int32 {
	n := t.NumEvents()
	pos := fill32(n, -1)
	m := n + len(mem)
	ords := trackOrders(t, l)
	// (a trace of very many tracks keeps one merge: each half's heap of
	// heads was as large as the one's, 200,000 threads +9% in all)
	split := n >= listSplitMin && isFE2 != nil && len(ords) <= listSplitTracks
	if split {
		// the bound counts a GPU annotation twice (its track's event and
		// its extra item): room for both
		m = n + len(extra)
	}
	f.ev = make([]int32, m)
	f.thread = make([]int32, m)
	f.flags = make([]uint8, m)
	ls := &lister{f: f, t: t, l: l, v: v, mem: mem, main: mainThread(t), names: bitset.New(len(t.Strings))}
	if !split {
		f.cut(ls.list(isFE, ords, extra, pos, 0))
		f.rowsHint = ls.rowsHint()
		return pos
	}
	lo, hi, xlo, xhi, bound := splitOrders(t, ords, extra)
	var upper int
	ls2 := *ls
	ls2.names = bitset.New(len(t.Strings))
	wait := safe.Go(func() { upper = ls2.list(isFE2, hi, xhi, nil, bound) }) // a panic there is raised again by wait
	lower := ls.list(isFE, lo, xlo, pos, 0)
	wait()
	ls.names.Union(ls2.names)
	f.rowsHint = ls.rowsHint()
	copy(f.ev[lower:], f.ev[bound:bound+upper])
	copy(f.thread[lower:], f.thread[bound:bound+upper])
	copy(f.flags[lower:], f.flags[bound:bound+upper])
	for j := lower; j < lower+upper; j++ {
		if x := f.ev[j]; x >= 0 {
			pos[x] = int32(j)
		}
	}
	f.cut(lower + upper)
	return pos
}

// listSplitMin is the number of events from which the list is made on two
// goroutines (below it the second costs more than it saves: export's
// per-step tables, made on both cores already).
var listSplitMin = 1 << 16

// listSplitTracks is the most tracks whose list is split.
const listSplitTracks = 4096

// cut ends the list's columns at its length.
func (f *fevents) cut(k int) {
	f.ev, f.thread, f.flags = f.ev[:k], f.thread[:k], f.flags[:k]
}

// lister lists FunctionEvents into the columns from a base position, and
// marks their names.
type lister struct {
	f     *fevents
	t     *trace.Trace
	l     *trace.Links
	v     Version
	mem   []int
	main  int32
	names bitset.Set // the string ids of the FunctionEvents' names
}

// rowsHint is a bound, near, on the rows of a table keyed by name: the
// names listed, and the two of [memory] records.
func (ls *lister) rowsHint() int { return ls.names.Len() + 2 }

// list writes, from position base, the merge of ords and extra, and
// returns how many it wrote; pos (nil: not written) gets each trace
// event's position.
func (ls *lister) list(isFE func(int, *trace.Event) bool, ords [][]int32, extra []feItem, pos []int32, base int) int {
	f, t := ls.f, ls.t
	n := t.NumEvents()
	merge := newFEMerge(t, isFE, ords, extra)
	j := base
	for {
		it, ok := merge.next()
		if !ok {
			break
		}
		if int(it.idx) >= n { // a [memory] record no op claimed
			k := ls.mem[int(it.idx)-n]
			f.ev[j], f.thread[j], f.flags[j] = ^int32(k), t.Mem[k].Track, 0
			j++
			continue
		}
		e := t.Ev(int(it.idx))
		if pos != nil {
			pos[it.idx] = int32(j)
		}
		ls.names.Add(int(e.Name))
		unlinked := e.Kind.IsLaunch() && linkOf(t, ls.l, int(it.idx)) == 0
		var fl uint8
		if unlinked {
			fl = feUnlinked
		}
		f.ev[j], f.thread[j], f.flags[j] = it.idx, eventThread(e, unlinked, ls.main, ls.v), fl
		j++
	}
	return j - base
}

// eventThread is the thread torch lists an event under: its own track,
// except that a runtime call linked to no op and a profiler overhead event
// go to the main thread (before torch 1.13: thread "0", here -1).
func eventThread(e *trace.Event, unlinked bool, main int32, v Version) int32 {
	if !unlinked && e.Kind != trace.KindOverhead {
		return e.Track
	}
	if !v.AtLeast(1, 13) {
		return -1
	}
	return main
}

// treeColumn is the column the tree's two link columns start from, in
// place of the positions and the threads, which are done with as the tree
// is built (buildTree). The list can be longer than the trace (one
// synthetic event per [memory] record no op claimed, where few events are
// FunctionEvents): then the positions do not have the room and the column
// is a new one.
func treeColumn(pos []int32, m int) []int32 {
	if m <= len(pos) {
		return pos[:m]
	}
	return make([]int32, m)
}

// opExtID is the External id of event o when it is a cpu_op, else 0.
func opExtID(t *trace.Trace, o int32) int64 {
	if o < 0 {
		return 0
	}
	e := t.Ev(int(o))
	if e.Kind != trace.KindCPUOp || !e.Has(trace.FlagExtID) {
		return 0
	}
	return t.ExtIDOf(e)
}

// linkOf is torch's linked_correlation_id: the External id of the op that
// launched a runtime call or device op, 0 when not linked.
func linkOf(t *trace.Trace, l *trace.Links, i int) int64 {
	e := t.Ev(i)
	if e.Has(trace.FlagLowerExtID) {
		return t.ExtIDOf(e)
	}
	switch {
	case e.Kind.IsLaunch():
		return opExtID(t, l.Launch[i])
	case e.Kind.IsDevice() && e.Kind != trace.KindGPUAnnotation:
		if r := l.Launch[i]; r >= 0 {
			re := t.Ev(int(r))
			if re.Has(trace.FlagLowerExtID) {
				return t.ExtIDOf(re)
			}
			return opExtID(t, l.Launch[r])
		}
	}
	return 0
}

func fill32(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// attach is torch's device_corr_map step: every event linked to op id L
// (device ops and runtime calls) is handed to the candidate events whose id
// is L; device ops become kernels of the candidate, runtime calls take its
// thread. Candidates are ops by External id, and runtime calls by their
// correlation id (their FunctionEvent id from 1.13): every one before 2.4,
// only unlinked ones from 2.4 (PR #124596). 2.1x skips only overhead
// events, which are never indexed by correlation id here.
func (f *fevents) attach(t *trace.Trace, l *trace.Links, v Version, pos []int32) {
	// collide reports whether runtime call r is a candidate by its
	// correlation id under this version's rules.
	collide := func(r int32) bool {
		if r < 0 || pos[r] < 0 || !v.runtimeIDIsCorrelation() {
			return false
		}
		return !v.frontendOnlyAttach() || f.flags[pos[r]]&feUnlinked != 0
	}
	n := t.NumEvents()
	for i := 0; i < n; i++ {
		p := pos[i]
		if p < 0 {
			continue
		}
		e := t.Ev(i)
		isDev := e.Kind.IsDevice() && e.Kind != trace.KindGPUAnnotation
		if !isDev && !e.Kind.IsLaunch() {
			continue
		}
		L := linkOf(t, l, i)
		if L <= 0 {
			continue
		}
		var cands [2]int32
		cands[0] = l.OpByExtID(L)
		cands[1] = -1
		if r := l.LaunchByCorr(L); collide(r) {
			cands[1] = r
		}
		last := int32(-1)
		for _, c := range cands {
			if c < 0 || pos[c] < 0 {
				continue
			}
			if isDev {
				if f.kdev != nil {
					f.kdev[pos[c]] += f.dur(int(p))
				}
				if f.owner != nil && f.owner[p] < 0 {
					f.owner[p] = pos[c]
				}
			}
			last = max(last, c)
		}
		if !isDev && last >= 0 {
			f.thread[p] = f.thread[pos[last]]
		}
	}
}

// buildTree is torch's _populate_cpu_children: per thread, a stack over
// events sorted by (start, -end); an event is the child of the innermost
// open event that contains it, half-open. Each event's children are
// complete when it leaves its stack; finish does the rest there.
//
// With ready, it sends there, every readyEvery positions, the first
// position still open in any stack (or not yet reached), and the list's
// length once done.
func (f *fevents) buildTree(firstChild []int32, ready chan<- int) {
	m := f.n()
	for i := range firstChild {
		firstChild[i] = -1
	}
	f.firstChild = firstChild
	// nextSib[i] is written after thread[i] was read, and only ever for
	// events before the current one: the columns can share their memory.
	f.nextSib = f.thread
	type frame struct {
		node, last int32 // the open event and its last child so far
		end        float64
	}
	stacks := map[int32]*[]frame{}
	lastTh := int32(-2)
	var st *[]frame
	next := readyEvery
	for i := 0; i < m; i++ {
		// (with more threads than readyThreads, the stacks are not read
		// every readyEvery positions: only the last position is sent)
		if ready != nil && i == next && len(stacks) <= readyThreads {
			next += readyEvery
			w := i
			for _, st := range stacks {
				if s := *st; len(s) > 0 {
					w = min(w, int(s[0].node))
				}
			}
			ready <- w
		}
		th := f.thread[i]
		f.nextSib[i] = -1
		x := f.ev[i]
		if x >= 0 && f.t.Ev(int(x)).Kind.IsDevice() {
			continue
		}
		if th != lastTh {
			st = stacks[th]
			if st == nil {
				st = new([]frame)
				stacks[th] = st
			}
			lastTh = th
		}
		s := *st
		start, end := f.span(i)
		for len(s) > 0 {
			top := &s[len(s)-1]
			if start >= top.end || end > top.end {
				f.finish(top.node)
				s = s[:len(s)-1]
				continue
			}
			if top.last < 0 {
				f.firstChild[top.node] = int32(i)
			} else {
				f.nextSib[top.last] = int32(i)
			}
			top.last = int32(i)
			f.flags[i] |= feHasParent
			break
		}
		*st = append(s, frame{node: int32(i), last: -1, end: end})
	}
	for _, st := range stacks {
		s := *st
		for k := len(s) - 1; k >= 0; k-- {
			f.finish(s[k].node)
		}
	}
	f.thread = nil
	if ready != nil {
		ready <- m
	}
}

// finish completes event p once all its children are known (they left
// their stack before it). It is torch's _remove_dup_nodes for p: a child
// with its parent's name that is the parent's only child is merged into the
// parent, which takes over the child's children and kernels; the child has
// done the same with its own children already, so a chain of such nodes
// ends in one step, as torch's repeated passes end. Then p's kernel sum
// becomes its device_time_total: the kernels plus the children's totals, in
// child order (for a merged child, the child's own total).
func (f *fevents) finish(p int32) {
	c := f.firstChild[p]
	if c >= 0 && f.nextSib[c] < 0 && f.sameKey(int(c), int(p)) {
		f.firstChild[p] = f.firstChild[c]
		if f.kdev != nil {
			f.kdev[p] = f.kdev[c]
		}
		f.flags[c] |= feDeleted
		if f.merged != nil {
			f.merged[c] = p
		}
		return
	}
	if f.kdev == nil {
		return
	}
	var sum float64
	for ; c >= 0; c = f.nextSib[c] {
		sum += f.kdev[c]
	}
	f.kdev[p] += sum
}
