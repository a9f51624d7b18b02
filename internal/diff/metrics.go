// Package diff compares two traces (or holds one to budgets): rows aligned
// by key, per-metric changes, totals, and threshold rules evaluated into
// violations. It prints nothing and decides no exit codes.
package diff

import (
	"slices"
	"sort"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// RowMetrics are the per-row metrics, in microseconds or counts.
var RowMetrics = []string{"self_cuda", "cuda_total", "self_cpu", "cpu_total", "count", "avg", "cuda_avg",
	"self_cuda_per_call", "self_cpu_per_call"}

// perCall metrics are not divided by the number of steps.
func perCall(m string) bool {
	return m == "avg" || m == "cuda_avg" || m == "self_cuda_per_call" || m == "self_cpu_per_call"
}

// TotalMetrics are the trace-level metrics (used as total.NAME in rules).
var TotalMetrics = []string{"self_cpu", "self_cuda", "gpu_busy", "gpu_idle", "gpu_idle_pct", "step_time", "steps", "unlinked"}

// IsCount reports whether a metric is a count (or a percentage) rather
// than a time.
func IsCount(m string) bool {
	return m == "count" || m == "steps" || m == "unlinked" || m == "gpu_idle_pct"
}

// Row is one keyed row with its metric values.
type Row struct {
	Key    string
	Values map[string]float64
}

// Side is one trace reduced to rows and totals.
type Side struct {
	File   string
	Steps  int
	Rows   []Row
	Totals map[string]float64
}

// Options choose the rows.
type Options struct {
	By           string // op, kernel or step
	GroupByShape bool
	Torch        table.Version
	Normalize    bool // divide by the number of profiler steps
}

// Reduce computes one side.
func Reduce(t *trace.Trace, file string, o Options) (*Side, error) {
	s := &Side{File: file, Totals: map[string]float64{}}
	steps := t.Steps(nil)
	s.Steps = len(steps)
	res, err := table.Compute(t, table.Options{Torch: o.Torch, GroupByShape: o.GroupByShape})
	if err != nil {
		return nil, err
	}
	switch o.By {
	case "kernel":
		rows, _ := table.KernelView(t, nil)
		for _, r := range rows {
			tot := float64(r.TotalNs) / 1e3
			s.Rows = append(s.Rows, Row{Key: r.Name, Values: map[string]float64{
				"self_cuda": tot, "cuda_total": tot, "self_cpu": 0, "cpu_total": 0, "count": float64(r.Count),
				"avg": r.MeanNs / 1e3, "cuda_avg": r.MeanNs / 1e3}})
		}
	case "step":
		for k, st := range steps {
			cpu := float64(st.End-st.Start) / 1e3
			s.Rows = append(s.Rows, Row{Key: "step " + itoa(k+1), Values: map[string]float64{
				"self_cuda": float64(st.GPUBusyNs) / 1e3, "cuda_total": float64(st.GPUBusyNs) / 1e3, "self_cpu": cpu,
				"cpu_total": cpu, "count": float64(st.Kernels), "avg": cpu, "cuda_avg": float64(st.GPUBusyNs) / 1e3}})
		}
	default:
		for i := range res.Rows {
			r := &res.Rows[i]
			key := r.Name
			if r.Device {
				key = "[device] " + key
			}
			if o.GroupByShape {
				key += " " + r.Shapes
			}
			s.Rows = append(s.Rows, Row{Key: key, Values: map[string]float64{
				"self_cuda": r.SelfDev, "cuda_total": r.DevTotal, "self_cpu": r.SelfCPU, "cpu_total": r.CPUTotal,
				"count": float64(r.Count), "avg": r.CPUAvg(), "cuda_avg": r.DevAvg()}})
		}
	}
	for _, r := range s.Rows {
		if n := r.Values["count"]; n > 0 {
			r.Values["self_cuda_per_call"] = r.Values["self_cuda"] / n
			r.Values["self_cpu_per_call"] = r.Values["self_cpu"] / n
		}
	}
	s.Totals["self_cpu"] = res.SumSelfCPU
	s.Totals["self_cuda"] = res.SumSelfDev
	g := gaps.Analyze(t, gaps.Options{Device: -1, Stream: -1, Top: 1})
	var busy, window int64
	for _, d := range g.Devices {
		busy += d.BusyNs
		window += d.WindowNs
	}
	s.Totals["gpu_busy"] = float64(busy) / 1e3
	s.Totals["gpu_idle"] = float64(window-busy) / 1e3
	if window > 0 {
		s.Totals["gpu_idle_pct"] = float64(window-busy) * 100 / float64(window)
	}
	var cpu []int64
	for _, st := range steps {
		cpu = append(cpu, st.End-st.Start)
	}
	if len(cpu) > 0 {
		slices.Sort(cpu)
		s.Totals["step_time"] = float64(cpu[len(cpu)/2]) / 1e3
	}
	s.Totals["steps"] = float64(len(steps))
	l := t.Links()
	s.Totals["unlinked"] = float64(l.DeviceOps - l.LinkedDeviceOps)
	if o.Normalize && s.Steps > 0 && o.By != "step" {
		n := float64(s.Steps)
		for _, r := range s.Rows {
			for m, v := range r.Values {
				if !perCall(m) {
					r.Values[m] = v / n
				}
			}
		}
		for _, m := range []string{"self_cpu", "self_cuda", "gpu_busy", "gpu_idle"} {
			s.Totals[m] /= n
		}
	}
	return s, nil
}

// Change is one metric of one row on both sides.
type Change struct {
	Base, New float64
	Abs       float64 // New - Base
	Rel       float64 // Abs / Base; +Inf when Base is 0 and New is not
}

func change(b, n float64) Change {
	c := Change{Base: b, New: n, Abs: n - b}
	switch {
	case b != 0:
		c.Rel = c.Abs / b
	case n != 0:
		c.Rel = inf
	}
	return c
}

// DiffRow is a row present on either side.
type DiffRow struct {
	Key     string
	Status  string // "", "added" (only in NEW) or "removed" (only in BASE)
	Metrics map[string]Change
}

// Diff is the comparison of two sides.
type Diff struct {
	Base, New *Side
	Rows      []DiffRow
	Totals    map[string]Change
	Metrics   []string
	Normalize bool
}

// Compare aligns rows by key and computes changes; rows are sorted by the
// absolute change of the first metric, largest first.
func Compare(base, nw *Side, metrics []string, normalize bool) *Diff {
	d := &Diff{Base: base, New: nw, Totals: map[string]Change{}, Metrics: metrics, Normalize: normalize}
	idx := map[string]int{}
	for i, r := range nw.Rows {
		idx[r.Key] = i
	}
	seen := map[string]bool{}
	zero := map[string]float64{}
	for _, br := range base.Rows {
		dr := DiffRow{Key: br.Key, Metrics: map[string]Change{}}
		nv := zero
		if i, ok := idx[br.Key]; ok {
			nv = nw.Rows[i].Values
			seen[br.Key] = true
		} else {
			dr.Status = "removed"
		}
		for _, m := range RowMetrics {
			dr.Metrics[m] = change(br.Values[m], nv[m])
		}
		d.Rows = append(d.Rows, dr)
	}
	for _, nr := range nw.Rows {
		if seen[nr.Key] {
			continue
		}
		dr := DiffRow{Key: nr.Key, Status: "added", Metrics: map[string]Change{}}
		for _, m := range RowMetrics {
			dr.Metrics[m] = change(0, nr.Values[m])
		}
		d.Rows = append(d.Rows, dr)
	}
	for _, m := range TotalMetrics {
		d.Totals[m] = change(base.Totals[m], nw.Totals[m])
	}
	first := metrics[0]
	sort.SliceStable(d.Rows, func(i, j int) bool {
		return abs(d.Rows[i].Metrics[first].Abs) > abs(d.Rows[j].Metrics[first].Abs)
	})
	return d
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
