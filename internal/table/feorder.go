package table

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// feItem is a FunctionEvent to be listed: its span and where it comes
// from.
type feItem struct {
	s, e int64 // ns as written (margin undone for GPU annotations)
	idx  int32 // trace event index; >= n for synthetic [memory] events
}

// feItemCmp is torch's order of FunctionEvents: by start, then the
// longest first (the later end), then file order.
func feItemCmp(a, b feItem) int {
	if c := cmp.Compare(a.s, b.s); c != 0 {
		return c
	}
	if c := cmp.Compare(b.e, a.e); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}

// feHead is one input of the merge: a track's order of trace events, or
// the sorted extra items; it caches its next item.
type feHead struct {
	ord []int32
	x   []feItem
	it  feItem
	ok  bool
}

// feMerge is the k-way merge of the track orders the trace already has
// and the extra items. The heads sit in a binary min-heap on their cached
// item, so each event costs O(log tracks), not a scan of every track.
type feMerge struct {
	t    *trace.Trace
	isFE func(int, *trace.Event) bool
	hp   headHeap
}

// trackOrders are the tracks' event orders that are not empty.
func trackOrders(t *trace.Trace, l *trace.Links) [][]int32 {
	var ords [][]int32
	for k := range t.Tracks {
		if ord := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]; len(ord) > 0 {
			ords = append(ords, ord)
		}
	}
	return ords
}

// splitOrders cuts each order and the extra items at a pivot item (the
// middle event of the longest order): lo holds what sorts before it, hi
// the rest; bound is how many items lo holds in all, a bound on the
// FunctionEvents among them.
func splitOrders(t *trace.Trace, ords [][]int32, extra []feItem) (lo, hi [][]int32, xlo, xhi []feItem, bound int) {
	longest := 0
	for k, o := range ords {
		if len(o) > len(ords[longest]) {
			longest = k
		}
	}
	item := func(i int32) feItem {
		e := t.Ev(int(i))
		return feItem{e.Start, e.End(), i}
	}
	var pivot feItem
	if len(ords) > 0 {
		o := ords[longest]
		pivot = item(o[len(o)/2])
	} else if len(extra) > 0 {
		pivot = extra[len(extra)/2]
	}
	lo, hi = make([][]int32, len(ords)), make([][]int32, len(ords))
	for k, o := range ords {
		c, _ := slices.BinarySearchFunc(o, pivot, func(i int32, p feItem) int { return feItemCmp(item(i), p) })
		lo[k], hi[k] = o[:c], o[c:]
		bound += c
	}
	c, _ := slices.BinarySearchFunc(extra, pivot, feItemCmp)
	return lo, hi, extra[:c], extra[c:], bound + c
}

// newFEMerge is the merge of ords (each in time order, CompareInTrack) and
// the extra items (sorted by feItemCmp).
func newFEMerge(t *trace.Trace, isFE func(int, *trace.Event) bool, ords [][]int32, extra []feItem) *feMerge {
	m := &feMerge{t: t, isFE: isFE}
	// the heads in one array (a table per step, as export makes them,
	// allocated one per track)
	all := make([]feHead, 0, len(ords)+1)
	heads := make([]*feHead, 0, len(ords)+1)
	for _, ord := range ords {
		if len(ord) > 0 {
			all = append(all, feHead{ord: ord})
			heads = append(heads, &all[len(all)-1])
		}
	}
	all = append(all, feHead{x: extra})
	heads = append(heads, &all[len(all)-1])
	live := heads[:0]
	for _, h := range heads {
		m.advance(h)
		if h.ok {
			live = append(live, h)
		}
	}
	m.hp = headHeap{hs: live}
	m.hp.init()
	return m
}

// advance caches h's next item: its track's next FunctionEvent (GPU
// annotations come from the extra items instead), else its next extra
// item.
func (m *feMerge) advance(h *feHead) {
	for len(h.ord) > 0 {
		i := h.ord[0]
		h.ord = h.ord[1:]
		e := m.t.Ev(int(i))
		if e.Kind != trace.KindGPUAnnotation && m.isFE(int(i), e) {
			h.it, h.ok = feItem{e.Start, e.End(), i}, true
			return
		}
	}
	if len(h.x) > 0 {
		h.it, h.ok = h.x[0], true
		h.x = h.x[1:]
		return
	}
	h.ok = false
}

// next is the least item of every head, false when all are done.
func (m *feMerge) next() (feItem, bool) {
	if len(m.hp.hs) == 0 {
		return feItem{}, false
	}
	bh := m.hp.hs[0]
	it := bh.it
	m.advance(bh)
	if bh.ok {
		m.hp.fix0()
	} else {
		m.hp.pop0()
	}
	return it, true
}
