package reportview

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// levels builds the levels of detail: level k's bins are the span divided
// into Width * 2^k (whole ns, rounded up), down to MinBinNs or until the
// cells would exceed the budget; when a detail window was chosen, 3/5 of
// the budget goes to the whole span and the finer levels after that cover
// the window alone. Level 0 is always built.
func (tl *Timeline) levels(t *trace.Trace, l *trace.Links, lim Limits) {
	w0 := ceilDiv(tl.EndNs-tl.StartNs, int64(max(lim.Width, 1)))
	budget := lim.MaxCells
	if tl.Detail != nil {
		budget = lim.MaxCells * 3 / 5
	}
	// Each lane's candidates: its drawn events by start, less those a
	// coarser level already drew one by one (a written event at least a
	// bin wide is so at every finer level), and the longest of them. The
	// candidates are copied out of the events once (each level reads all
	// of them; reading them from the trace's events took a fifth of the
	// levels' time in loads alone, on the 200 MB export-shape trace).
	n := 0
	for k, ln := range tl.lanesOf {
		if ln >= 0 {
			n += len(tl.drawnOf(k))
		}
	}
	all := make([]candEv, 0, n)
	cand := make([][]candEv, len(tl.Lanes))
	maxDur := make([]int64, len(tl.Lanes))
	for k, ln := range tl.lanesOf {
		if ln < 0 {
			continue
		}
		from := len(all)
		for _, i := range tl.drawnOf(k) {
			e := t.Ev(int(i))
			all = append(all, candEv{s: e.Start - t.TraceStart, end: e.End() - t.TraceStart, row: tl.rowOf[i], written: tl.written[i]})
			maxDur[ln] = max(maxDur[ln], e.Dur)
		}
		cand[ln] = all[from:len(all):len(all)]
	}
	// what the candidates hold is all the levels read: the per-event
	// columns go (the page's peak is here: 9.6 MB of candidates on the
	// 200 MB export-shape trace)
	tl.drawnIdx, tl.drawnStart = nil, nil
	tl.written, tl.rowOf, tl.page, tl.inLane = nil, nil, nil, nil
	used, k := 0, 0
	var scratch cellRows
	build := func(from, to int64, budget int) (finished bool) {
		for ; ; k++ {
			w := max(ceilDiv(w0, int64(1)<<min(k, 62)), 1)
			if len(tl.Levels) > 0 && w >= tl.Levels[len(tl.Levels)-1].BinNs {
				return true
			}
			// level 0 has no limit (at most Width cells per row); when it
			// alone takes the budget, the next level may take none (a
			// negative limit meant none at all: every finer level down to
			// MinBinNs was built, without bound)
			limit := max(budget-used, 0)
			if len(tl.Levels) == 0 {
				limit = -1
			}
			lv, cells, more, ok := tl.level(cand, maxDur, w, from, to, limit, &scratch)
			if !ok {
				return false
			}
			tl.Levels = append(tl.Levels, lv)
			used += cells
			if w <= lim.MinBinNs || !more {
				return true
			}
		}
	}
	if build(tl.StartNs, tl.EndNs, budget) || tl.Detail == nil {
		return
	}
	build(tl.Detail.StartNs, tl.Detail.EndNs, lim.MaxCells)
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 1
	}
	return (a + b - 1) / b
}

// candEv is a candidate of the bands: an event's stretch in ns from the
// trace's start, its row, and whether it is written one by one.
type candEv struct {
	s, end  int64
	row     int16
	written bool
}

// cell is one bin's sum before it is written.
type cell struct {
	bin     int64
	covered int64
	count   int32
}

