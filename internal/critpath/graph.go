package critpath

import (
	"cmp"
	"slices"
	"sort"

	"github.com/tracetab/tracetab/internal/trace"
)

// EdgeType is what an edge of the graph stands for.
type EdgeType uint8

// The edge types (HTA's CPEdgeType).
const (
	EdgeOperator     EdgeType = iota // an event's own time: between its start, its children and its end
	EdgeDependency                   // consecutive top-level ops of a thread; the runtime lock; weight 0
	EdgeLaunch                       // a launch call's start to its device op's start: the launch delay
	EdgeKernelKernel                 // the previous op on the stream to the next one: the gap between them
	EdgeSync                         // a device op to what waited for it; weight 0
	numEdgeTypes
)

var edgeNames = [numEdgeTypes]string{"operator", "dependency", "launch", "kernel_kernel", "sync"}

func (t EdgeType) String() string { return edgeNames[t] }

// SyncKind is what a sync edge waits for.
type SyncKind uint8

// The sync kinds.
const (
	SyncStream     SyncKind = iota // cudaStreamSynchronize: the last op on its stream
	SyncDevice                     // cudaDeviceSynchronize: the last op on every stream of the device
	SyncEvent                      // cudaEventSynchronize / cudaEventQuery: the op before the cudaEventRecord
	SyncStreamWait                 // cudaStreamWaitEvent: that op, before the next op on the waiting stream
	numSyncKinds
)

var syncNames = [numSyncKinds]string{"stream_sync", "device_sync", "event_sync", "stream_wait_event"}

func (k SyncKind) String() string { return syncNames[k] }

// MaxKernelGapNs is the largest gap between consecutive ops on a stream
// that still makes a kernel_kernel edge (HTA's threshold, 1.5 ms): past
// it, something else (a collective, another stream) held the stream.
const MaxKernelGapNs = 1_500_000

type edge struct {
	from, to int32 // nodes
	w        int64 // weight, >= 0
	attr     int32 // the event the edge's time is attributed to (operator, kernel_kernel), -1 for none
	typ      EdgeType
}

type syncRef struct {
	edge int32
	kind SyncKind
	row  int32 // the cuda_sync event, -1 for none
}

// graph is one window's graph. Event k of the window (ev[k], an index
// into the trace) has the nodes 2k (its start) and 2k+1 (its end).
type graph struct {
	p      *prep
	ev     []int32
	tsv    []int64  // per node: its time
	cls    []uint16 // per event of the window: its name's classes
	edges  []edge
	syncs  []syncRef
	clamps int // edges whose time difference was negative (an event that outlasts its parent, overlapping ops), counted 0
}

func isStart(v int32) bool { return v&1 == 0 }

func (g *graph) event(v int32) int32 { return g.ev[v>>1] }

func (g *graph) ts(v int32) int64 { return g.tsv[v] }

// add numbers event i in the window and keeps its nodes' times and its
// name's classes, read by every edge added and every lock test (they were
// read from the events each time).
func (g *graph) add(i int32) int32 {
	k := int32(len(g.ev))
	g.ev = append(g.ev, i)
	g.p.local[i] = k
	e := g.p.t.Ev(int(i))
	g.tsv = append(g.tsv, e.Start, e.End())
	g.cls = append(g.cls, g.p.names[e.Name])
	return k
}

func (g *graph) start(i int32) int32 { return 2 * g.p.local[i] }
func (g *graph) end(i int32) int32   { return 2*g.p.local[i] + 1 }

func (g *graph) addEdge(from, to int32, typ EdgeType, attr int32, zero bool) int32 {
	var w int64
	if typ != EdgeDependency && typ != EdgeSync && !zero {
		w = g.ts(to) - g.ts(from)
		if w < 0 {
			g.clamps++
			w = 0
		}
	}
	g.edges = append(g.edges, edge{from: from, to: to, w: w, attr: attr, typ: typ})
	return int32(len(g.edges) - 1)
}

// release forgets the window's local numbering and hands its buffers to
// the next window.
func (g *graph) release() {
	for _, i := range g.ev {
		g.p.local[i] = -1
	}
	g.p.s.ev, g.p.s.edges, g.p.s.tsv, g.p.s.cls = g.ev[:0], g.edges[:0], g.tsv[:0], g.cls[:0]
	g.ev, g.edges, g.tsv, g.cls = nil, nil, nil, nil
}

func hasNodes(k trace.Kind) bool {
	return k == trace.KindCPUOp || k == trace.KindRuntime || k == trace.KindDriver
}

