package critpath

import (
	"cmp"
	"math"
	"runtime"
	"slices"

	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// Category is what a stretch of the path was bound by.
type Category uint8

// The categories of the breakdown (HTA's bound_by, with data loading told
// apart from other CPU work).
const (
	CatCPU          Category = iota // CPU ops and runtime calls (operator edges of CPU events)
	CatGPUCompute                   // device ops that are not communication
	CatGPUComm                      // communication kernels (NCCL, RCCL, ...)
	CatLaunch                       // launch delays
	CatKernelKernel                 // gaps between consecutive ops on a stream
	CatDataLoading                  // CPU time of events in a DataLoader frame
	NumCategories
)

var catNames = [NumCategories]string{"cpu", "gpu_compute", "gpu_comm", "launch", "kernel_kernel", "data_loading"}

func (c Category) String() string { return catNames[c] }

// Options tune the analysis.
type Options struct {
	WhatIf  int     // names to try making faster (0: none)
	Speedup float64 // how much faster (>= 1)
	// Detail keeps each window's events, edges and sync edges (JSON, the
	// overlay); without it only their counts and the sums are kept.
	Detail bool
}

// Result is the analysis of every window.
type Result struct {
	Windows      []WindowResult
	NoSyncEvents bool // the trace has no cuda_sync events: syncs are not seen (HTA warns the path may be wrong)
	// Names: path time by event name over every window, largest first.
	Names []NameTime
	// WhatIfNames are the names tried in every window's WhatIf: the
	// first Options.WhatIf of Names.
	WhatIfNames []string
	// PathSyncs: the sync edges on the paths, grouped.
	PathSyncs []SyncCount
	// MedianPathNs is the median path over the windows that have one
	// (stats.MedianNs); HasMedian is false when none has.
	MedianPathNs int64
	HasMedian    bool
	Speedup      float64
	// TotalPathNs and TotalBreakdown sum the windows that have a path.
	TotalPathNs    int64
	TotalBreakdown [NumCategories]int64
	// WhatIfMedians: per name of WhatIfNames, the median over the windows
	// of the path before and after (stats.MedianNs).
	WhatIfMedians []WhatIfMedian
}

// WhatIfMedian is one what-if over every window.
type WhatIfMedian struct {
	Name              string
	PathNs, NewPathNs int64
}

// NameTime is the path time attributed to the events of one name.
type NameTime struct {
	Name     string
	OnPathNs int64
	Events   int // events of that name with path time

	id trace.StrID // the name's
}

// SyncCount is how often the paths wait on one kind of sync between two names.
type SyncCount struct {
	Kind     SyncKind
	From, To string // the device op waited for, the call (or op) that waited
	Count    int
}

// WindowResult is one window's graph and path.
type WindowResult struct {
	Window
	StartNs, EndNs int64 // offsets from the trace's origin

	HasPath bool
	Reason  string // why there is no path, when HasPath is false

	PathNs    int64 // the path's length: the sum of its edges' weights
	WallNs    int64 // its last node's time minus its first node's
	Breakdown [NumCategories]int64
	Events    []Event    // on the path, in order; then events that only own path time
	Edges     []PathEdge // the path's edges, in order
	Syncs     []SyncEdge // every sync edge of the window's graph
	WhatIf    []WhatIf

	// Uncounted is the time between the path's first and last node that
	// its weights leave out, by why (WallNs = PathNs + the four).
	Uncounted Uncounted

	OnPathEvents      int // events whose start or end is on the path
	Nodes, GraphEdges int
	Clamped           int // edges whose negative time difference counts 0

	names []NameTime // path time per name, until what-if has read it
}

// Event is an event of a path.
type Event struct {
	Index          int32 // in the trace
	Name           string
	Kind           trace.Kind
	Track          int32
	StartNs, DurNs int64 // start from the origin
	OnPathNs       int64 // path time attributed to it (HTA's attribution)
	OnPath         bool  // its start or end is on the path (false: an enclosing event the time is attributed to)
}

// PathEdge is an edge of a path; From and To index Events, FromEnd and
// ToEnd say whether it leaves (reaches) that event's end or its start.
type PathEdge struct {
	Type           EdgeType
	From, To       int
	FromEnd, ToEnd bool
	WeightNs       int64
}

// SyncEdge is a sync edge of a window's graph.
type SyncEdge struct {
	Kind     SyncKind
	OnPath   bool
	From, To EventRef
}

// EventRef names an event.
type EventRef struct {
	Index          int32
	Name           string
	StartNs, DurNs int64
}

// WhatIf is the path with the time of one name's events cut by Speedup.
type WhatIf struct {
	Name      string
	Speedup   float64
	OnPathNs  int64 // that name's path time before
	NewPathNs int64
	SavedNs   int64
}

// Analyze builds each window's graph and finds its longest path. It
// leaves the collector's target to its caller (tracetab critical-path and
// check run it at 100: internal/cli's atCritpathGC).
func Analyze(t *trace.Trace, windows []Window, o Options) *Result {
	if o.Speedup < 1 || math.IsNaN(o.Speedup) || math.IsInf(o.Speedup, 0) {
		o.Speedup = 2
	}
	p := newPrep(t)
	p.whatIf = o.WhatIf > 0
	r := &Result{NoSyncEvents: !p.hasSync, Speedup: o.Speedup}
	a := totals{at: make([]int32, len(t.Strings))}
	// per window: the names its what-ifs tried and their new paths (a few:
	// searched in order, where a map per window took more)
	type triedNames struct {
		names []string
		nw    []int64
	}
	tried := make([]triedNames, len(windows))
	// The windows' graphs are independent: the even windows are analysed
	// here, the odd ones on another core (with a prep of its own: the
	// graph buffers and the lazily filled caches), and their results are
	// summed in window order below, as one loop would.
	byNames := make([][]NameTime, len(windows))
	results := make([]WindowResult, len(windows))
	one := func(p *prep, k int) {
		w := windows[k]
		g := p.build(w)
		wr, tp, byName := g.analyze(w, o.Detail)
		if wr.HasPath && o.WhatIf > 0 {
			top := topNames(byName, o.WhatIf)
			names, nw := make([]string, len(top)), make([]int64, len(top))
			for j, nt := range top {
				names[j] = nt.Name
			}
			g.whatIfs(tp, names, o.Speedup, nw)
			tried[k] = triedNames{names, nw}
		}
		g.release()
		if !o.Detail {
			wr.Events, wr.Edges = []Event{}, []PathEdge{} // the totals read the syncs only
		}
		results[k], byNames[k] = wr, byName
	}
	if len(windows) > 1 && runtime.GOMAXPROCS(0) > 1 {
		q := p.fork()
		wait := safe.Go(func() { // a panic there is raised again by wait
			for k := 1; k < len(windows); k += 2 {
				one(q, k)
			}
		})
		for k := 0; k < len(windows); k += 2 {
			one(p, k)
		}
		wait()
	} else {
		for k := range windows {
			one(p, k)
		}
	}
	r.Windows = make([]WindowResult, 0, len(windows))
	for k := range windows {
		wr := results[k]
		a.add(r, &wr, byNames[k], o.WhatIf > 0)
		byNames[k] = nil
		if !o.Detail {
			wr.Syncs = []SyncEdge{}
		}
		if o.WhatIf == 0 {
			wr.names = nil
		}
		r.Windows = append(r.Windows, wr)
	}
	a.finish(r)
	if o.WhatIf > 0 {
		r.WhatIfNames = make([]string, 0, o.WhatIf)
		for _, nt := range r.Names[:min(o.WhatIf, len(r.Names))] {
			r.WhatIfNames = append(r.WhatIfNames, nt.Name)
		}
		for k := range r.Windows {
			wr := &r.Windows[k]
			if !wr.HasPath {
				continue
			}
			var g *graph
			var tp *topo
			for _, name := range r.WhatIfNames {
				var onPath, nw int64
				if x := slices.IndexFunc(wr.names, func(nt NameTime) bool { return nt.Name == name }); x >= 0 {
					onPath = wr.names[x].OnPathNs
				}
				x := slices.Index(tried[k].names, name)
				ok := x >= 0
				if ok {
					nw = tried[k].nw[x]
				}
				switch {
				case ok:
				case onPath == 0:
					nw = wr.PathNs // nothing of it on the path: cutting it cannot shorten the path
				default:
					if g == nil {
						g = p.build(windows[k])
						tp = g.topo()
					}
					nw = g.whatIf(tp, name, o.Speedup)
				}
				wr.WhatIf = append(wr.WhatIf, WhatIf{Name: name, Speedup: o.Speedup, OnPathNs: onPath, NewPathNs: nw, SavedNs: wr.PathNs - nw})
			}
			if g != nil {
				g.release()
			}
			wr.names = nil
		}
		for k, name := range r.WhatIfNames {
			var before, after []int64
			for _, w := range r.Windows {
				if w.HasPath {
					before, after = append(before, w.PathNs), append(after, w.WhatIf[k].NewPathNs)
				}
			}
			r.WhatIfMedians = append(r.WhatIfMedians, WhatIfMedian{Name: name, PathNs: stats.MedianNs(before), NewPathNs: stats.MedianNs(after)})
		}
	}
	return r
}

// analyze finds the window's path and reads it; without detail it keeps
// of the path's edges and of the graph's sync edges only what the totals
// need. The sums (path time per event and per name, the events on the
// path) are kept per local event and per name id in the prep's buffers,
// not in Event records and maps of strings: the text view reads only the
// sums (on the 20 MB default bench trace the records and maps were 2 MB of
// the 5 MB the analysis allocated).
func (g *graph) analyze(w Window, detail bool) (WindowResult, *topo, []NameTime) {
	t := g.p.t
	wr := WindowResult{Window: w, StartNs: w.Start - t.TraceStart, EndNs: w.End - t.TraceStart,
		Nodes: 2 * len(g.ev), GraphEdges: len(g.edges), Clamped: g.clamps, Events: []Event{}, Edges: []PathEdge{}, Syncs: []SyncEdge{}}
	tp := g.topo()
	switch {
	case len(g.edges) == 0:
		wr.Reason = "the window holds no CPU op, runtime call or device op with a duration"
		return wr, tp, nil
	case tp.cyclic:
		wr.Reason = "the window's graph has a cycle (device ops that start before their launch call, or clocks that disagree): no longest path"
		return wr, tp, nil
	}
	length, path := g.longest(tp)
	wr.HasPath, wr.PathNs = true, length

	onPathEdge := grow(g.p.s.onPath, len(g.edges), true)
	g.p.s.onPath = onPathEdge
	if len(path) > 0 {
		first := g.edges[path[0]].from
		wr.WallNs = g.ts(g.edges[path[len(path)-1]].to) - g.ts(first)
	}
	// events on the path: marked per local event
	mark := grow(g.p.s.pos, len(g.ev), true)
	g.p.s.pos = mark
	for _, k := range path {
		e := &g.edges[k]
		onPathEdge[k] = true
		wr.Uncounted.add(e.typ, g.ts(e.to)-g.ts(e.from)-e.w)
		for _, v := range [2]int32{e.from, e.to} {
			if mark[v>>1] == 0 {
				mark[v>>1] = 1
				wr.OnPathEvents++
			}
		}
	}
	// path time per event (attributed: an event with nodes by its local
	// number, one without in a small list) and the breakdown
	own := grow(g.p.s.own, len(g.ev), true)
	g.p.s.own = own
	owners, other := g.p.s.owners[:0], g.p.s.other[:0]
	for _, k := range path {
		e := &g.edges[k]
		switch e.typ {
		case EdgeLaunch:
			wr.Breakdown[CatLaunch] += e.w
		case EdgeKernelKernel:
			wr.Breakdown[CatKernelKernel] += e.w
		case EdgeOperator:
			wr.Breakdown[g.category(e.attr)] += e.w
		}
		if e.attr < 0 || e.typ != EdgeOperator && e.typ != EdgeKernelKernel || e.w == 0 {
			continue
		}
		if l := g.p.local[e.attr]; l >= 0 {
			if own[l] == 0 {
				owners = append(owners, e.attr)
			}
			own[l] += e.w
			continue
		}
		x := slices.IndexFunc(other, func(o eventNs) bool { return o.i == e.attr })
		if x < 0 {
			other = append(other, eventNs{e.attr, 0})
			x = len(other) - 1
		}
		other[x].ns += e.w
	}
	// per name, by the name's id
	at := g.p.nameAt()
	byName := g.p.s.names[:0]
	count := func(i int32, ns int64) {
		id := t.Ev(int(i)).Name
		if at[id] == 0 {
			byName = append(byName, NameTime{Name: t.Str(id), id: id})
			at[id] = int32(len(byName))
		}
		nt := &byName[at[id]-1]
		nt.OnPathNs += ns
		nt.Events++
	}
	for _, i := range owners {
		count(i, own[g.p.local[i]])
	}
	for _, o := range other {
		count(o.i, o.ns)
	}
	for _, i := range owners {
		at[t.Ev(int(i)).Name] = 0
	}
	for _, o := range other {
		at[t.Ev(int(o.i)).Name] = 0
	}
	g.p.s.owners, g.p.s.other, g.p.s.names = owners[:0], other[:0], byName[:0]
	byName = slices.Clone(byName)

	if detail {
		g.detail(&wr, path)
	}
	for _, s := range g.syncs {
		e := &g.edges[s.edge]
		if detail || onPathEdge[s.edge] {
			wr.Syncs = append(wr.Syncs, SyncEdge{Kind: s.kind, OnPath: onPathEdge[s.edge], From: g.ref(g.event(e.from)), To: g.ref(g.event(e.to))})
		}
	}
	return wr, tp, byName
}

type eventNs struct {
	i  int32
	ns int64
}

// nameAt is a zeroed buffer of one int32 per name id (analyze leaves it
// zeroed).
func (p *prep) nameAt() []int32 {
	if p.nameIdx == nil {
		p.nameIdx = make([]int32, len(p.t.Strings))
	}
	return p.nameIdx
}

// detail lists the path's events and edges in wr (JSON, the overlay):
// the events on the path in order, then those that only own path time.
func (g *graph) detail(wr *WindowResult, path []int32) {
	t := g.p.t
	pos := grow(g.p.s.pos, len(g.ev), true) // local event -> index in Events + 1
	g.p.s.pos = pos
	other := map[int32]int{} // events without nodes (annotations the time is attributed to)
	wr.Events = make([]Event, 0, len(path)/2+2)
	addEvent := func(i int32, onPath bool) int {
		k := g.p.local[i]
		if k >= 0 && pos[k] > 0 {
			return int(pos[k] - 1)
		} else if x, ok := other[i]; k < 0 && ok {
			return x
		}
		e := t.Ev(int(i))
		if k >= 0 {
			pos[k] = int32(len(wr.Events) + 1)
		} else {
			other[i] = len(wr.Events)
		}
		wr.Events = append(wr.Events, Event{Index: i, Name: t.Str(e.Name), Kind: e.Kind, Track: e.Track,
			StartNs: e.Start - t.TraceStart, DurNs: e.Dur, OnPath: onPath})
		return len(wr.Events) - 1
	}
	wr.Edges = make([]PathEdge, 0, len(path))
	for _, k := range path {
		e := &g.edges[k]
		from, to := addEvent(g.event(e.from), true), addEvent(g.event(e.to), true)
		wr.Edges = append(wr.Edges, PathEdge{Type: e.typ, From: from, To: to, FromEnd: !isStart(e.from), ToEnd: !isStart(e.to), WeightNs: e.w})
	}
	for _, k := range path {
		e := &g.edges[k]
		if e.attr >= 0 && (e.typ == EdgeOperator || e.typ == EdgeKernelKernel) {
			x := &wr.Events[addEvent(e.attr, false)]
			x.OnPathNs += e.w
		}
	}
}

func (g *graph) ref(i int32) EventRef {
	t := g.p.t
	e := t.Ev(int(i))
	return EventRef{Index: i, Name: t.Str(e.Name), StartNs: e.Start - t.TraceStart, DurNs: e.Dur}
}

// category is what an operator edge attributed to event a was bound by.
func (g *graph) category(a int32) Category {
	t := g.p.t
	if a < 0 {
		return CatCPU
	}
	e := t.Ev(int(a))
	if t.Tracks[e.Track].Kind == trace.TrackDevice {
		if g.p.isComm(e.Name) {
			return CatGPUComm
		}
		return CatGPUCompute
	}
	if g.inDataLoader(a) {
		return CatDataLoading
	}
	return CatCPU
}

// inDataLoader: the event or one that encloses it is a DataLoader frame
// (decided once per event, for the chain of its enclosing events).
func (g *graph) inDataLoader(a int32) bool {
	p := g.p
	t, l := p.t, p.l
	if p.dl == nil {
		p.dl = make([]int8, t.NumEvents())
	}
	chain := p.s.open[:0]
	v := int8(1)
	for x := a; x >= 0; x = l.Parent[x] {
		if p.dl[x] != 0 {
			v = p.dl[x]
			break
		}
		chain = append(chain, x)
		if p.names[t.Ev(int(x)).Name]&nmDataLoader != 0 {
			v = 2
			break
		}
	}
	for _, x := range chain {
		p.dl[x] = v
	}
	p.s.open = chain[:0]
	return v == 2
}

// topNames sorts byName in place, most path time first, and returns its
// first n (all for n < 0).
func topNames(byName []NameTime, n int) []NameTime {
	out := byName
	slices.SortFunc(out, func(a, b NameTime) int {
		if c := cmp.Compare(b.OnPathNs, a.OnPathNs); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if n >= 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// totals gathers the sums over the windows as they are analysed.
type totals struct {
	at    []int32 // per name id: its index in names + 1, 0 for none (a map by name hashed every name of every window)
	names []NameTime
	syncs map[syncKey]int
	paths []int64
}

type syncKey struct {
	kind     SyncKind
	from, to string
}

// add counts one window in, and keeps its path time per name (for what-if).
func (a *totals) add(r *Result, w *WindowResult, byName []NameTime, keep bool) {
	if a.syncs == nil {
		a.syncs = map[syncKey]int{}
	}
	if !w.HasPath {
		return
	}
	a.paths = append(a.paths, w.PathNs)
	r.TotalPathNs += w.PathNs
	for c, ns := range w.Breakdown {
		r.TotalBreakdown[c] += ns
	}
	if keep {
		w.names = byName
	}
	for _, nt := range byName {
		if a.at[nt.id] == 0 {
			a.names = append(a.names, NameTime{Name: nt.Name, id: nt.id})
			a.at[nt.id] = int32(len(a.names))
		}
		x := &a.names[a.at[nt.id]-1]
		x.OnPathNs += nt.OnPathNs
		x.Events += nt.Events
	}
	for _, s := range w.Syncs {
		if s.OnPath {
			a.syncs[syncKey{s.Kind, s.From.Name, s.To.Name}]++
		}
	}
}

// finish sorts the sums into r.
func (a *totals) finish(r *Result) {
	r.Names = topNames(a.names, -1)
	if r.Names == nil {
		r.Names = []NameTime{}
	}
	for k, n := range a.syncs {
		r.PathSyncs = append(r.PathSyncs, SyncCount{Kind: k.kind, From: k.from, To: k.to, Count: n})
	}
	slices.SortFunc(r.PathSyncs, func(a, b SyncCount) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		if c := cmp.Compare(a.To, b.To); c != 0 {
			return c
		}
		return cmp.Compare(a.From, b.From)
	})
	if len(a.paths) > 0 {
		r.MedianPathNs, r.HasMedian = stats.MedianNs(a.paths), true
	}
}
