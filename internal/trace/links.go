package trace

import (
	"cmp"
	"slices"
)

// Links is the structure tracetab derives from the flat event list: per-track
// time order, the CPU nesting tree, and launch links between CPU calls and
// device ops. Build it once with (*Trace).Links.
type Links struct {
	// Order lists event indices per track, sorted by (start, -end, file
	// order); the events of track k are Order[TrackStart[k]:TrackStart[k+1]].
	Order      []int32
	TrackStart []int32

	// Parent is, for events on CPU tracks, the innermost event on the same
	// track that contains it (half-open intervals, as torch nests them), or -1.
	Parent []int32

	// Launch is, for a device op, the runtime or driver call that launched it
	// (matched by correlation id); for a runtime or driver call, the
	// innermost cpu_op that was running on its thread (the op that launched
	// it); -1 when unknown.
	Launch []int32

	// Launched counts, per event, the device ops a runtime or driver call
	// launched (0 for other events). A graph launch has many.
	Launched []int32

	opByExt *idIndex // External id -> cpu_op
	corr    *idIndex // correlation id -> launch call

	DeviceOps        int // kernels, memcpys, memsets, syncs on GPU lanes
	LinkedDeviceOps  int // device ops whose launch call is in the trace
	LaunchesWithOp   int // launch calls that lie inside a cpu_op
	LaunchCalls      int // runtime + driver calls
	DuplicateCorrIDs int // launch calls whose correlation id was seen before
}

// OmitFromLinks has the links, when they are built after it, made
// without Parent (nil when parent) and without Launched (nil when
// launched), for a command that reads neither: 4 bytes an event each never
// allocated. Links built before it keep both.
func (t *Trace) OmitFromLinks(parent, launched bool) {
	t.linkNoParent, t.linkNoLaunched = parent, launched
}

// Links computes (once) and returns the derived structure.
func (t *Trace) Links() *Links {
	t.linkOnce.Do(func() { t.linkCache = buildLinks(t) })
	return t.linkCache
}

func buildLinks(t *Trace) *Links {
	n := t.NumEvents()
	l := &Links{Launch: make([]int32, n)}
	if !t.linkNoParent {
		l.Parent = make([]int32, n)
	}
	if !t.linkNoLaunched {
		l.Launched = make([]int32, n)
	}
	corrR, extR := l.placeInTracks(t)
	l.sortTracks(t)
	l.indexIDs(t, corrR, extR)
	l.nestTracks(t)
	l.linkDeviceOps(t)
	return l
}

// placeInTracks lists every event under its track in file order (a
// counting sort), sets Parent and Launch to -1, counts the launch calls,
// and returns the ranges of the correlation ids of launch calls and of the
// External ids of cpu_ops.
func (l *Links) placeInTracks(t *Trace) (corrR, extR idRange) {
	ev := &t.Events
	l.TrackStart = make([]int32, len(t.Tracks)+1)
	for _, c := range ev.Chunks() {
		for i := range c {
			l.TrackStart[c[i].Track+1]++
		}
	}
	for k := 1; k < len(l.TrackStart); k++ {
		l.TrackStart[k] += l.TrackStart[k-1]
	}
	l.Order = make([]int32, t.NumEvents())
	fill := slices.Clone(l.TrackStart[:len(t.Tracks)])
	i := int32(0)
	for _, c := range ev.Chunks() {
		for k := range c {
			e := &c[k]
			l.Order[fill[e.Track]] = i
			fill[e.Track]++
			if l.Parent != nil {
				l.Parent[i] = -1
			}
			l.Launch[i] = -1
			switch {
			case e.Kind.IsLaunch():
				l.LaunchCalls++
				if e.Has(FlagCorr) {
					corrR.see(t.CorrOf(e))
				}
			case e.Kind == KindCPUOp && e.Has(FlagExtID):
				extR.see(t.ExtIDOf(e))
			}
			i++
		}
	}
	return corrR, extR
}

// sortTracks puts each track's events in time order (CompareInTrack).
func (l *Links) sortTracks(t *Trace) {
	less := t.CompareInTrack
	for k := range t.Tracks {
		s := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		if !slices.IsSortedFunc(s, less) {
			slices.SortFunc(s, less)
		}
	}
}

// indexIDs indexes the launch calls by correlation id and the cpu_ops by
// External id.
func (l *Links) indexIDs(t *Trace, corrR, extR idRange) {
	corr := newIDIndex(corrR.n, corrR.lo, corrR.hi)
	opByExt := newIDIndex(extR.n, extR.lo, extR.hi)
	i := int32(0)
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			switch {
			case e.Kind.IsLaunch() && e.Has(FlagCorr):
				corr.add(t.CorrOf(e), i)
			case e.Kind == KindCPUOp && e.Has(FlagExtID):
				opByExt.add(t.ExtIDOf(e), i)
			}
			i++
		}
	}
	l.DuplicateCorrIDs = corr.dup
	l.opByExt, l.corr = opByExt, corr
}