// level is one level of bins of w ns over [from, to): for each lane's row,
// the cells of its candidates narrower than w or not written one by one
// (the others leave the candidates: they are drawn one by one at this
// level and every finer one). limit (when >= 0) bounds the cells: ok is
// false when they would exceed it. more says whether any event with a
// duration was banded (a finer level can show more).
func (tl *Timeline) level(cand [][]candEv, maxDur []int64, w, from, to int64, limit int, scratch *cellRows) (lv Level, cells int, more, ok bool) {
	lv = Level{BinNs: w, FromNs: from, ToNs: to}
	for ln, lane := range tl.Lanes {
		// each row's cells are rows[r][:lens[r]]: the lengths apart, so
		// that a cell added stores no slice header (with a pointer) into
		// the heap, which pays the write barrier while the collector marks
		rows, lens := scratch.get(lane.Rows)
		c := cand[ln]
		// the first candidate that can reach from, by start
		first, _ := slices.BinarySearchFunc(c, from-maxDur[ln], func(e candEv, s int64) int {
			return cmp.Compare(e.s, s)
		})
		keep := first // c[:keep] are the candidates kept so far
		past := false // stopped at the first candidate past to
		for j := first; j < len(c); j++ {
			e := c[j]
			dur := e.end - e.s
			if e.written && dur >= w {
				continue
			}
			if keep != j {
				c[keep] = e
			}
			keep++
			s, end := e.s, e.end
			if s >= to {
				cand[ln], past = rejoin(c[:keep], c, j+1), true
				break
			}
			if end < from || (end == from && dur > 0) {
				continue
			}
			more = more || dur > 0
			s, end = max(s, from), min(end, to)
			r := e.row
			b1 := (s - from) / w
			if lo := from + b1*w; end <= lo+w {
				// within one bin (most events at every level): its
				// cell is [b1, b1], covered end - s
				row, n := rows[r], lens[r]
				if n > 0 && row[n-1].bin == b1 {
					row[n-1].covered += end - s
					row[n-1].count++
					continue
				}
				if n == len(row) {
					row = growCells(row)
					rows[r] = row
				}
				row[n], lens[r] = cell{bin: b1, covered: end - s, count: 1}, n+1
				cells++
				if limit >= 0 && cells > limit {
					cand[ln] = rejoin(c[:keep], c, j+1) // the lane's candidates stay whole
					return lv, cells, more, false
				}
				continue
			}
			b2 := (end - from) / w
			if end > s && (end-from)%w == 0 {
				b2-- // the event ends exactly at a bin's start
			}
			for b := b1; b <= b2; b++ {
				lo, hi := from+b*w, from+(b+1)*w
				cov := min(end, hi) - max(s, lo)
				row, n := rows[r], lens[r]
				if n > 0 && row[n-1].bin == b {
					row[n-1].covered += cov
					row[n-1].count++
					continue
				}
				if n == len(row) {
					row = growCells(row)
					rows[r] = row
				}
				row[n], lens[r] = cell{bin: b, covered: cov, count: 1}, n+1
				cells++
				if limit >= 0 && cells > limit {
					cand[ln] = rejoin(c[:keep], c, j+1) // the lane's candidates stay whole
					return lv, cells, more, false
				}
			}
		}
		if !past {
			cand[ln] = c[:keep]
		}
		for r, row := range rows {
			row = row[:lens[r]]
			if len(row) == 0 {
				continue
			}
			row = mergeCells(row)
			bd := Band{Lane: ln, Row: r, Bin: make([]int64, len(row)), Pct: make([]int8, len(row)), Count: make([]int32, len(row))}
			for j, c := range row {
				bd.Bin[j], bd.Count[j] = c.bin, c.count
				bd.Pct[j] = int8(min(max(ceilDiv(c.covered*100, w), 1), 100))
				if c.covered == 0 {
					bd.Pct[j] = 1
				}
			}
			lv.Bands = append(lv.Bands, bd)
		}
	}
	return lv, cells, more, true
}

// cellRows are the rows' cells of one lane at one level while they are
// summed, kept for the next lane and level (the bands copy them out): a
// row's cells grown afresh for each took 10 MB of allocation for 6 MB
// of cells on the 200 MB export-shape trace.
type cellRows struct {
	rows [][]cell
	lens []int
}

// get is n rows, their lengths 0 (their cells, of a lane before, are
// stale).
func (c *cellRows) get(n int) ([][]cell, []int) {
	for len(c.rows) < n {
		c.rows = append(c.rows, nil)
		c.lens = append(c.lens, 0)
	}
	lens := c.lens[:n]
	clear(lens)
	return c.rows[:n], lens
}

// growCells is row with room for more cells: its length is its new
// capacity (the cells in use are counted apart).
func growCells(row []cell) []cell {
	grown := make([]cell, max(2*len(row), 64))
	copy(grown, row)
	return grown
}

// rejoin is keep (a prefix of c's storage) followed by c[j:]: c itself
// when keep is c[:j] (no candidate left the list), else the rest moved up.
// A detail level stops at its window's end: moving every candidate after
// it, for each of the ten or so levels, was most of the levels' copying.
func rejoin(keep, c []candEv, j int) []candEv {
	if len(keep) == j {
		return c
	}
	return append(keep, c[j:]...)
}

// mergeCells sorts a row's cells by bin and adds up those of one bin (an
// event that outlasts the next one's start leaves them out of order).
func mergeCells(row []cell) []cell {
	if !slices.IsSortedFunc(row, func(a, b cell) int { return cmp.Compare(a.bin, b.bin) }) {
		slices.SortStableFunc(row, func(a, b cell) int { return cmp.Compare(a.bin, b.bin) })
	}
	out := row[:1]
	for _, c := range row[1:] {
		if last := &out[len(out)-1]; last.bin == c.bin {
			last.covered += c.covered
			last.count += c.count
			continue
		}
		out = append(out, c)
	}
	return out
}