// build makes the graph of window w (doc.go states the rules).
func (p *prep) build(w Window) *graph {
	t, l := p.t, p.l
	g := &graph{p: p, ev: p.s.ev[:0], edges: p.s.edges[:0], tsv: p.s.tsv[:0], cls: p.s.cls[:0]}
	if p.local == nil {
		p.local = make([]int32, t.NumEvents())
		for i := range p.local {
			p.local[i] = -1
		}
	}
	// CPU events starting in the window, with a duration, per thread
	type thread struct {
		lo, hi        int // in cpu
		fwd, autograd bool
	}
	var threads []thread
	cpu := p.s.cpu[:0]
	hints := grow(p.s.hints, len(p.cpuTracks), false)
	if len(p.s.hints) < len(p.cpuTracks) {
		clear(hints)
	}
	p.s.hints = hints
	for x, k := range p.cpuTracks {
		s := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		// searched from where the window before (on this prep) began: the
		// windows come in start order, and a binary search over the whole
		// track read some 18 events at random per bound (5 ms of the
		// analysis on the 200 MB default bench trace)
		lo := searchFrom(len(s), int(hints[x]), func(i int) bool { return t.Ev(int(s[i])).Start >= w.Start })
		hi := searchFrom(len(s), lo, func(i int) bool { return t.Ev(int(s[i])).Start > w.End })
		hints[x] = int32(lo)
		if lo == hi {
			continue
		}
		th := thread{lo: len(cpu)}
		for _, i := range s[lo:hi] {
			e := t.Ev(int(i))
			if e.Dur <= 0 || e.Kind == trace.KindTraceSpan {
				continue
			}
			cpu = append(cpu, i)
			if e.Kind == trace.KindCPUOp || e.Kind == trace.KindAnnotation {
				f := p.names[e.Name]
				th.fwd = th.fwd || f&nmForward != 0
				th.autograd = th.autograd || f&nmAutograd != 0
			}
		}
		if th.hi = len(cpu); th.hi > th.lo {
			threads = append(threads, th)
		}
	}
	p.s.cpu = cpu
	evs := func(th thread) []int32 { return cpu[th.lo:th.hi] }
	// the backward (autograd) thread is read as part of the forward one
	fwd, bwd, nf, nb := -1, -1, 0, 0
	for k, th := range threads {
		if th.fwd {
			fwd, nf = k, nf+1
		}
		if th.autograd {
			bwd, nb = k, nb+1
		}
	}
	var merged []int32
	if nf == 1 && nb == 1 && fwd != bwd {
		merged = make([]int32, 0, threads[fwd].hi-threads[fwd].lo+threads[bwd].hi-threads[bwd].lo)
		merged = append(append(merged, evs(threads[fwd])...), evs(threads[bwd])...)
		p.s.mergeBuf = sortRuns(merged, p.s.mergeBuf, t.CompareInTrack)
		threads = slices.Delete(threads, bwd, bwd+1)
		if bwd < fwd {
			fwd--
		}
	}
	walk := func(k int) []int32 {
		if merged != nil && k == fwd {
			return merged
		}
		return evs(threads[k])
	}

	// nodes: CPU ops and runtime calls, then the device ops they launched
	gpuRows, syncRows := p.s.gpu[:0], p.s.syncs[:0]
	for k := range threads {
		for _, i := range walk(k) {
			e := t.Ev(int(i))
			if !hasNodes(e.Kind) {
				continue
			}
			g.add(i)
			if !e.Kind.IsLaunch() {
				continue
			}
			for x := p.opsAt[i]; x < p.opsAt[i+1]; x++ {
				switch tr := p.opTrack[x]; {
				case tr >= 0:
					gpuRows = append(gpuRows, p.ops[x])
				case tr == opSync:
					syncRows = append(syncRows, p.ops[x])
				}
			}
		}
	}
	for _, o := range gpuRows {
		g.add(o)
	}
	if c := 3*len(g.ev) + len(syncRows); cap(g.edges) < c {
		g.edges = make([]edge, 0, c)
	}

	g.lockChain()
	for k := range threads {
		g.callStack(walk(k))
	}
	g.device(gpuRows, syncRows)
	p.s.gpu, p.s.syncs = gpuRows[:0], syncRows[:0]
	return g
}

