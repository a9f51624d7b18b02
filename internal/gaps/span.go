package gaps

import (
	"cmp"
	"slices"
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
// pairwise in rounds (n log runs; stable: ties keep run order). xs is the
// scratch of the rounds: its order is lost (every caller drops it). A
// single run is returned as it is.
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
	if len(lists) < 2 {
		return mergeLists(lists, cmp)
	}
	return mergeInto(lists, nil, xs, cmp) // xs is read in the first round only
}

// mergeLists merges lists each sorted by cmp, pairwise in rounds: n log k
// for k lists (stable: ties keep list order). A single list is returned as
// it is, not copied.
func mergeLists[T any](lists [][]T, cmp func(a, b T) int) []T {
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return lists[0]
	}
	return mergeInto(lists, nil, nil, cmp)
}

// mergeInto merges two or more sorted lists pairwise in rounds, each
// round's lists laid out one after another in one of two buffers of the
// total length, in turn (a, b, a, ...; either made when nil; the first
// round must not write where the lists lie): two arrays whatever the
// rounds, where each round made one (the launch latencies' merge, one
// list per op name, allocated 2.5 MB a run on the 200 MB default trace,
// now 0.8 MB). A list left without a partner is copied along.
func mergeInto[T any](lists [][]T, a, b []T, cmp func(a, b T) int) []T {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	bufs := [2][]T{a, b}
	for r := 0; len(lists) > 1; r++ {
		dst := bufs[r%2]
		if dst == nil {
			dst = make([]T, n)
			bufs[r%2] = dst
		}
		dst = dst[:0]
		next := make([][]T, 0, (len(lists)+1)/2)
		for k := 0; k < len(lists); k += 2 {
			from := len(dst)
			if k+1 == len(lists) {
				dst = append(dst, lists[k]...)
			} else {
				x, y := lists[k], lists[k+1]
				for len(x) > 0 && len(y) > 0 {
					if cmp(y[0], x[0]) < 0 {
						dst, y = append(dst, y[0]), y[1:]
					} else {
						dst, x = append(dst, x[0]), x[1:]
					}
				}
				dst = append(append(dst, x...), y...)
			}
			next = append(next, dst[from:len(dst):len(dst)])
		}
		lists = next
	}
	return lists[0]
}
