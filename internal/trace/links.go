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

// Links computes (once) and returns the derived structure.
func (t *Trace) Links() *Links {
	t.linkOnce.Do(func() { t.linkCache = buildLinks(t) })
	return t.linkCache
}

func buildLinks(t *Trace) *Links {
	n := t.NumEvents()
	l := &Links{
		Parent:   make([]int32, n),
		Launch:   make([]int32, n),
		Launched: make([]int32, n),
	}
	ev := &t.Events
	// Counting sort by track, then sort each track's slice by time.
	l.TrackStart = make([]int32, len(t.Tracks)+1)
	for _, c := range ev.Chunks() {
		for i := range c {
			l.TrackStart[c[i].Track+1]++
		}
	}
	for k := 1; k < len(l.TrackStart); k++ {
		l.TrackStart[k] += l.TrackStart[k-1]
	}
	l.Order = make([]int32, n)
	fill := slices.Clone(l.TrackStart[:len(t.Tracks)])
	var corrR, extR idRange
	i := int32(0)
	for _, c := range ev.Chunks() {
		for k := range c {
			e := &c[k]
			l.Order[fill[e.Track]] = i
			fill[e.Track]++
			l.Parent[i] = -1
			l.Launch[i] = -1
			switch {
			case e.Kind.IsLaunch():
				l.LaunchCalls++
				if e.Has(FlagCorr) {
					corrR.see(e.Corr)
				}
			case e.Kind == KindCPUOp && e.Has(FlagExtID):
				extR.see(e.ExtID)
			}
			i++
		}
	}
	less := t.CompareInTrack
	for k := range t.Tracks {
		s := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		if !slices.IsSortedFunc(s, less) {
			slices.SortFunc(s, less)
		}
	}

	// Correlation id -> launch call; External id -> cpu_op.
	corr := newIDIndex(corrR.n, corrR.lo, corrR.hi)
	opByExt := newIDIndex(extR.n, extR.lo, extR.hi)
	i = 0
	for _, c := range ev.Chunks() {
		for k := range c {
			e := &c[k]
			switch {
			case e.Kind.IsLaunch() && e.Has(FlagCorr):
				corr.add(e.Corr, i)
			case e.Kind == KindCPUOp && e.Has(FlagExtID):
				opByExt.add(e.ExtID, i)
			}
			i++
		}
	}
	l.DuplicateCorrIDs = corr.dup
	l.opByExt, l.corr = opByExt, corr

	// Nesting per CPU track, and the innermost enclosing cpu_op of each
	// launch call.
	stack := make([]int32, 0, 64)
	opStack := make([]int32, 0, 64)
	for k := range t.Tracks {
		if t.Tracks[k].Kind == TrackDevice {
			continue
		}
		s := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		stack, opStack = stack[:0], opStack[:0]
		for _, i := range s {
			e := ev.At(int(i))
			for len(stack) > 0 {
				p := ev.At(int(stack[len(stack)-1]))
				if e.Start >= p.End() || e.End() > p.End() {
					stack = stack[:len(stack)-1]
					continue
				}
				l.Parent[i] = stack[len(stack)-1]
				break
			}
			for len(opStack) > 0 {
				p := ev.At(int(opStack[len(opStack)-1]))
				if e.Start >= p.End() || e.End() > p.End() {
					opStack = opStack[:len(opStack)-1]
					continue
				}
				break
			}
			if e.Kind.IsLaunch() {
				l.Launch[i] = launchOp(e, opByExt, opStack)
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

	// Device op -> launch call.
	i = 0
	for _, c := range ev.Chunks() {
		for k := range c {
			e := &c[k]
			if e.Kind.IsDevice() && e.Kind != KindGPUAnnotation {
				l.DeviceOps++
				if e.Has(FlagCorr) {
					if r, ok := corr.get(e.Corr); ok {
						l.Launch[i] = r
						l.Launched[r]++
						l.LinkedDeviceOps++
					}
				}
			}
			i++
		}
	}
	return l
}

// launchOp decides which cpu_op launched a runtime or driver call: the 2021
// lower-case "external id" names it directly; an "External id" different from
// the call's own correlation (kineto >= 2024-02) names it too; otherwise the
// innermost enclosing cpu_op on the same thread.
func launchOp(e *Event, opByExt *idIndex, opStack []int32) int32 {
	if e.Has(FlagLowerExtID) || (e.Has(FlagExtID) && (!e.Has(FlagCorr) || e.ExtID != e.Corr)) {
		if e.ExtID == 0 {
			return -1
		}
		if op, ok := opByExt.get(e.ExtID); ok {
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
