package chain

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

const defaultDeviceLines = 20

// runner walks the chosen instances into a sink within the line budget.
type runner struct {
	w    *walker
	o    Options
	sink Sink
	left int // lines left; meaningful when o.MaxLines > 0
	info *ChainInfo
	next int // next item ID of the chain
	err  error
}

func (r *runner) spent() bool { return r.o.MaxLines > 0 && r.left <= 0 }

// put emits it, or counts it when the budget is spent.
func (r *runner) put(it *Item) {
	if r.err != nil {
		return
	}
	if r.spent() {
		r.info.OmittedLines++
		return
	}
	r.left--
	r.err = r.sink.Item(it)
}

// Run walks the chosen instances of s into sink.
func Run(s *Selection, o Options, sink Sink) (*Footer, error) {
	w := s.w
	w.prepare()
	if o.MaxDeviceLines <= 0 {
		o.MaxDeviceLines = defaultDeviceLines
	}
	r := &runner{w: w, o: o, sink: sink, left: o.MaxLines}
	if err := sink.Begin(s); err != nil {
		return nil, err
	}
	f := &Footer{MaxLines: o.MaxLines}
	for _, k := range s.Chosen {
		if r.spent() {
			f.OmittedInstances++
			continue
		}
		in := s.Instances[k]
		info := &ChainInfo{Instance: k + 1, Of: len(s.Instances), Direction: s.Dir, Step: in.Step, MaxLines: o.MaxLines, MaxDepth: o.MaxDepth}
		r.info, r.next = info, 0
		ev := w.t.Ev(int(in.Event))
		switch {
		case s.Dir == Down:
			info.Root = r.node(in.Event, -1, -1, 0, true, "")
			if err := sink.BeginChain(info); err != nil {
				return nil, err
			}
			r.down(in.Event, info.Root, 0, true)
		case ev.Kind.IsDevice():
			info.Device = w.deviceOp(in.Event)
			info.Unlinked = w.l.Launch[in.Event] < 0
			if err := sink.BeginChain(info); err != nil {
				return nil, err
			}
			r.up(w.l.Launch[in.Event], ev.Start, in.At)
		default:
			info.Root = &Item{Kind: ItemEvent, Event: in.Event, Name: w.t.NameOf(int(in.Event)), EvKind: ev.Kind,
				Thread: w.thread(in.Event), StartNs: ev.Start - w.t.TraceStart, DurNs: ev.Dur}
			if err := sink.BeginChain(info); err != nil {
				return nil, err
			}
			r.up(in.Event, ev.Start, in.At)
		}
		if r.err != nil {
			return nil, r.err
		}
		f.Chains++
		f.OmittedLines += info.OmittedLines
		if err := sink.EndChain(info); err != nil {
			return nil, err
		}
	}
	return f, sink.End(s, f)
}

// node builds the item of CPU event i (down: parent p, -1 for the root).
func (r *runner) node(i, p int32, parentID, depth int, last bool, prev string) *Item {
	w, t := r.w, r.w.t
	e := t.Ev(int(i))
	it := &Item{Kind: ItemEvent, ID: r.next, Parent: parentID, Depth: depth, Last: last, Event: i,
		Name: t.NameOf(int(i)), EvKind: e.Kind, Thread: w.thread(i), StartNs: e.Start - t.TraceStart, DurNs: e.Dur,
		SelfNs: w.self[i], HasSelf: true, BackwardOf: w.backwardOf(i), HasChildren: w.lastChild[i] >= 0}
	r.next++
	devs := w.launched(i)
	it.Launched = len(devs)
	parentName, parentKind := "", trace.KindOther
	if p >= 0 {
		it.OffsetNs = e.Start - t.Ev(int(p)).Start
		parentName, parentKind = t.NameOf(int(p)), t.Ev(int(p)).Kind
	}
	it.Marks = w.marks(i, prev, parentName, parentKind, devs)
	return it
}

// lines is how many items event i takes with its device ops.
func (r *runner) lines(i int32) int {
	n := len(r.w.launched(i))
	if n > r.o.MaxDeviceLines+1 {
		n = r.o.MaxDeviceLines + 1
	}
	return 1 + n
}

// emitNode puts the item of event i and its device ops; when the budget
// is spent it only counts them.
func (r *runner) emitNode(it *Item) {
	if r.spent() {
		r.info.OmittedLines += r.lines(it.Event)
		return
	}
	r.put(it)
	devs := r.w.launched(it.Event)
	for k, d := range devs {
		if k == r.o.MaxDeviceLines && len(devs) > r.o.MaxDeviceLines+1 {
			r.put(&Item{Kind: ItemMoreDevice, Depth: it.Depth, Event: it.Event, Count: len(devs) - k})
			break
		}
		r.put(&Item{Kind: ItemDevice, Depth: it.Depth, Event: d[1], Dev: r.w.deviceOp(d[1]), Last: k == len(devs)-1})
	}
}

type pathEntry struct {
	ev       int32
	id       int
	lastName string
}

