package gaps

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// A step extends to the end of the GPU work launched in it (an op without
// a launch call by its own start); work launched in an unselected step
// extends nothing. Without steps the span is the GPU window.
func TestDenominator(t *testing.T) {
	all := []trace.Step{{N: 1, Start: 0, End: 100}, {N: 2, Start: 200, End: 300}, {N: 3, Start: 400, End: 500}}
	dev := stream{seq: seq{ops: []op{
		{s: 95, e: 99, call: 2, launch: 90},   // in step 1, ends inside it
		{s: 110, e: 150, call: 1, launch: 50}, // launched in step 1
		{s: 250, e: 350, call: -1, launch: noLaunch},
		{s: 460, e: 600, call: 3, launch: 450}, // step 3 is not selected
	}}}
	span, name := denominator(all, all[:2], []stream{dev})
	if want := (ivs{{0, 150}, {200, 350}}); fmt.Sprint(span) != fmt.Sprint(want) {
		t.Errorf("span %v, want %v", span, want)
	}
	if name != "the union of 2 profiler steps, each to the end of the GPU work it launched" {
		t.Errorf("name %q", name)
	}
	if _, name := denominator(all, all[1:2], []stream{dev}); name != "profiler step 2, to the end of the GPU work it launched" {
		t.Errorf("one step: name %q", name)
	}
	d0 := stream{seq: seq{ops: []op{{s: 10, e: 20}, {s: 30, e: 40}}}}
	d1 := stream{seq: seq{ops: []op{{s: 5, e: 8}}}}
	span, name = denominator(nil, nil, []stream{d0, d1})
	if fmt.Sprint(span) != fmt.Sprint(ivs{{5, 40}}) || name != "the GPU window" {
		t.Errorf("no steps: %v %q, want [[5 40]] the GPU window", span, name)
	}
}

// CPU activity is measured from the first launch call (an unlinked op's
// own start) when it came before the span.
func TestCPUWindow(t *testing.T) {
	span := ivs{{100, 200}, {300, 400}}
	for _, c := range []struct {
		ops  []op
		want ivs
	}{
		{[]op{{s: 120, e: 130, call: 0, launch: 40}}, ivs{{40, 200}, {300, 400}}},
		{[]op{{s: 160, e: 170, call: 0, launch: 150}}, span},
		{[]op{{s: 20, e: 30, call: -1, launch: noLaunch}, {s: 120, e: 130, call: 0, launch: 60}}, ivs{{20, 200}, {300, 400}}},
	} {
		if got := cpuWindow(span, []stream{{seq: seq{ops: c.ops}}}); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("ops %v: %v, want %v", c.ops, got, c.want)
		}
	}
}

// Launch latency: an op's start less its launch call's; by name most ops
// first; the lane offset is the latency of the earliest launch call.
func TestLaunchLatency(t *testing.T) {
	tr := &trace.Trace{Strings: []string{"a", "b"}}
	const a, b = trace.StrID(0), trace.StrID(1)
	s1 := stream{seq: seq{ops: []op{
		{s: 10, e: 11, call: 1, launch: 4},
		{s: 20, e: 21, call: 2, launch: 12},
		{s: 25, e: 26, call: -1, launch: noLaunch},
	}}, names: []trace.StrID{b, a, a}}
	s2 := stream{seq: seq{ops: []op{{s: 30, e: 31, call: 3, launch: 2}}}, names: []trace.StrID{b}}
	var r Report
	addLaunchLatency(&r, tr, []stream{s1, s2})
	if r.UnlinkedOps != 1 || !r.HasLaneOffset || r.LaneOffsetNs != 28 {
		t.Errorf("unlinked %d, lane offset %d (%v), want 1, 28", r.UnlinkedOps, r.LaneOffsetNs, r.HasLaneOffset)
	}
	l := r.Latency
	if l.Count != 3 || l.MinNs != 6 || l.MedNs != 8 || l.MaxNs != 28 || l.MeanNs != 14 {
		t.Errorf("all %+v, want 3 ops, 6/8/28, mean 14", l)
	}
	if len(r.LatencyByName) != 2 {
		t.Fatalf("by name %+v", r.LatencyByName)
	}
	if x := r.LatencyByName[0]; x.Name != "b" || x.Count != 2 || x.MinNs != 6 || x.MaxNs != 28 {
		t.Errorf("first %+v, want b: 2 ops, 6..28", x)
	}
	if x := r.LatencyByName[1]; x.Name != "a" || x.Count != 1 || x.MinNs != 8 {
		t.Errorf("second %+v, want a: 1 op, 8", x)
	}
}

// Gaps are listed longest first; ties by start, then device.
func TestGapOrder(t *testing.T) {
	gs := []gapRec{{dev: 0, s: 0, e: 10}, {dev: 1, s: 5, e: 15}, {dev: 0, s: 5, e: 15}, {dev: 0, s: 20, e: 40}}
	slices.SortFunc(gs, gapOrder)
	var got []string
	for _, g := range gs {
		got = append(got, fmt.Sprintf("%d:%d-%d", g.dev, g.s, g.e))
	}
	if want := []string{"0:20-40", "0:0-10", "0:5-15", "1:5-15"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// A device's busy time inside the span is its busy union clipped to the
// span; the parts inside blocking calls are kept.
func TestBusyInside(t *testing.T) {
	q := seq{ops: []op{{s: 0, e: 10}, {s: 5, e: 20}, {s: 30, e: 40}, {s: 50, e: 60}}}
	var inCalls [][2]int64
	got := busyInside(&q, ivs{{8, 35}}, ivs{{0, 6}, {55, 70}}, &inCalls)
	if got != 17 { // [8, 20) and [30, 35)
		t.Errorf("busy %d, want 17", got)
	}
	if want := [][2]int64{{0, 6}, {55, 60}}; fmt.Sprint(inCalls) != fmt.Sprint(want) {
		t.Errorf("in calls %v, want %v", inCalls, want)
	}
}

// The verdict reads the median step's CPU time and the first step when
// it is cold.
func TestStepFacts(t *testing.T) {
	f := stepFacts([]StepLane{{Step: 4, CPUNs: 30, Cold: true}, {Step: 5, CPUNs: 10}, {Step: 6, CPUNs: 20}})
	if f.medStepNs != 20 || f.coldStep != 4 || f.coldNs != 30 {
		t.Errorf("facts %+v, want median 20, cold step 4 of 30", f)
	}
	f = stepFacts([]StepLane{{Step: 4, CPUNs: 30}, {Step: 5, CPUNs: 10}})
	if f.coldStep != -1 || f.medStepNs != 20 {
		t.Errorf("warm: %+v, want no cold step, median 20", f)
	}
	if f = stepFacts(nil); f.coldStep != -1 || f.medStepNs != 0 {
		t.Errorf("no steps: %+v", f)
	}
}