// lockChain links the calls that take the CUDA runtime lock across threads
// (HTA's _construct_graph_from_cuda_runtime_events): in time order, each
// such call's end is reached from every lock call start still open
// (its own start by its operator edge, the others by dependencies), and
// from the previous lock node when that is an end.
func (g *graph) lockChain() {
	t := g.p.t
	// the lock calls' nodes with their sort keys: one thread's calls come
	// in start order and do not overlap, so the nodes are most often in
	// order already (on the 20 MB default bench trace the sort's
	// comparisons, each reading two events, were about 8 M instructions)
	nodes := g.p.s.lock[:0]
	defer func() { g.p.s.lock = nodes[:0] }()
	for k, i := range g.ev {
		if g.cls[k]&nmLock != 0 && hasNodes(t.Ev(int(i)).Kind) {
			nodes = append(nodes, lockNode{g.tsv[2*k], i, int32(2 * k)}, lockNode{g.tsv[2*k+1], i, int32(2*k + 1)})
		}
	}
	if len(nodes) == 0 {
		return
	}
	byTime := func(a, b lockNode) int {
		if c := cmp.Compare(a.ts, b.ts); c != 0 {
			return c
		}
		if c := cmp.Compare(a.ev, b.ev); c != 0 {
			return c
		}
		return cmp.Compare(a.v, b.v)
	}
	g.p.s.lockBuf = sortRuns(nodes, g.p.s.lockBuf, byTime)
	open := g.p.s.open[:0]
	defer func() { g.p.s.open = open[:0] }()
	last := int32(-1)
	for _, n := range nodes {
		v := n.v
		if isStart(v) {
			open = append(open, v)
		} else {
			for len(open) > 0 {
				u := open[len(open)-1]
				open = open[:len(open)-1]
				if g.event(u) == g.event(v) {
					g.addEdge(u, v, EdgeOperator, g.event(u), false)
				} else {
					g.addEdge(u, v, EdgeDependency, -1, false)
				}
			}
			if last >= 0 && !isStart(last) {
				g.addEdge(last, v, EdgeDependency, -1, false)
			}
		}
		last = v
	}
}

type lockNode struct {
	ts    int64
	ev, v int32 // the event in the trace, the node
}

func (g *graph) isLock(v int32) bool {
	return g.cls[v>>1]&nmLock != 0
}

// sharesLock: consecutive nodes of lock calls, except an end followed by
// a start, are linked by lockChain, not by the call stack.
func (g *graph) sharesLock(a, b int32) bool {
	return g.isLock(a) && g.isLock(b) && (isStart(a) || !isStart(b))
}

// callStack walks one thread's events depth first (HTA's
// _construct_graph_from_call_stack): each op's or runtime call's start and
// end are joined, in walk order, to the node before; at depth 0 that link
// is a dependency of weight 0, inside an op an operator edge weighing the
// time between the two. Events without nodes (annotations, Python
// frames) are walked through. An event that starts inside another and
// ends after it is not its child.
type frame struct {
	end        int64 // the event's end
	ev, parent int32
	nodes      bool // hasNodes(the event's kind)
}

