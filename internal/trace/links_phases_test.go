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

// TestOmitFromLinks: links built after OmitFromLinks have no Parent or no
// Launched, and every other part as a full build gives it; links built
// before it keep both.
func TestOmitFromLinks(t *testing.T) {
	build := func() *Trace {
		tr := &Trace{Tracks: []Track{{Kind: TrackCPU}, {Kind: TrackDevice}}}
		for _, e := range []Event{
			{Kind: KindCPUOp, Start: 0, Dur: 100},
			{Kind: KindRuntime, Start: 10, Dur: 10, Flags: FlagCorr},
			{Kind: KindRuntime, Start: 30, Dur: 10, Flags: FlagCorr},
			{Kind: KindKernel, Track: 1, Start: 25, Dur: 5, Flags: FlagCorr},
			{Kind: KindKernel, Track: 1, Start: 45, Dur: 5, Flags: FlagCorr},
			{Kind: KindKernel, Track: 1, Start: 55, Dur: 5, Flags: FlagCorr},
		} {
			tr.Events.Append(e)
		}
		for i, c := range []int64{0, 7, 8, 7, 8, 8} {
			if c != 0 {
				e := tr.Events.At(i)
				tr.SetIDs(e, 0, c)
			}
		}
		return tr
	}
	full := build().Links()
	if want := []int32{0, 1, 2, 0, 0, 0}; !slices.Equal(full.Launched, want) {
		t.Fatalf("full build: launched %v, want %v", full.Launched, want)
	}
	for _, c := range []struct{ parent, launched bool }{{true, true}, {false, true}, {true, false}} {
		tr := build()
		tr.OmitFromLinks(c.parent, c.launched)
		l := tr.Links()
		if (l.Parent == nil) != c.parent || (l.Launched == nil) != c.launched {
			t.Errorf("omit %+v: parent nil %v, launched nil %v", c, l.Parent == nil, l.Launched == nil)
		}
		if !c.parent && !slices.Equal(l.Parent, full.Parent) {
			t.Errorf("omit %+v: parent %v, want %v", c, l.Parent, full.Parent)
		}
		if !c.launched && !slices.Equal(l.Launched, full.Launched) {
			t.Errorf("omit %+v: launched %v, want %v", c, l.Launched, full.Launched)
		}
		if !slices.Equal(l.Launch, full.Launch) || !slices.Equal(l.Order, full.Order) ||
			l.DeviceOps != full.DeviceOps || l.LinkedDeviceOps != full.LinkedDeviceOps || l.LaunchesWithOp != full.LaunchesWithOp {
			t.Errorf("omit %+v: launch %v order %v counts %d/%d/%d, want %v %v %d/%d/%d", c, l.Launch, l.Order,
				l.DeviceOps, l.LinkedDeviceOps, l.LaunchesWithOp, full.Launch, full.Order, full.DeviceOps, full.LinkedDeviceOps, full.LaunchesWithOp)
		}
	}
	tr := build()
	tr.Links()
	tr.OmitFromLinks(true, true)
	if l := tr.Links(); l.Parent == nil || l.Launched == nil {
		t.Error("links built before OmitFromLinks lost a part")
	}
}
