package reportview

import (
	"math"

	"github.com/tracetab/tracetab/internal/chain"
	"github.com/tracetab/tracetab/internal/trace"
)

// choose picks the events written one by one: all of them when they fit;
// else the events of the detail window (up to half the budget), then the
// longest ones down to a power of two of ns that keeps the count under
// the budget, each device op with the launch chain chain.Frames names.
func (tl *Timeline) choose(t *trace.Trace, lim Limits, detail *Window) {
	tl.written = make([]bool, t.NumEvents())
	inLane := func(i int) bool {
		e := t.Ev(i)
		return tl.lanesOf[e.Track] >= 0 && drawn(t, e)
	}
	n := 0
	mark := func(i int) {
		if !tl.written[i] {
			tl.written[i] = true
			n++
		}
	}
	// withFrames writes event i and, for a device op, its launch call and
	// the events around that call (chain.Frames), all or none: it says
	// whether they fitted in the budget.
	var need []int
	withFrames := func(i int, budget int) bool {
		need = append(need[:0], i)
		if t.Ev(i).Kind.IsDevice() {
			launch, enclosing := chain.Frames(t, i)
			if launch >= 0 && inLane(int(launch)) {
				need = append(need, int(launch))
				for _, p := range enclosing {
					if inLane(int(p)) {
						need = append(need, int(p))
					}
				}
			}
		}
		fresh := 0
		for _, k := range need {
			if !tl.written[k] {
				fresh++
			}
		}
		if n+fresh > budget {
			return false
		}
		for _, k := range need {
			mark(k)
		}
		return true
	}
	total := 0
	for i := 0; i < t.NumEvents(); i++ {
		if inLane(i) {
			total++
		}
	}
	if total <= lim.MaxEvents {
		for i := 0; i < t.NumEvents(); i++ {
			if inLane(i) {
				tl.written[i] = true
			}
		}
		tl.Written = total
		return
	}
	budget := lim.MaxEvents
	if detail != nil {
		var in []int
		for i := 0; i < t.NumEvents(); i++ {
			if e := t.Ev(i); inLane(i) && e.Start < detail.EndNs+t.TraceStart && e.End() > detail.StartNs+t.TraceStart {
				in = append(in, i)
			}
		}
		if len(in) <= budget/2 {
			for _, i := range in {
				withFrames(i, budget)
			}
			tl.Detail = detail
		}
	}
	// The rest of the budget is shared among the lanes (what a lane with
	// fewer events leaves goes to the others); each lane writes its
	// longest events by length class (8 per doubling of ns), every event of
	// the classes that fit in its share and an even sample (every k-th, in
	// file order) of the first that does not, with room for the launch
	// chains of the device ops among them. A second round spends what the
	// chains did not take.
	tl.ShortestWrittenNs = 0
	for round := 0; round < 2 && n < budget; round++ {
		byCls := make([][numClasses]int, len(tl.Lanes))
		total := make([]int, len(tl.Lanes))
		for i := 0; i < t.NumEvents(); i++ {
			if inLane(i) && !tl.written[i] {
				ln := tl.lanesOf[t.Ev(i).Track]
				byCls[ln][lenClass(t.Ev(i).Dur)]++
				total[ln]++
			}
		}
		quota := waterFill(total, (budget-n)*2/3)
		all := make([]bool, len(tl.Lanes))   // every event of the lane fits
		cut := make([]int, len(tl.Lanes))    // classes above cut[lane] are written whole
		stride := make([]int, len(tl.Lanes)) // of class cut[lane], every stride-th (0: none)
		for ln := range tl.Lanes {
			c, sum := numClasses-1, 0
			for c > 0 && sum+byCls[ln][c] <= quota[ln] {
				sum += byCls[ln][c]
				c--
			}
			cut[ln], all[ln] = c, sum+byCls[ln][c] <= quota[ln]
			if room := quota[ln] - sum; room > 0 && byCls[ln][c] > 0 {
				stride[ln] = (byCls[ln][c] + room - 1) / room
			}
		}
		seen := make([]int, len(tl.Lanes))
		for i := 0; i < t.NumEvents(); i++ {
			if !inLane(i) || tl.written[i] {
				continue
			}
			ln, c := tl.lanesOf[t.Ev(i).Track], lenClass(t.Ev(i).Dur)
			switch {
			case c > cut[ln]:
				withFrames(i, budget)
			case c == cut[ln] && stride[ln] > 0:
				if seen[ln]%stride[ln] == 0 {
					withFrames(i, budget)
				}
				seen[ln]++
			}
		}
		for ln := range tl.Lanes {
			tl.Lanes[ln].ShortestNs = 0
			if total[ln] > 0 && !all[ln] {
				tl.Lanes[ln].ShortestNs = classStart(cut[ln] + 1)
				if stride[ln] > 0 {
					tl.Lanes[ln].ShortestNs = classStart(cut[ln])
				}
			}
			tl.ShortestWrittenNs = max(tl.ShortestWrittenNs, tl.Lanes[ln].ShortestNs)
		}
	}
	tl.Written = n
}

// Length classes: class c holds the durations d with
// floor(8 * log2(d + 1)) = c, eight per doubling.
const numClasses = 8 * 64

func lenClass(d int64) int {
	return min(int(8*math.Log2(float64(d)+1)), numClasses-1)
}

// classStart is the shortest duration of class c.
func classStart(c int) int64 {
	d := int64(math.Ceil(math.Exp2(float64(c)/8) - 1))
	for d > 0 && lenClass(d-1) >= c {
		d--
	}
	for lenClass(d) < c {
		d++
	}
	return d
}

// waterFill shares budget among lanes holding total[k] events: a lane gets
// an equal part of what is left, or all of its events when they are fewer
// (what it leaves goes to the others).
func waterFill(total []int, budget int) []int {
	quota := make([]int, len(total))
	open := 0
	for _, n := range total {
		if n > 0 {
			open++
		}
	}
	left := max(budget, 0)
	done := make([]bool, len(total))
	for k, n := range total {
		done[k] = n == 0
	}
	for open > 0 {
		share, changed := left/open, false
		for k, n := range total {
			if !done[k] && n <= share {
				quota[k], done[k], left, open, changed = n, true, left-n, open-1, true
			}
		}
		if !changed {
			for k := range total {
				if !done[k] && total[k] > 0 {
					quota[k] = share
				}
			}
			break
		}
	}
	return quota
}
