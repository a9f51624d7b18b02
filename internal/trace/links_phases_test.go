package trace

import (
	"slices"
	"testing"
)

// TestNestingHalfOpen: an event's parent is the innermost event of its
// track that contains it, half-open (one that starts where another ends
// is not inside it) and whole (one that overhangs its end is not inside
// it); a launch call's op is the innermost cpu_op around it.
func TestNestingHalfOpen(t *testing.T) {
	tr := &Trace{Tracks: []Track{{Kind: TrackCPU}}}
	for _, e := range []Event{
		{Kind: KindCPUOp, Start: 0, Dur: 100},   // 0: A
		{Kind: KindCPUOp, Start: 10, Dur: 40},   // 1: B in A (10-50)
		{Kind: KindRuntime, Start: 50, Dur: 10}, // 2: a launch call starting where B ends: in A, not B
		{Kind: KindCPUOp, Start: 90, Dur: 30},   // 3: 90-120 overhangs A's end at 100: top level
		{Kind: KindRuntime, Start: 95, Dur: 5},  // 4: inside 3 (95-100)
		{Kind: KindPython, Start: 120, Dur: 0},  // 5: an instant at 3's end: top level
	} {
		tr.Events.Append(e)
	}
	l := tr.Links()
	if want := []int32{-1, 0, 0, -1, 3, -1}; !slices.Equal(l.Parent, want) {
		t.Errorf("parents %v, want %v", l.Parent, want)
	}
	// launch calls: 2's innermost cpu_op is A (0), 4's is 3; the ops launch nothing
	if want := []int32{-1, -1, 0, -1, 3, -1}; !slices.Equal(l.Launch, want) {
		t.Errorf("launch %v, want %v", l.Launch, want)
	}
	if l.LaunchCalls != 2 || l.LaunchesWithOp != 2 {
		t.Errorf("launch calls %d with op %d, want 2 and 2", l.LaunchCalls, l.LaunchesWithOp)
	}
	if want := []int32{0, 1, 2, 3, 4, 5}; !slices.Equal(l.Order, want) {
		t.Errorf("order %v, want file order (already by start)", l.Order)
	}
}
