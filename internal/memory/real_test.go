package memory

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tracetab/tracetab/internal/stats"
)

// TestRealTraces: on every shared trace, each device's figures equal a
// reading of the raw JSON: the peak (Total Allocated's maximum, or the
// running sum of Bytes where torch wrote no totals) and its time, step,
// op, annotation and Python frame (the innermost events holding the peak
// record on its own thread), the reserved peak, the counts, the start,
// end and step levels, and, from the test's own matching of frees to the
// latest allocation of their address, the bytes alive at the peak by
// allocating op and the lifetimes per op.
func TestRealTraces(t *testing.T) {
	var withMem atomic.Int32
	t.Cleanup(func() {
		if n := withMem.Load(); n < 5 && !t.Skipped() {
			t.Errorf("only %d shared traces with [memory] records were checked, want 5", n)
		}
	})
	for _, path := range sharedTraces(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			m := Build(load(t, path), Options{})
			if !hasMemory(t, path) {
				if len(m.Devices) != 0 || len(m.Notes) != 1 {
					t.Errorf("no [memory] records, but %d devices and notes %q", len(m.Devices), m.Notes)
				}
				return
			}
			withMem.Add(1)
			checkReal(t, m, readRaw(t, path))
		})
	}
}

func checkReal(t *testing.T, m *Model, rt *rawTrace) {
	devs := rt.byDevice()
	if len(m.Devices) != len(devs) {
		t.Fatalf("%d devices, the raw JSON has %d", len(m.Devices), len(devs))
	}
	var steps [][3]int64 // N, start, end
	for _, e := range rt.X {
		var n int64
		if _, err := fmt.Sscanf(e.Name, "ProfilerStep#%d", &n); err == nil && (e.Cat == "user_annotation" || e.Class == classOp) {
			steps = append(steps, [3]int64{n, e.Ts, e.End})
		}
	}
	slices.SortFunc(steps, func(a, b [3]int64) int { return int(a[1] - b[1]) })
	for _, d := range m.Devices {
		recs, ok := devs[[2]int64{int64(d.Type), int64(d.ID)}]
		if !ok {
			t.Errorf("device %s is not in the raw JSON", d.Name)
			continue
		}
		t.Run(d.Name, func(t *testing.T) { checkRealDevice(t, d, recs, rt, steps) })
	}
}