// down walks the subtree of root on its track, iteratively: the track's
// events in time order from root up to root's end, keeping those whose
// parent is in the subtree (a stamp per event). rootItem is root's item,
// emitted here; depth is its depth. An annotation with no children on its
// own thread hops (once) to the top-level events of other threads that lie
// inside its window.
func (r *runner) down(root int32, rootItem *Item, depth int, hop bool) {
	w, t, l := r.w, r.w.t, r.w.l
	re := t.Ev(int(root))
	r.emitNode(rootItem)
	if hop {
		r.hopFrom(root, rootItem.ID, depth)
	}
	cur := w.newStamp()
	w.stamp[root] = cur
	path := []pathEntry{{ev: root, id: rootItem.ID}}
	tr := re.Track
	ord := l.Order[l.TrackStart[tr]:l.TrackStart[tr+1]]
	base := depth
	for k := int(w.pos[root]) + 1; k < len(ord) && r.err == nil; k++ {
		i := ord[k]
		e := t.Ev(int(i))
		if e.Start >= re.End() {
			break
		}
		p := l.Parent[i]
		if p < 0 || w.stamp[p] != cur {
			continue
		}
		for path[len(path)-1].ev != p {
			path = path[:len(path)-1]
		}
		w.stamp[i] = cur
		d := base + len(path)
		top := &path[len(path)-1]
		prev := top.lastName
		top.lastName = t.NameOf(int(i))
		last := w.lastChild[p] == i
		switch {
		case r.o.MaxDepth > 0 && d-base > r.o.MaxDepth:
			r.info.HiddenBelowDepth++
			path = append(path, pathEntry{ev: i, id: -1})
		case r.spent():
			r.info.OmittedLines += r.lines(i)
			path = append(path, pathEntry{ev: i, id: -1})
			if hop {
				r.hopFrom(i, -1, d)
			}
		default:
			it := r.node(i, p, top.id, d, last, prev)
			r.emitNode(it)
			path = append(path, pathEntry{ev: i, id: it.ID})
			if hop {
				r.hopFrom(i, it.ID, d)
			}
		}
	}
}

// hopTargets lists, per other CPU track (in track order), the top-level
// events inside the window of annotation a when a has no children on its
// own thread. One binary search over the top-level events of all tracks,
// then only those starting inside the window are looked at.
func (r *runner) hopTargets(a int32) [][]int32 {
	w, t := r.w, r.w.t
	e := t.Ev(int(a))
	if e.Kind != trace.KindAnnotation || w.lastChild[a] >= 0 || e.Dur <= 0 {
		return nil
	}
	j, _ := slices.BinarySearchFunc(w.topAll, e.Start, func(i int32, v int64) int { return cmp.Compare(t.Ev(int(i)).Start, v) })
	byTrack := map[int32][]int32{}
	var tracks []int32
	for ; j < len(w.topAll) && t.Ev(int(w.topAll[j])).Start < e.End(); j++ {
		i := w.topAll[j]
		x := t.Ev(int(i))
		if x.Track == e.Track || x.End() > e.End() {
			continue
		}
		if byTrack[x.Track] == nil {
			tracks = append(tracks, x.Track)
		}
		byTrack[x.Track] = append(byTrack[x.Track], i)
	}
	slices.Sort(tracks)
	var out [][]int32
	for _, k := range tracks {
		out = append(out, byTrack[k])
	}
	return out
}

// hopFrom walks the events another thread ran inside annotation a's
// window (a has item ID id at depth d), each under a hop line.
func (r *runner) hopFrom(a int32, id, d int) {
	targets := r.hopTargets(a)
	t := r.w.t
	for ti, sel := range targets {
		if r.spent() {
			r.info.OmittedLines++ // the hop line, then each subtree
			for _, i := range sel {
				r.countSubtree(i)
			}
			continue
		}
		r.put(&Item{Kind: ItemHop, Depth: d + 1, Event: sel[0], Thread: r.w.thread(sel[0]), Count: len(sel), Parent: id})
		for k, i := range sel {
			last := ti == len(targets)-1 && k == len(sel)-1
			it := r.node(i, -1, id, d+1, last, "")
			it.CrossThread = true
			it.OffsetNs = t.Ev(int(i)).Start - t.Ev(int(a)).Start
			r.down(i, it, d+1, false)
		}
	}
}

// countSubtree counts the lines of event i's subtree without emitting them.
func (r *runner) countSubtree(i int32) {
	it := &Item{Event: i}
	r.down(i, it, 0, false) // the budget is spent: down only counts
}

// up walks from CPU event p (the launch call of a device op, or the event
// itself) outward through its parents, one frame per item; child is the
// start of what lies below p, at the instance's time. When no frame is a
// profiler step and a step holds at on another thread, a last hop item
// names it.
func (r *runner) up(p int32, child, at int64) {
	w, t, l := r.w, r.w.t, r.w.l
	sawStep := false
	var topTrack int32 = -1
	for k := 0; p >= 0 && r.err == nil; k++ {
		e := t.Ev(int(p))
		if _, ok := trace.StepNumber(t.NameOf(int(p))); ok {
			sawStep = true
		}
		topTrack = e.Track
		if r.spent() {
			r.info.OmittedLines++
		} else {
			devs := w.launched(p)
			r.put(&Item{Kind: ItemEvent, ID: r.next, Parent: -1, Depth: k, Event: p, Name: t.NameOf(int(p)), EvKind: e.Kind,
				Thread: w.thread(p), StartNs: e.Start - t.TraceStart, OffsetNs: child - e.Start, DurNs: e.Dur,
				SelfNs: w.self[p], HasSelf: true, Launched: len(devs), BackwardOf: w.backwardOf(p),
				Marks: w.marks(p, "", "", trace.KindOther, devs)})
			r.next++
		}
		child = e.Start
		p = l.Parent[p]
	}
	if sawStep || topTrack < 0 {
		return
	}
	if k := w.stepAt(at); k >= 0 {
		s := w.steps[k]
		e := t.Ev(int(s.Ev))
		r.put(&Item{Kind: ItemHop, ByTime: true, ID: r.next, Parent: -1, Event: s.Ev, Name: t.NameOf(int(s.Ev)), EvKind: e.Kind,
			Thread: w.thread(s.Ev), StartNs: e.Start - t.TraceStart, OffsetNs: child - e.Start, DurNs: e.Dur,
			SelfNs: w.self[s.Ev], HasSelf: true, OtherThread: e.Track != topTrack})
		r.next++
	}
}
