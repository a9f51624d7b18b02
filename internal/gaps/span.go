package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// ivs is a sorted list of disjoint half-open intervals [s, e).
type ivs [][2]int64

// mergeIvs sorts x by start and merges what overlaps or touches, in place
// (the result shares x's array).
func mergeIvs(x [][2]int64) ivs {
	if len(x) == 0 {
		return nil
	}
	by := func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) }
	if !slices.IsSortedFunc(x, by) {
		slices.SortFunc(x, by)
	}
	out := ivs(x[:1])
	for _, v := range x[1:] {
		last := &out[len(out)-1]
		if v[0] <= last[1] {
			last[1] = max(last[1], v[1])
			continue
		}
		out = append(out, v) // writes at or behind the read position
	}
	return out
}

// total is the summed length.
func (w ivs) total() int64 {
	var n int64
	for _, v := range w {
		n += v[1] - v[0]
	}
	return n
}

// bounds is the first start and the last end (0, 0 when empty).
func (w ivs) bounds() (lo, hi int64) {
	if len(w) == 0 {
		return 0, 0
	}
	return w[0][0], w[len(w)-1][1]
}

// overlap is the length of [s, e) that lies inside w (binary search, then
// only the intervals that meet [s, e)).
func (w ivs) overlap(s, e int64) int64 {
	if e <= s || len(w) == 0 {
		return 0
	}
	k, _ := slices.BinarySearchFunc(w, s, func(v [2]int64, x int64) int { return cmp.Compare(v[1], x+1) })
	var n int64
	for ; k < len(w) && w[k][0] < e; k++ {
		n += min(e, w[k][1]) - max(s, w[k][0])
	}
	return n
}

// intersect is the length of the intersection of two interval lists.
func intersect(a, b ivs) int64 {
	var n int64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
		if hi > lo {
			n += hi - lo
		}
		if a[i][1] < b[j][1] {
			i++
		} else {
			j++
		}
	}
	return n
}

// contains reports whether ts lies inside w.
func (w ivs) contains(ts int64) bool {
	return w.overlap(ts, ts+1) == 1
}

// mergeRuns merges the sorted runs xs[0:ends[0]], xs[ends[0]:ends[1]], ...
// pairwise in rounds (n log runs; stable: ties keep run order).
func mergeRuns[T any](xs []T, ends []int, cmp func(a, b T) int) []T {
	var lists [][]T
	prev := 0
	for _, end := range ends {
		if end > prev {
			lists = append(lists, xs[prev:end])
		}
		prev = end
	}
	if prev < len(xs) {
		lists = append(lists, xs[prev:])
	}
	return mergeLists(lists, cmp)
}

// mergeLists merges lists each sorted by cmp, pairwise in rounds: n log k
// for k lists (stable: ties keep list order). A single list is returned as
// it is, not copied.
func mergeLists[T any](lists [][]T, cmp func(a, b T) int) []T {
	for len(lists) > 1 {
		next := make([][]T, 0, (len(lists)+1)/2)
		for k := 0; k+1 < len(lists); k += 2 {
			a, b := lists[k], lists[k+1]
			m := make([]T, 0, len(a)+len(b))
			for len(a) > 0 && len(b) > 0 {
				if cmp(b[0], a[0]) < 0 {
					m, b = append(m, b[0]), b[1:]
				} else {
					m, a = append(m, a[0]), a[1:]
				}
			}
			next = append(next, append(append(m, a...), b...))
		}
		if len(lists)%2 == 1 {
			next = append(next, lists[len(lists)-1])
		}
		lists = next
	}
	if len(lists) == 0 {
		return nil
	}
	return lists[0]
}

// stepCursor answers trace.StepAt for times that mostly come in order:
// it remembers where the last answer was and searches only when the time
// moved to another step (same answers as trace.StepAt).
type stepCursor struct {
	steps []trace.Step
	k     int // the first step starting after the last time asked, as StepAt finds it
}

func (c *stepCursor) at(ts int64) int {
	st := c.steps
	k := c.k
	// k is right when every step before it starts at or before ts and the
	// step at k starts after it.
	if !(k <= len(st) && (k == 0 || st[k-1].Start <= ts) && (k == len(st) || st[k].Start > ts)) {
		if k < len(st) && st[k].Start <= ts && (k+1 == len(st) || st[k+1].Start > ts) {
			k++
		} else {
			k, _ = slices.BinarySearchFunc(st, ts, func(s trace.Step, x int64) int { return cmp.Compare(s.Start, x+1) })
		}
	}
	c.k = k
	for j := k - 1; j >= 0 && j >= k-2; j-- {
		if st[j].Start <= ts && ts < st[j].End {
			return j
		}
	}
	return -1
}