func checkRealDevice(t *testing.T, d *Device, recs []rawMem, rt *rawTrace, steps [][3]int64) {
	eq := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, the raw JSON gives %v", what, got, want)
		}
	}
	totals, addrs := true, true
	var allocs, frees int
	for _, r := range recs {
		totals = totals && r.HasTotal
		addrs = addrs && r.HasAddr
		if r.Bytes > 0 {
			allocs++
		} else if r.Bytes < 0 {
			frees++
		}
	}
	eq("totals", d.Totals, totals)
	eq("addrs", d.Addrs, addrs)
	eq("records", d.Records, len(recs))
	eq("allocations", d.Allocations, allocs)
	eq("frees", d.Frees, frees)

	// levels: Total Allocated as written, or the running sum of Bytes
	start := int64(0)
	if totals {
		start = recs[0].Total - recs[0].Bytes
	}
	lvl := make([]int64, len(recs))
	run := start
	for i, r := range recs {
		run += r.Bytes
		lvl[i] = run
		if totals {
			lvl[i] = r.Total
		}
	}
	peak := 0
	for i := range recs {
		if lvl[i] > lvl[peak] {
			peak = i
		}
	}
	pr := recs[peak]
	eq("start allocated", d.Start.Allocated, start)
	eq("end allocated", d.End.Allocated, lvl[len(lvl)-1])
	eq("peak allocated", d.Peak.Bytes, lvl[peak])
	eq("peak above start", d.Peak.AboveStartBytes, lvl[peak]-start)
	eq("peak time", d.Peak.Ns, pr.Ts-rt.Origin)
	eq("peak op", d.Peak.Op, rt.rawOp(pr.Thread, pr.Ts))
	eq("peak annotation", d.Peak.Annotation, rt.innermost(pr.Thread, pr.Ts, classAnnotation))
	eq("peak python frame", d.Peak.Python, rt.innermost(pr.Thread, pr.Ts, classPython))
	inStep, stepN := false, int64(0)
	for _, s := range steps {
		if s[1] <= pr.Ts && pr.Ts < s[2] {
			inStep, stepN = true, s[0]
		}
	}
	eq("peak in a step", d.Peak.InStep, inStep)
	if inStep {
		eq("peak step", d.Peak.Step, stepN)
	}
	if recs[0].HasResv {
		best := 0
		for i, r := range recs {
			if r.Resv > recs[best].Resv {
				best = i
			}
		}
		eq("peak reserved", d.PeakReserved.Bytes, recs[best].Resv)
		eq("peak reserved time", d.PeakReserved.Ns, recs[best].Ts-rt.Origin)
	}
	// step levels: after the last record before the step's start and end
	before := func(ns int64) int64 {
		v := start
		for i, r := range recs {
			if r.Ts < ns {
				v = lvl[i]
			}
		}
		return v
	}
	eq("steps", len(d.Steps), len(steps))
	for k, s := range d.Steps {
		if k < len(steps) {
			a, b := before(steps[k][1]), before(steps[k][2])
			eq(fmt.Sprintf("step %d start, end, growth", s.N), []int64{s.N, s.Start.Allocated, s.End.Allocated, s.GrowthBytes},
				[]int64{steps[k][0], a, b, b - a})
		}
	}
	if !addrs {
		eq("alive measured", d.Alive.Measured, false)
		return
	}
	// the test's own matching: a free takes the latest allocation of its
	// address not yet freed
	type alloc struct {
		rec  rawMem
		free int64 // -1 while alive
	}
	var all []*alloc
	live := map[int64]*alloc{}
	aliveBytes, aliveCount, pre := int64(0), 0, 0
	groups := map[string]int64{}
	for i, r := range recs {
		switch {
		case r.Bytes > 0:
			a := &alloc{rec: r, free: -1}
			all = append(all, a)
			live[r.Addr] = a
		case r.Bytes < 0:
			if a := live[r.Addr]; a != nil {
				a.free = r.Ts
				delete(live, r.Addr)
			} else {
				pre++
			}
		}
		if i == peak {
			for _, a := range all {
				if a.free < 0 {
					aliveBytes += a.rec.Bytes
					aliveCount++
					groups[rt.rawOp(a.rec.Thread, a.rec.Ts)] += a.rec.Bytes
				}
			}
		}
	}
	eq("pre-trace frees", d.PreTraceFrees, pre)
	eq("alive bytes at the peak", d.Alive.InTraceBytes, aliveBytes)
	eq("alive allocations at the peak", d.Alive.InTraceCount, aliveCount)
	if totals {
		eq("before-trace bytes at the peak", d.Alive.BeforeTraceBytes, lvl[peak]-aliveBytes)
	}
	got := map[string]int64{}
	for _, g := range d.Alive.Groups {
		got[g.Op] = g.Bytes
	}
	eq("alive bytes by op", got, groups)
	// lifetimes per allocating op
	type life struct {
		count, freed int
		bytes        int64
		lifes        []int64
	}
	want := map[string]*life{}
	for _, a := range all {
		op := rt.rawOp(a.rec.Thread, a.rec.Ts)
		l := want[op]
		if l == nil {
			l = &life{}
			want[op] = l
		}
		l.count++
		l.bytes += a.rec.Bytes
		if a.free >= 0 {
			l.freed++
			l.lifes = append(l.lifes, a.free-a.rec.Ts)
		}
	}
	eq("lifetime rows", len(d.Lifetimes), len(want))
	for _, l := range d.Lifetimes {
		w := want[l.Op]
		if w == nil {
			t.Errorf("lifetime row %s is not in the raw JSON", l.Op)
			continue
		}
		var maxNs int64
		if len(w.lifes) > 0 {
			maxNs = slices.Max(w.lifes)
		}
		eq("lifetimes of "+l.Op, []int64{int64(l.Count), l.Bytes, int64(l.Freed), l.MedianNs, l.MaxNs},
			[]int64{int64(w.count), w.bytes, int64(w.freed), stats.MedianNs(w.lifes), maxNs})
	}
}
