package gapsview

import (
	"maps"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
)

// TestGapOfOptionalFields: a gap between two ops carries HTA's idle kind,
// an edge gap none; the launch call and the activity's percentage appear
// only when there is a call and an activity; only causes with a share
// are listed.
func TestGapOfOptionalFields(t *testing.T) {
	g := gaps.Gap{Device: 1, StartNs: 500, LenNs: 100, Edge: gaps.Between, Kind: gaps.KernelWait, StepBefore: -1, StepAfter: 3,
		Cause: gaps.CauseLaunch, CausePct: 70}
	g.Shares[gaps.CauseLaunch], g.Shares[gaps.CauseCPU] = 70, 30 // 70 + 30 = LenNs 100
	j := gapOf(g)
	if j.IdleKind == nil || *j.IdleKind != "kernel_wait" {
		t.Errorf("between ops: idle kind %v, want kernel_wait", j.IdleKind)
	}
	if j.StepBefore != nil || j.StepAfter == nil || *j.StepAfter != 3 {
		t.Errorf("steps before/after: %v %v, want null and 3", j.StepBefore, j.StepAfter)
	}
	// two of the ten causes have a share: the other eight are left out
	if want := map[string]int64{"launch": 70, "cpu": 30}; !maps.Equal(j.Shares, want) {
		t.Errorf("shares %v, want %v", j.Shares, want)
	}
	if j.Call != nil || j.CallNs != nil || j.Activity != nil || j.ActivityPct != nil || j.Host != nil || j.HostPct != nil {
		t.Errorf("no call, activity or host activity: want nulls, got %+v", j)
	}

	g.Edge = gaps.AfterLast
	g.HasLaunchCall, g.LaunchCall, g.LaunchCallNs = true, "cudaLaunchKernel", 40
	g.Activity, g.ActivityPct = "aten::mm", 55
	j = gapOf(g)
	if j.IdleKind != nil {
		t.Errorf("after the last op: idle kind %q, want null (HTA's kinds are between ops only)", *j.IdleKind)
	}
	if j.Where != "after last op" {
		t.Errorf("where %q, want after last op", j.Where)
	}
	if j.Call == nil || *j.Call != "cudaLaunchKernel" || j.CallNs == nil || *j.CallNs != 40 {
		t.Errorf("launch call %v %v, want cudaLaunchKernel 40", j.Call, j.CallNs)
	}
	if j.ActivityPct == nil || *j.ActivityPct != 55 {
		t.Errorf("activity pct %v, want 55", j.ActivityPct)
	}
}

// TestVerdictOfCPUOnly: a CPU-only trace measures no GPU time, so every
// measured field is null, the steady class is the class, and neither the
// idle breakdown nor the idle report exists; with a GPU lane they are
// filled and idle_by_cause lists all ten causes.
func TestVerdictOfCPUOnly(t *testing.T) {
	r := &gaps.Report{NoGPU: true, Verdict: gaps.Verdict{Class: "cpu-only", Headline: "h", SteadyClass: "other", IdleNs: 9}}
	vj := verdictOf(r)
	if vj.IdleNs != nil || vj.SpanNs != nil || vj.ByCause != nil || vj.Denominator != nil || vj.BlockingNs != nil {
		t.Errorf("CPU-only: measured fields %+v, want null", vj)
	}
	if vj.SteadyClass != "cpu-only" || vj.SteadyHead != "h" {
		t.Errorf("CPU-only: steady %q %q, want the class and headline", vj.SteadyClass, vj.SteadyHead)
	}
	if vj.Startup == nil || len(vj.Startup) != 0 {
		t.Errorf("CPU-only: startup calls %v, want an empty list", vj.Startup)
	}
	if idleReportOf(r) != nil {
		t.Errorf("CPU-only: an idle report, want null")
	}

	r.NoGPU = false
	r.Verdict.StartupCalls = []gaps.StartupCall{{Name: "cudaStreamCreate", Calls: 1, IdleNs: 4, LargestNs: 4}}
	vj = verdictOf(r)
	if vj.IdleNs == nil || *vj.IdleNs != 9 || vj.SteadyClass != "other" {
		t.Errorf("GPU: idle %v steady %q, want 9 and other", vj.IdleNs, vj.SteadyClass)
	}
	if len(vj.ByCause) != len(gaps.Causes()) || len(vj.Startup) != 1 {
		t.Errorf("GPU: %d causes and %d start-up calls, want %d and 1", len(vj.ByCause), len(vj.Startup), len(gaps.Causes()))
	}
	if idleReportOf(r) == nil {
		t.Errorf("GPU: no idle report")
	}
}

// TestStreamsOfQueue: Queues runs parallel to Streams; a stream past its
// end, or whose queue measured no op, has a null queue.
func TestStreamsOfQueue(t *testing.T) {
	r := &gaps.Report{Streams: []gaps.Lane{{Stream: 7}, {Stream: 8}, {Stream: 9}},
		Queues: []gaps.Queue{{Ops: 5, Limit: 1024}, {Ops: 0}}}
	s := streamsOf(r)
	if len(s) != 3 {
		t.Fatalf("%d streams, want 3", len(s))
	}
	if s[0].Queue == nil || s[0].Queue.Ops != 5 {
		t.Errorf("stream 7: queue %+v, want 5 ops", s[0].Queue)
	}
	if s[1].Queue != nil || s[2].Queue != nil {
		t.Errorf("streams 8 (no op measured) and 9 (no queue): %v %v, want null", s[1].Queue, s[2].Queue)
	}
	if *s[2].Stream != 9 {
		t.Errorf("third stream %d, want 9", *s[2].Stream)
	}
}
