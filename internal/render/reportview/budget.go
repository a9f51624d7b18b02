package reportview

import (
	"math"
	"math/bits"
	"sync"

	"github.com/tracetab/tracetab/internal/trace"
)

// choose picks the events written one by one: all of them when they fit;
// else the events of the detail window (up to half the budget), then the
// longest ones down to a power of two of ns that keeps the count under
// the budget, each device op with the launch chain chain.Frames names.
func (tl *Timeline) choose(t *trace.Trace, lim Limits, detail *Window) {
	tl.written = make([]bool, t.NumEvents())
	c := &chooser{tl: tl, t: t, l: t.Links()}
	if total := c.inLaneCount(); total <= lim.MaxEvents {
		c.writeAll()
		tl.Written = total
		return
	}
	inDetail := c.listInLane(detail)
	budget := lim.MaxEvents
	if detail != nil {
		c.writeDetail(detail, inDetail, budget)
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
	l    *trace.Links
	n    int
	need []int // withFrames's buffer
	// the events of the lanes in file order, and each one's lane and
	// length class (lenClass): read from the events once, the rounds read
	// them twice each
	ev   []int32
	lane []int32
	cls  []uint16
}

// inLane reports whether event i is drawn in one of the lanes.
func (c *chooser) inLane(i int) bool { return c.tl.inLane[i] }

func (c *chooser) inLaneCount() int {
	total := 0
	for k, ln := range c.tl.lanesOf {
		if ln >= 0 {
			total += len(c.tl.drawnOf(k))
		}
	}
	return total
}

// writeAll marks every event of the lanes.
func (c *chooser) writeAll() {
	for k, ln := range c.tl.lanesOf {
		if ln >= 0 {
			for _, i := range c.tl.drawnOf(k) {
				c.tl.written[i] = true
			}
		}
	}
}

// listInLane lists the events of the lanes in file order (the order the
// rounds sample them in) with their lanes and length classes, and returns
// those that overlap the detail window (nil: none or no window).
func (c *chooser) listInLane(detail *Window) (inDetail []int) {
	t := c.t
	n := c.inLaneCount()
	c.ev, c.lane, c.cls = make([]int32, 0, n), make([]int32, 0, n), make([]uint16, 0, n)
	starts := classStarts()
	for i, in := range c.tl.inLane {
		if !in {
			continue
		}
		e := t.Ev(i)
		c.ev = append(c.ev, int32(i))
		c.lane = append(c.lane, c.tl.lanesOf[e.Track])
		c.cls = append(c.cls, uint16(lenClassFast(e.Dur, starts)))
		if detail != nil && e.Start < detail.EndNs+t.TraceStart && e.End() > detail.StartNs+t.TraceStart {
			inDetail = append(inDetail, i)
		}
	}
	return inDetail
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
		// chain.Frames' launch call and enclosing events, walked here
		// without the list it allocates per call
		if launch := c.l.Launch[i]; launch >= 0 && c.inLane(int(launch)) {
			c.need = append(c.need, int(launch))
			for p := c.l.Parent[launch]; p >= 0; p = c.l.Parent[p] {
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

// writeDetail writes the events overlapping the detail window (in, in
// file order), with their launch chains, when they are at most half the
// budget; the timeline then has that detail window.
func (c *chooser) writeDetail(detail *Window, in []int, budget int) {
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
	tl := c.tl
	byCls, total := c.unwrittenByClass()
	quota := waterFill(total, (budget-c.n)*2/3)
	cuts := make([]laneCut, len(tl.Lanes))
	for ln := range tl.Lanes {
		cuts[ln] = cutFor(&byCls[ln], quota[ln])
	}
	seen := make([]int, len(tl.Lanes))
	for j, i := range c.ev {
		if tl.written[i] {
			continue
		}
		ln, cls := c.lane[j], int(c.cls[j])
		cut := cuts[ln]
		switch {
		case cls > cut.cut:
			c.withFrames(int(i), budget)
		case cls == cut.cut && cut.stride > 0:
			if seen[ln]%cut.stride == 0 {
				c.withFrames(int(i), budget)
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
	for j, i := range c.ev {
		if !c.tl.written[i] {
			ln := c.lane[j]
			byCls[ln][c.cls[j]]++
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

// lenClassFast is lenClass without the logarithm for all but the
// durations next to a class's start: 400,000 logarithms took 27 M
// instructions on the 200 MB export-shape trace (cachegrind). The class is
// at least 8 * (bit length of d+1, less 1) (log2 of a power of two is
// exact) and found from there among the starts of the classes above
// (classStart, which lenClass itself defines). Away from a start by more
// than a nanosecond, lenClass's float and the exact value agree (below
// 10^14 ns the float's error is under 0.1 ns of duration), so only the
// durations within 2 ns of a start, and the longer ones, take the
// logarithm (TestLenClassFast).
func lenClassFast(d int64, starts []int64) int {
	if d < 0 || d >= fastClassMaxNs {
		return lenClass(d)
	}
	c := 8 * (bits.Len64(uint64(d)+1) - 1)
	for starts[c+1] <= d {
		c++
	}
	if d-starts[c] < 2 || starts[c+1]-d <= 2 {
		return lenClass(d)
	}
	return c
}

// fastClassMaxNs bounds the durations lenClassFast classes itself.
const fastClassMaxNs = 100_000_000_000_000

// classStarts (lenClassFast's starts) are classStart of the classes of
// the durations below fastClassMaxNs (up to 8 * 47), and of the class
// after the last.
var classStarts = sync.OnceValue(func() []int64 {
	n := lenClass(fastClassMaxNs) + 2
	out := make([]int64, n)
	for c := range out {
		out[c] = classStart(c)
	}
	return out
})

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
