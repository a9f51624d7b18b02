package memory

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// generated writes a trace with cfg and reads it back.
func generated(t *testing.T, cfg gen.Config) (*trace.Trace, gen.Facts) {
	t.Helper()
	var b bytes.Buffer
	f, err := gen.Write(&b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(b.Bytes()), "gen.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, f
}

func opName(op string) string {
	if op == "" {
		return NoOp
	}
	return op
}

// TestGeneratedTruth: every figure of the model equals what the generator
// made (its allocations' ops, times and sizes), over knob combinations.
func TestGeneratedTruth(t *testing.T) {
	cases := []struct {
		name string
		cfg  gen.Config
		leak bool // the leak rule should flag cuda:0
	}{
		{"leak-reuse-cpu-pretrace", gen.Config{Steps: 4, Layers: 2, Memory: gen.Memory{AllocsPerOp: 2, LeakBytes: 1 << 20, PreTrace: 3, CPU: true, Reuse: true}}, true},
		{"leak-fresh-addrs", gen.Config{Steps: 3, Layers: 1, Memory: gen.Memory{AllocsPerOp: 1, LeakBytes: 1 << 20}}, true},
		{"no-leak", gen.Config{Steps: 5, Layers: 3, Memory: gen.Memory{AllocsPerOp: 3, Reuse: true, CPU: true}}, false},
		{"leak-below-share", gen.Config{Steps: 4, Memory: gen.Memory{AllocsPerOp: 1, LeakBytes: 100 << 10, Reuse: true}}, false},
		{"pretrace-only", gen.Config{Steps: 2, Memory: gen.Memory{PreTrace: 5}}, false},
		{"compiled-sync", gen.Config{Steps: 3, Layers: 1, Variant: "compiled", Scenario: "sync", Memory: gen.Memory{AllocsPerOp: 2, LeakBytes: 4 << 20, CPU: true, Reuse: true}}, true},
		{"one-step", gen.Config{Steps: 1, Layers: 2, Memory: gen.Memory{AllocsPerOp: 2, LeakBytes: 1 << 20, Reuse: true}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr, f := generated(t, c.cfg)
			m := Build(tr, Options{})
			truth := f.Memory
			if truth == nil {
				t.Fatal("the generator wrote no memory truth")
			}
			if len(m.Devices) != len(truth.Devices) {
				t.Fatalf("%d devices, the generator wrote %d", len(m.Devices), len(truth.Devices))
			}
			for k, want := range truth.Devices {
				d := m.Devices[k]
				checkDevice(t, d, want, c.cfg.Memory)
				if d.Type == 1 {
					if d.Leak.Judged != (len(want.StepGrowth) >= 2) {
						t.Errorf("%s: leak judged %v with %d steps", d.Name, d.Leak.Judged, len(want.StepGrowth))
					}
					if d.Leak.Flagged != c.leak {
						t.Errorf("%s: leak flagged %v, want %v (growth %v, starts %v)", d.Name, d.Leak.Flagged, c.leak, want.StepGrowth, want.StepStart)
					}
				} else if d.Leak.Flagged {
					t.Errorf("%s: leak flagged without a leak", d.Name)
				}
			}
		})
	}
}

func checkDevice(t *testing.T, d *Device, want gen.MemDeviceFacts, cfg gen.Memory) {
	t.Helper()
	if want.Ties != 0 {
		t.Fatalf("generator wrote %d records at the same ns on one device", want.Ties)
	}
	if d.Type != int8(want.Type) || d.ID != want.ID {
		t.Fatalf("device %s, want type %d id %d", d.Name, want.Type, want.ID)
	}
	eq := func(what string, got, w any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: %s = %v, want %v", d.Name, what, got, w)
		}
	}
	eq("records", d.Records, want.Records)
	eq("allocations", d.Allocations, want.Allocations)
	eq("frees", d.Frees, want.Frees)
	eq("start allocated", d.Start.Allocated, want.StartAllocated)
	eq("pre-trace frees", d.PreTraceFrees, want.PreTraceFrees)
	eq("pre-trace freed bytes", d.PreTraceFreedBytes, want.PreTraceFreedBytes)
	eq("peak", d.Peak.Bytes, want.PeakBytes)
	eq("peak ns", d.Peak.Ns, want.PeakNs)
	eq("peak op", d.Peak.Op, opName(want.PeakOp))
	eq("peak reserved", d.PeakReserved.Bytes, want.PeakReservedBytes)
	eq("inconsistent", d.Inconsistent, 0)
	var growth, starts []int64
	for _, s := range d.Steps {
		growth = append(growth, s.GrowthBytes)
		starts = append(starts, s.Start.Allocated)
	}
	eq("step growth", growth, want.StepGrowth)
	eq("step starts", starts, want.StepStart)
	if d.Type == 1 {
		for k, g := range want.StepGrowth {
			w := cfg.LeakBytes
			if k == 0 && cfg.AllocsPerOp > 0 {
				w += 8192 // the first step's carried allocation has no predecessor to free
			}
			if g != w {
				t.Errorf("truth: step %d grows %d, the knobs make %d", k, g, w)
			}
		}
	}
	// alive at the peak
	eq("alive bytes", d.Alive.InTraceBytes, want.AliveBytes)
	eq("before-trace bytes", d.Alive.BeforeTraceBytes, want.PeakBytes-want.AliveBytes)
	eq("alive groups", len(d.Alive.Groups), len(want.Alive))
	for _, g := range d.Alive.Groups {
		w, ok := want.Alive[unNoOp(g.Op)]
		if !ok {
			t.Errorf("%s: alive group %s not in the truth", d.Name, g.Op)
			continue
		}
		eq("alive "+g.Op, [3]int64{g.Bytes, int64(g.Count), g.OldestNs}, [3]int64{w.Bytes, int64(w.Count), w.OldestNs})
		eq("alive age "+g.Op, g.OldestAgeNs, want.PeakNs-w.OldestNs)
	}
	// lifetimes
	eq("lifetime rows", len(d.Lifetimes), len(want.Lifetimes))
	for _, l := range d.Lifetimes {
		w, ok := want.Lifetimes[unNoOp(l.Op)]
		if !ok {
			t.Errorf("%s: lifetime row %s not in the truth", d.Name, l.Op)
			continue
		}
		var maxNs int64
		if len(w.Lifetimes) > 0 {
			maxNs = w.Lifetimes[len(w.Lifetimes)-1]
		}
		eq("lifetime "+l.Op, []int64{int64(l.Count), l.Bytes, l.MaxBytes, int64(l.Freed), int64(l.NeverFreed), l.MedianNs, l.MaxNs},
			[]int64{int64(w.Count), w.Bytes, w.MaxBytes, int64(w.Freed), int64(w.NeverFreed), stats.MedianNs(w.Lifetimes), maxNs})
	}
	// survivors
	eq("survivor rows", len(d.Leak.Survivors), len(want.Survivors))
	for _, s := range d.Leak.Survivors {
		w, ok := want.Survivors[unNoOp(s.Op)]
		if !ok {
			t.Errorf("%s: survivor %s not in the truth", d.Name, s.Op)
			continue
		}
		eq("survivor "+s.Op, []int64{s.Bytes, int64(s.Count), int64(s.Steps), s.NeverFreedBytes, int64(s.NeverFreedCount)},
			[]int64{w.Bytes, int64(w.Count), int64(w.Steps), w.NeverFreedBytes, int64(w.NeverFreedCount)})
	}
}

func unNoOp(op string) string {
	if op == NoOp {
		return ""
	}
	return op
}

// TestStepCursor: the cursor answers as trace.StepAt does, for times in
// order, out of order and outside the steps.
func TestStepCursor(t *testing.T) {
	steps := []trace.Step{{N: 1, Start: 10, End: 20}, {N: 2, Start: 20, End: 30}, {N: 3, Start: 35, End: 50}, {N: 4, Start: 40, End: 45}}
	c := stepCursor{steps: steps}
	for _, ts := range []int64{0, 5, 10, 15, 20, 20, 29, 30, 33, 35, 41, 44, 45, 49, 50, 60, 12, 36, 100, 1, 42} {
		if got, want := c.at(ts), trace.StepAt(steps, ts); got != want {
			t.Errorf("at %d: %d, StepAt %d", ts, got, want)
		}
	}
}