// nestTracks finds, per CPU track, each event's parent and the innermost
// enclosing cpu_op of each launch call (launchOp).
func (l *Links) nestTracks(t *Trace) {
	stack := make([]int32, 0, 64)
	opStack := make([]int32, 0, 64)
	for k := range t.Tracks {
		if t.Tracks[k].Kind == TrackDevice {
			continue
		}
		stack, opStack = stack[:0], opStack[:0]
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Events.At(int(i))
			stack = popNotEnclosing(&t.Events, stack, e)
			if len(stack) > 0 && l.Parent != nil {
				l.Parent[i] = stack[len(stack)-1]
			}
			opStack = popNotEnclosing(&t.Events, opStack, e)
			if e.Kind.IsLaunch() {
				l.Launch[i] = launchOp(t, e, l.opByExt, opStack)
				if l.Launch[i] >= 0 {
					l.LaunchesWithOp++
				}
			}
			stack = append(stack, i)
			if e.Kind == KindCPUOp {
				opStack = append(opStack, i)
			}
		}
	}
}

// popNotEnclosing drops from the top of stack the events that do not
// contain e: those that ended by its start (half-open) and those it
// overhangs (it ends after them).
func popNotEnclosing(ev *Store[Event], stack []int32, e *Event) []int32 {
	for len(stack) > 0 {
		p := ev.At(int(stack[len(stack)-1]))
		if e.Start < p.End() && e.End() <= p.End() {
			break
		}
		stack = stack[:len(stack)-1]
	}
	return stack
}

// linkDeviceOps links each device op (GPU annotations aside) to the
// launch call of its correlation id, and counts both.
func (l *Links) linkDeviceOps(t *Trace) {
	i := int32(0)
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			if e.Kind.IsDevice() && e.Kind != KindGPUAnnotation {
				l.DeviceOps++
				if e.Has(FlagCorr) {
					if r, ok := l.corr.get(t.CorrOf(e)); ok {
						l.Launch[i] = r
						if l.Launched != nil {
							l.Launched[r]++
						}
						l.LinkedDeviceOps++
					}
				}
			}
			i++
		}
	}
}

// launchOp decides which cpu_op launched a runtime or driver call: the 2021
// lower-case "external id" names it directly; an "External id" different from
// the call's own correlation (kineto >= 2024-02) names it too; otherwise the
// innermost enclosing cpu_op on the same thread.
func launchOp(t *Trace, e *Event, opByExt *idIndex, opStack []int32) int32 {
	ext := t.ExtIDOf(e)
	if e.Has(FlagLowerExtID) || (e.Has(FlagExtID) && (!e.Has(FlagCorr) || ext != t.CorrOf(e))) {
		if ext == 0 {
			return -1
		}
		if op, ok := opByExt.get(ext); ok {
			return op
		}
	}
	if len(opStack) > 0 {
		return opStack[len(opStack)-1]
	}
	return -1
}

// CompareInTrack orders events a and b as Links.Order lists a track's
// events: by start, the longer first, then by event index (a parent always
// before its children).
func (t *Trace) CompareInTrack(a, b int32) int {
	ea, eb := t.Events.At(int(a)), t.Events.At(int(b))
	if c := cmp.Compare(ea.Start, eb.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(eb.End(), ea.End()); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// ReleaseIDIndexes lets go of the id lookups (OpByExtID, LaunchByCorr),
// for a command that never looks an id up once the links are built (gaps:
// 7 MB on a 1 GB trace). Looking an id up afterwards panics.
func (l *Links) ReleaseIDIndexes() { l.opByExt, l.corr = nil, nil }

// OpByExtID returns the cpu_op with this External id, or -1.
func (l *Links) OpByExtID(id int64) int32 {
	if l.opByExt == nil {
		panic("trace: OpByExtID after ReleaseIDIndexes")
	}
	if i, ok := l.opByExt.get(id); ok {
		return i
	}
	return -1
}

// LaunchByCorr returns the runtime or driver call with this correlation id, or -1.
func (l *Links) LaunchByCorr(id int64) int32 {
	if l.corr == nil {
		panic("trace: LaunchByCorr after ReleaseIDIndexes")
	}
	if i, ok := l.corr.get(id); ok {
		return i
	}
	return -1
}