func (g *graph) callStack(evs []int32) {
	t := g.p.t
	stack := g.p.s.stack[:0]
	defer func() { g.p.s.stack = stack[:0] }()
	last, lastParent := int32(-1), int32(-1)
	depth := 0
	attr := func(src, dst int32) int32 {
		switch {
		case isStart(src):
			return g.event(src)
		case !isStart(dst):
			return g.event(dst)
		}
		return lastParent
	}
	enter := func(i, parent int32) {
		v := g.start(i)
		if last >= 0 && !g.sharesLock(last, v) {
			if depth == 0 {
				g.addEdge(last, v, EdgeDependency, -1, false)
			} else {
				g.addEdge(last, v, EdgeOperator, attr(last, v), false)
			}
		}
		last, lastParent = v, parent
		depth++
	}
	exit := func(f frame) {
		if !f.nodes {
			return
		}
		v := g.end(f.ev)
		if last >= 0 && !g.sharesLock(last, v) {
			g.addEdge(last, v, EdgeOperator, attr(last, v), g.cls[v>>1]&nmBlocking != 0)
		}
		last, lastParent = v, f.parent
		depth--
	}
	// each frame keeps its event's end and whether it has nodes: the
	// walk read them from the events again at every step
	for _, i := range evs {
		e := t.Ev(int(i))
		start, end := e.Start, e.End()
		for len(stack) > 0 {
			if p := &stack[len(stack)-1]; start < p.end && end <= p.end {
				break
			}
			exit(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		parent := int32(-1)
		if len(stack) > 0 {
			parent = stack[len(stack)-1].ev
		}
		nodes := hasNodes(e.Kind)
		if nodes {
			enter(i, parent)
		}
		stack = append(stack, frame{end, i, parent, nodes})
	}
	for len(stack) > 0 {
		exit(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
}

// device adds the device ops' edges and the syncs (HTA's
// _construct_graph_from_kernels), walking the ops by start and the
// cuda_sync rows by end.
func (g *graph) device(ops, syncs []int32) {
	p, t, l := g.p, g.p.t, g.p.l
	rows := p.s.rows[:0]
	for _, o := range ops {
		rows = append(rows, row{t.Ev(int(o)).Start, false, o})
	}
	for _, s := range syncs {
		rows = append(rows, row{t.Ev(int(s)).End(), true, s})
	}
	// the ops come from the threads' walks, mostly by start already, and
	// the syncs after them: sortRuns merges the runs (a total order, so
	// the same result as the sort, which took 2.8 M instructions on the
	// 20 MB default bench trace)
	p.s.rowBuf = sortRuns(rows, p.s.rowBuf, func(a, b row) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		if a.sync != b.sync {
			if a.sync {
				return -1
			}
			return 1
		}
		return t.CompareInTrack(a.i, b.i)
	})
	p.s.rows = rows[:0]
	// the end node of the last op on each device stream (track), -1 before one
	last := grow(p.s.last, len(t.Tracks), false)
	for k := range last {
		last[k] = -1
	}
	p.s.last = last
	touched := p.s.touched[:0]
	for _, r := range rows {
		e := t.Ev(int(r.i))
		if r.sync {
			g.syncRow(r.i, last, touched)
			continue
		}
		sv, ev := g.start(r.i), g.end(r.i)
		g.addEdge(sv, ev, EdgeOperator, r.i, false)
		var syncEnd int64
		hasSync := false
		if w := p.waitFor(r.i); w != nil && p.local[w.src] >= 0 {
			src := g.end(w.src)
			g.syncs = append(g.syncs, syncRef{g.addEdge(src, sv, EdgeSync, -1, false), SyncStreamWait, w.row})
			syncEnd, hasSync = g.ts(src), true
		}
		call := l.Launch[r.i]
		cs := t.Ev(int(call)).Start
		prev := last[e.Track]
		hasPrev := prev >= 0
		switch {
		case p.flags[r.i]&opIdle != 0 && (!hasPrev || g.ts(prev) < cs) && (!hasSync || syncEnd < cs):
			g.addEdge(g.start(call), sv, EdgeLaunch, -1, false)
		case hasPrev && (!hasSync || syncEnd < g.ts(prev)) && e.Start-g.ts(prev) < MaxKernelGapNs:
			g.addEdge(prev, sv, EdgeKernelKernel, g.event(prev), false)
		}
		if !hasPrev {
			touched = append(touched, e.Track)
		}
		last[e.Track] = ev
	}
	p.s.touched = touched[:0]
}

type row struct {
	key  int64
	sync bool
	i    int32
}

// syncRow adds the GPU-to-CPU edges of one cuda_sync row: into the end of
// the runtime call that waited.
func (g *graph) syncRow(row int32, last, touched []int32) {
	p, t := g.p, g.p.t
	e := t.Ev(int(row))
	f := p.names[e.Name]
	call := p.l.Launch[row]
	to := g.end(call)
	switch {
	case f&nmEventSync != 0:
		if src, ok := p.syncSrc[row]; ok && src >= 0 && p.local[src] >= 0 {
			g.syncs = append(g.syncs, syncRef{g.addEdge(g.end(src), to, EdgeSync, -1, false), SyncEvent, row})
		}
	case f&nmStreamSync != 0:
		if v := last[e.Track]; v >= 0 {
			g.syncs = append(g.syncs, syncRef{g.addEdge(v, to, EdgeSync, -1, false), SyncStream, row})
		}
	case f&nmContextSync != 0:
		dev := t.Tracks[e.Track].Device
		tracks := slices.Clone(touched)
		slices.Sort(tracks)
		for _, tr := range tracks {
			if t.Tracks[tr].Device == dev {
				g.syncs = append(g.syncs, syncRef{g.addEdge(last[tr], to, EdgeSync, -1, false), SyncDevice, row})
			}
		}
	}
}

// searchFrom is sort.Search(n, f) (f false, then true) searched forward
// from hint, a guess at or before the result: by steps that double, then
// a binary search within the last step. A hint past the result (f true at
// hint-1) or outside [0, n] searches the whole range.
func searchFrom(n, hint int, f func(int) bool) int {
	if hint < 0 || hint > n || hint > 0 && f(hint-1) {
		return sort.Search(n, f)
	}
	lo := hint // f(lo-1) is false
	for step := 1; ; step *= 2 {
		hi := lo + step - 1
		if hi >= n {
			return lo + sort.Search(n-lo, func(i int) bool { return f(lo + i) })
		}
		if f(hi) {
			return lo + sort.Search(hi-lo, func(i int) bool { return f(lo + i) })
		}
		lo = hi + 1
	}
}
