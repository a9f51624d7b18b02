package roofline

import (
	"cmp"
	"slices"
)

// SortKeys are the orders Sort takes; the first is the default.
var SortKeys = []string{"device_ns", "lost_ns", "flops", "tflops", "peak_pct", "calls", "name"}

// Sort orders the rows by key, largest first (name: alphabetical); rows
// without the figure come last, ties keep the order of first occurrence.
// Lost keeps pointing at the same rows.
func (r *Result) Sort(key string) bool {
	if !slices.Contains(SortKeys, key) {
		return false
	}
	val := func(x *Row) (float64, bool) {
		switch key {
		case "device_ns":
			return float64(x.DeviceNs), true
		case "calls":
			return float64(x.Calls), true
		case "lost_ns":
			return deref(x.LostNs)
		case "flops":
			return deref(x.FLOPs)
		case "tflops":
			return deref(x.TFLOPs)
		case "peak_pct":
			return deref(x.PeakPct)
		}
		return 0, false
	}
	order := make([]int, len(r.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := &r.Rows[a], &r.Rows[b]
		if key == "name" {
			return cmp.Compare(x.Name, y.Name)
		}
		vx, okx := val(x)
		vy, oky := val(y)
		switch {
		case okx != oky:
			if okx {
				return -1
			}
			return 1
		case vx != vy:
			return cmp.Compare(vy, vx)
		}
		return 0
	})
	rows := make([]Row, len(r.Rows))
	where := make([]int, len(r.Rows))
	for i, k := range order {
		rows[i] = r.Rows[k]
		where[k] = i
	}
	for i, k := range r.Lost {
		r.Lost[i] = where[k]
	}
	r.Rows = rows
	return true
}

func deref[T int64 | float64](p *T) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return float64(*p), true
}
