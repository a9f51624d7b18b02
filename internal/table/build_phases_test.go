package table

import (
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestFEItemCmp: torch's order is by start, then the longest first, then
// file order.
func TestFEItemCmp(t *testing.T) {
	items := []feItem{
		{s: 20, e: 30, idx: 0}, // starts last
		{s: 10, e: 12, idx: 1}, // starts at 10, ends 12: after the ones ending at 15
		{s: 10, e: 15, idx: 4}, // ties with idx 2 on start and end: after it by index
		{s: 10, e: 15, idx: 2},
		{s: 5, e: 5, idx: 3}, // an instant, first to start
	}
	slices.SortFunc(items, feItemCmp)
	var got []int32
	for _, it := range items {
		got = append(got, it.idx)
	}
	// 5 first (idx 3); at 10: end 15 (idx 2, then 4) before end 12 (idx 1); 20 last (idx 0)
	if want := []int32{3, 2, 4, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestEventThread: a runtime call linked to no op and an overhead event
// move to the main thread (thread "0", -1, before torch 1.13); anything
// else keeps its track.
func TestEventThread(t *testing.T) {
	const main = 7
	v113, v112 := Version{1, 13}, Version{1, 12}
	for _, c := range []struct {
		kind     trace.Kind
		unlinked bool
		v        Version
		want     int32
	}{
		{trace.KindRuntime, false, v113, 3}, // linked call: its own track 3
		{trace.KindRuntime, true, v113, main},
		{trace.KindRuntime, true, v112, -1},
		{trace.KindOverhead, false, v113, main},
		{trace.KindOverhead, false, v112, -1},
		{trace.KindCPUOp, false, v112, 3},
	} {
		e := &trace.Event{Kind: c.kind, Track: 3}
		if got := eventThread(e, c.unlinked, main, c.v); got != c.want {
			t.Errorf("kind %v unlinked %v torch %v: thread %d, want %d", c.kind, c.unlinked, c.v, got, c.want)
		}
	}
}

// TestTreeColumn: the positions' memory is reused when the list is no
// longer than the trace, else a new column.
func TestTreeColumn(t *testing.T) {
	pos := []int32{0, -1, 1, -1}
	if got := treeColumn(pos, 2); len(got) != 2 || &got[0] != &pos[0] {
		t.Errorf("2 of 4: a new column of %d, want pos[:2]", len(got))
	}
	if got := treeColumn(pos, 6); len(got) != 6 || &got[0] == &pos[0] {
		t.Errorf("6 over 4: len %d, want a new column of 6", len(got))
	}
}

// TestFirstFrames: group_by_stack_n keys by the first N frames left
// after torch's filter (autograd's backward frames and the like go).
func TestFirstFrames(t *testing.T) {
	st := "a.py(1): f; torch/autograd/__init__.py(9): backward; b.py(2): g;  ; c.py(3): h"
	// kept: a.py, b.py, c.py (the autograd frame is filtered, the blank dropped)
	if got := firstFrames(st, 2); !slices.Equal(got, []string{"a.py(1): f", "b.py(2): g"}) {
		t.Errorf("first 2: %q", got)
	}
	if got := firstFrames(st, 5); len(got) != 3 {
		t.Errorf("first 5 of 3: %q, want all 3", got)
	}
}
