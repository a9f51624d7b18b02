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
	c := &chooser{tl: tl, t: t}
	if total := c.inLaneCount(); total <= lim.MaxEvents {
		c.writeAll()
		tl.Written = total
		return
	}
	budget := lim.MaxEvents
	if detail != nil {
		c.writeDetail(detail, budget)
	}
	// The rest of the budget is shared among the lanes (what a lane with
	// fewer events leaves goes to the others); each lane writes its
	// longest events by length class (8 per doubling of ns), every event of
	// the classes that fit in its share and an even sample (every k-th, in
	// file order) of the first that does not, with room for the launch
	// chains of the device ops among them. A second round spends what the
	// chains did not take.
	tl.ShortestWrittenNs = 0
	for round := 0; round < 2 && c.n < budget; round++ {
		c.longestRound(budget)
	}
	tl.Written = c.n
}

// chooser is choose under way: the events marked so far in tl.written,
// n of them.
type chooser struct {
	tl   *Timeline
	t    *trace.Trace
	n    int
	need []int // withFrames's buffer
}

// inLane reports whether event i is drawn in one of the lanes.
func (c *chooser) inLane(i int) bool {
	e := c.t.Ev(i)
	return c.tl.lanesOf[e.Track] >= 0 && drawn(c.t, e)
}

func (c *chooser) inLaneCount() int {
	total := 0
	for i := 0; i < c.t.NumEvents(); i++ {
		if c.inLane(i) {
			total++
		}
	}
	return total
}

// writeAll marks every event of the lanes.
func (c *chooser) writeAll() {
	for i := 0; i < c.t.NumEvents(); i++ {
		if c.inLane(i) {
			c.tl.written[i] = true
		}
	}
}

func (c *chooser) mark(i int) {
	if !c.tl.written[i] {
		c.tl.written[i] = true
		c.n++
	}
}

// withFrames writes event i and, for a device op, its launch call and
// the events around that call (chain.Frames), all or none: it says
// whether they fitted in the budget.
func (c *chooser) withFrames(i int, budget int) bool {
	c.need = append(c.need[:0], i)
	if c.t.Ev(i).Kind.IsDevice() {
		launch, enclosing := chain.Frames(c.t, i)
		if launch >= 0 && c.inLane(int(launch)) {
			c.need = append(c.need, int(launch))
			for _, p := range enclosing {
				if c.inLane(int(p)) {
					c.need = append(c.need, int(p))
				}
			}
		}
	}
	fresh := 0
	for _, k := range c.need {
		if !c.tl.written[k] {
			fresh++
		}
	}
	if c.n+fresh > budget {
		return false
	}
	for _, k := range c.need {
		c.mark(k)
	}
	return true
}

// writeDetail writes the events overlapping the detail window, with their
// launch chains, when they are at most half the budget; the timeline then
// has that detail window.
func (c *chooser) writeDetail(detail *Window, budget int) {
	t := c.t
	var in []int
	for i := 0; i < t.NumEvents(); i++ {
		if e := t.Ev(i); c.inLane(i) && e.Start < detail.EndNs+t.TraceStart && e.End() > detail.StartNs+t.TraceStart {
			in = append(in, i)
		}
	}
	if len(in) <= budget/2 {
		for _, i := range in {
			c.withFrames(i, budget)
		}
		c.tl.Detail = detail
	}
}

// longestRound shares two thirds of what is left of the budget among the
// lanes (waterFill) and writes each lane's longest unwritten events that
// fit its share (laneCut), then sets each lane's shortest written length.
func (c *chooser) longestRound(budget int) {
	tl, t := c.tl, c.t
	byCls, total := c.unwrittenByClass()
	quota := waterFill(total, (budget-c.n)*2/3)
	cuts := make([]laneCut, len(tl.Lanes))
	for ln := range tl.Lanes {
		cuts[ln] = cutFor(&byCls[ln], quota[ln])
	}
	seen := make([]int, len(tl.Lanes))
	for i := 0; i < t.NumEvents(); i++ {
		if !c.inLane(i) || tl.written[i] {
			continue
		}
		ln, cls := tl.lanesOf[t.Ev(i).Track], lenClass(t.Ev(i).Dur)
		cut := cuts[ln]
		switch {
		case cls > cut.cut:
			c.withFrames(i, budget)
		case cls == cut.cut && cut.stride > 0:
			if seen[ln]%cut.stride == 0 {
				c.withFrames(i, budget)
			}
			seen[ln]++
		}
	}
	for ln := range tl.Lanes {
		tl.Lanes[ln].ShortestNs = cuts[ln].shortestNs(total[ln])
		tl.ShortestWrittenNs = max(tl.ShortestWrittenNs, tl.Lanes[ln].ShortestNs)
	}
}

// unwrittenByClass counts each lane's unwritten events by length class,
// and in all.
func (c *chooser) unwrittenByClass() ([][numClasses]int, []int) {
	byCls := make([][numClasses]int, len(c.tl.Lanes))
	total := make([]int, len(c.tl.Lanes))
	for i := 0; i < c.t.NumEvents(); i++ {
		if c.inLane(i) && !c.tl.written[i] {
			ln := c.tl.lanesOf[c.t.Ev(i).Track]
			byCls[ln][lenClass(c.t.Ev(i).Dur)]++
			total[ln]++
		}
	}
	return byCls, total
}

// laneCut is what a lane writes of its unwritten events: every event of
// the classes above cut, and of class cut every stride-th (0: none); all
// when every event fits.
type laneCut struct {
	cut, stride int
	all         bool
}

// cutFor takes classes whole from the longest down while they fit in
// quota (the walk stops at class 0 at the latest; all says whether that
// class fits too), and samples the class where it stops evenly to fill
// the room left.
func cutFor(byCls *[numClasses]int, quota int) laneCut {
	c, sum := numClasses-1, 0
	for c > 0 && sum+byCls[c] <= quota {
		sum += byCls[c]
		c--
	}
	lc := laneCut{cut: c, all: sum+byCls[c] <= quota}
	if room := quota - sum; room > 0 && byCls[c] > 0 {
		lc.stride = (byCls[c] + room - 1) / room
	}
	return lc
}

// shortestNs is the shortest length the lane writes every event of: 0
// when it writes them all (or has none), else the start of the cut class
// when sampled, of the class above it when not.
func (lc laneCut) shortestNs(total int) int64 {
	if total == 0 || lc.all {
		return 0
	}
	if lc.stride > 0 {
		return classStart(lc.cut)
	}
	return classStart(lc.cut + 1)
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
