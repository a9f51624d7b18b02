package reportview

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// Limits bound what the page holds, so that a trace of any size gives a
// page of a few MB.
type Limits struct {
	MaxEvents   int   // events written one by one (the longest, the detail step's, and the launch chains of the device ops among them)
	MaxCells    int   // density cells over all levels
	Width       int   // the pixels the coarsest level's bins divide the span into
	MaxCPULanes int   // CPU threads drawn (those with the most events)
	MaxCPURows  int   // nesting depth drawn per thread (deeper events go in the last row)
	MaxGPURows  int   // rows per stream for device ops that overlap
	MinBinNs    int64 // the finest bin
}

// DefaultLimits are the limits tracetab report states in its help.
var DefaultLimits = Limits{MaxEvents: 60000, MaxCells: 250000, Width: 1600, MaxCPULanes: 64, MaxCPURows: 32, MaxGPURows: 4, MinBinNs: 1}

// Timeline is the page's time axis: lanes (CPU threads above GPU streams),
// the events drawn one by one, and at each level of detail the density
// bands that stand for every event narrower than a bin. Times are ns from
// the trace's origin.
type Timeline struct {
	StartNs, EndNs int64
	Strings        []string // names and shapes the events refer to
	Lanes          []Lane
	Levels         []Level
	// Detail is the window the finer levels cover when the whole span could
	// not be held at every level: a step (StepN) drawn in full detail.
	Detail            *Window
	Events, Written   int   // events the lanes hold in the trace; written one by one
	ShortestWrittenNs int64 // outside the detail window, events shorter than this are bands only (0: all written)
	CPULanesLeftOut   int
	DeeperRowsFolded  int // CPU events deeper than MaxCPURows, drawn in the last row
	OverlapRowsFolded int // device ops that overlapped more than MaxGPURows others, drawn in the last row
	written           []bool
	rowOf             []int16
	lanesOf           []int32 // track -> lane, -1
	page              []int32 // event -> its position among the written events, -1
	// the drawn events of every track, by start (Links.Order less what no
	// lane draws): track k's are drawnIdx[drawnStart[k]:drawnStart[k+1]];
	// levels takes them over as its candidates
	drawnIdx, drawnStart []int32
	inLane               []bool // event -> drawn in one of the lanes
}

// Window is a stretch of the time axis.
type Window struct {
	StartNs int64 `json:"start_ns"`
	EndNs   int64 `json:"end_ns"`
	Step    int64 `json:"step"` // the ProfilerStep#N it is, -1 for none
}

// Lane is one CPU thread or GPU stream with its written events, by start.
type Lane struct {
	Kind   string // "cpu" or "gpu"
	Label  string
	Device int   // gpu lanes
	Stream int64 // gpu lanes
	Rows   int
	Ev     []Ev
	// ShortestNs: outside the detail step, the lane's events shorter than
	// this are bands only (0: all written)
	ShortestNs int64
}

// Ev is one event written one by one. Page is its position in the page's
// list of written events (lanes in order, each by start); Link is, for a
// device op, the page position of the call that launched it and, for a CPU
// event, that of its enclosing event on the thread (-1: none written).
type Ev struct {
	StartNs, DurNs int64
	Name           int32 // index into Strings
	Shape          int32 // input shapes, index into Strings (-1: none)
	Row            int16
	Kind           trace.Kind
	Page, Link     int32
}

// Level is one level of detail: bins of BinNs over [FromNs, ToNs); the
// events narrower than a bin (and those not written) are cells of density.
type Level struct {
	BinNs, FromNs, ToNs int64
	Bands               []Band
}

// Band is the density cells of one lane's row at one level: the bin's
// index (from the level's FromNs), the share of the bin those events cover
// (whole percent, rounded up: 1 to 100) and how many touch it.
type Band struct {
	Lane, Row int
	Bin       []int64
	Pct       []int8
	Count     []int32
}

// drawn says whether event e is a lane's: CPU events, and kernels,
// memcpys and memsets on device streams.
func drawn(t *trace.Trace, e *trace.Event) bool { return drawnOn(t.Tracks[e.Track].Kind, e.Kind) }

// drawnOn says whether an event of kind k on a track of kind tk is a
// lane's (drawn).
func drawnOn(tk trace.TrackKind, k trace.Kind) bool {
	switch tk {
	case trace.TrackCPU:
		return k.IsCPU()
	case trace.TrackDevice:
		return k.IsDeviceWork()
	}
	return false
}

// drawnOf is track k's drawn events, by start.
func (tl *Timeline) drawnOf(k int) []int32 {
	a, b := tl.drawnStart[k], tl.drawnStart[k+1]
	return tl.drawnIdx[a:b:b]
}

// BuildTimeline lays t out under the limits; detail, when set, is the
// window to hold in full detail should the whole span not fit.
func BuildTimeline(t *trace.Trace, lim Limits, spanStart, spanEnd int64, detail *Window) *Timeline {
	l := t.Links()
	tl := &Timeline{StartNs: spanStart, EndNs: max(spanEnd, spanStart+1)}
	tl.lanes(t, l, lim)
	tl.rows(t, l, lim)
	tl.choose(t, lim, detail)
	tl.writeEvents(t, l)
	tl.levels(t, l, lim)
	return tl
}

// lanes picks the tracks and their order: the page opens on the lanes
// that matter. First the CPU threads that launch device work, then the GPU
// streams (by device and stream), then the other threads with ops, last
// the threads with only Python frames or annotations (a DataLoader's
// pin-memory thread, threading.py's _bootstrap); within each group by pid
// and tid. When there are more than MaxCPULanes CPU threads, those with
// ops and then the most events are kept.
func (tl *Timeline) lanes(t *trace.Trace, l *trace.Links, lim Limits) {
	count := make([]int, len(t.Tracks))
	ops := make([]int, len(t.Tracks))       // cpu ops and runtime calls
	launches := make([]bool, len(t.Tracks)) // a launch call with its device op in the trace
	// (appended to a local slice: a slice header stored into the heap
	// per event pays the write barrier while the collector marks)
	idx := make([]int32, 0, len(l.Order))
	tl.drawnStart = make([]int32, len(t.Tracks)+1)
	for k := range t.Tracks {
		tk := t.Tracks[k].Kind
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if drawnOn(tk, e.Kind) {
				idx = append(idx, i)
				if e.Kind == trace.KindCPUOp || e.Kind.IsLaunch() {
					ops[k]++
				}
			}
		}
		tl.drawnStart[k+1] = int32(len(idx))
		count[k] = int(tl.drawnStart[k+1] - tl.drawnStart[k])
		tl.Events += count[k]
	}
	tl.drawnIdx = idx
	for i := 0; i < t.NumEvents(); i++ {
		if r := l.Launch[i]; r >= 0 {
			launches[t.Ev(int(r)).Track] = true
		}
	}
	var cpu, gpu []int
	for k, tr := range t.Tracks {
		switch {
		case count[k] == 0:
		case tr.Kind == trace.TrackCPU:
			cpu = append(cpu, k)
		case tr.Kind == trace.TrackDevice:
			gpu = append(gpu, k)
		}
	}
	if len(cpu) > lim.MaxCPULanes {
		slices.SortStableFunc(cpu, func(a, b int) int {
			return cmp.Or(cmp.Compare(b2i(launches[b]), b2i(launches[a])), cmp.Compare(b2i(ops[b] > 0), b2i(ops[a] > 0)), cmp.Compare(count[b], count[a]))
		})
		tl.CPULanesLeftOut = len(cpu) - lim.MaxCPULanes
		cpu = cpu[:lim.MaxCPULanes]
	}
	slices.SortStableFunc(cpu, func(a, b int) int {
		return compareID(t, t.Tracks[a].Pid, t.Tracks[b].Pid, t.Tracks[a].Tid, t.Tracks[b].Tid)
	})
	slices.SortStableFunc(gpu, func(a, b int) int {
		ta, tb := &t.Tracks[a], &t.Tracks[b]
		return cmp.Or(cmp.Compare(ta.Device, tb.Device), cmp.Compare(ta.Stream, tb.Stream))
	})
	var order []int
	for _, k := range cpu {
		if launches[k] {
			order = append(order, k)
		}
	}
	order = append(order, gpu...)
	for _, k := range cpu {
		if !launches[k] && ops[k] > 0 {
			order = append(order, k)
		}
	}
	for _, k := range cpu {
		if !launches[k] && ops[k] == 0 {
			order = append(order, k)
		}
	}
	tl.lanesOf = make([]int32, len(t.Tracks))
	for k := range tl.lanesOf {
		tl.lanesOf[k] = -1
	}
	for _, k := range order {
		tr := &t.Tracks[k]
		ln := Lane{Kind: "cpu", Label: threadLabel(t, tr), Rows: 1}
		if tr.Kind == trace.TrackDevice {
			ln = Lane{Kind: "gpu", Label: fmt.Sprintf("GPU %d stream %d", tr.Device, tr.Stream), Device: tr.Device, Stream: tr.Stream, Rows: 1}
		}
		tl.lanesOf[k] = int32(len(tl.Lanes))
		tl.Lanes = append(tl.Lanes, ln)
	}
	tl.inLane = make([]bool, t.NumEvents())
	for _, k := range order {
		for _, i := range tl.drawnOf(k) {
			tl.inLane[i] = true
		}
	}
}

func compareID(t *trace.Trace, pa, pb, ta, tb trace.ID) int {
	key := func(x trace.ID) (int, int64, string) {
		if x.IsStr {
			return 1, 0, t.Str(x.Str)
		}
		return 0, x.Int, ""
	}
	a1, a2, a3 := key(pa)
	b1, b2, b3 := key(pb)
	c1, c2, c3 := key(ta)
	d1, d2, d3 := key(tb)
	return cmp.Or(cmp.Compare(a1, b1), cmp.Compare(a2, b2), cmp.Compare(a3, b3), cmp.Compare(c1, d1), cmp.Compare(c2, d2), cmp.Compare(c3, d3))
}

func idText(t *trace.Trace, x trace.ID) string {
	if x.IsStr {
		return t.Str(x.Str)
	}
	return fmt.Sprint(x.Int)
}

// threadLabel is the thread's name as the trace gives it ("thread 25738
// (python)"), else "thread TID".
func threadLabel(t *trace.Trace, tr *trace.Track) string {
	if tr.Name != "" {
		return tr.Name
	}
	return "thread " + idText(t, tr.Tid)
}

// rows gives each event its row: on a CPU thread its nesting depth (the
// enclosing events on the thread, as torch nests them), on a stream the
// first row free at its start.
func (tl *Timeline) rows(t *trace.Trace, l *trace.Links, lim Limits) {
	tl.rowOf = make([]int16, t.NumEvents())
	var depth []int32 // drawn events enclosing each event on its thread
	for k, ln := range tl.lanesOf {
		if ln < 0 {
			continue
		}
		lane := &tl.Lanes[ln]
		order := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		if lane.Kind == "cpu" {
			if depth == nil {
				depth = make([]int32, t.NumEvents())
			}
			// the parent is on the same thread: drawn is inLane there
			for _, i := range order {
				d := 0
				if p := l.Parent[i]; p >= 0 {
					d = int(depth[p])
					if tl.inLane[p] {
						d++
					}
				}
				depth[i] = int32(d)
				if !tl.inLane[i] {
					continue
				}
				if d >= lim.MaxCPURows {
					tl.DeeperRowsFolded++
					d = lim.MaxCPURows - 1
				}
				tl.rowOf[i] = int16(d)
				lane.Rows = max(lane.Rows, d+1)
			}
			continue
		}
		var ends []int64
		for _, i := range tl.drawnOf(k) {
			e := t.Ev(int(i))
			r := 0
			for r < len(ends) && ends[r] > e.Start {
				r++
			}
			if r == len(ends) {
				if r < lim.MaxGPURows {
					ends = append(ends, 0)
				} else {
					r--
					tl.OverlapRowsFolded++
				}
			}
			ends[r] = max(ends[r], e.End())
			tl.rowOf[i] = int16(r)
			lane.Rows = max(lane.Rows, r+1)
		}
	}
}

// writeEvents fills the lanes with the written events, by start, and
// numbers them in page order.
func (tl *Timeline) writeEvents(t *trace.Trace, l *trace.Links) {
	str := map[string]int32{}
	byID := make([]int32, len(t.Strings)) // the trace's string -> 1 + its index in Strings, 0: not yet
	intern := func(sid trace.StrID) int32 {
		if id := byID[sid]; id > 0 {
			return id - 1
		}
		s := t.Str(sid)
		id, ok := str[s]
		if !ok {
			id = int32(len(tl.Strings))
			str[s] = id
			tl.Strings = append(tl.Strings, s)
		}
		byID[sid] = id + 1
		return id
	}
	tl.page = make([]int32, t.NumEvents())
	for i := range tl.page {
		tl.page[i] = -1
	}
	next := int32(0)
	trackOf := make([]int, len(tl.Lanes))
	for k, ln := range tl.lanesOf {
		if ln >= 0 {
			trackOf[ln] = k
		}
	}
	// The lanes' events are consecutive stretches of one list made at its
	// size (tl.Written: choose marks the lanes' events alone); each lane's
	// grown by appending on its own took 12 MB of allocation (by doubling)
	// for 2.4 MB of events on the 200 MB export-shape trace.
	all := make([]Ev, 0, tl.Written) // local while it grows (no write barrier per event)
	for ln := range tl.Lanes {
		k := trackOf[ln]
		from := len(all)
		for _, i := range tl.drawnOf(k) {
			if !tl.written[i] {
				continue
			}
			e := t.Ev(int(i))
			shape := int32(-1)
			if x := t.ExtraOf(int(i)); x != nil && x.InputDims != 0 {
				shape = intern(x.InputDims)
			}
			tl.page[i] = next
			next++
			all = append(all, Ev{StartNs: e.Start - t.TraceStart, DurNs: e.Dur, Name: intern(e.Name),
				Shape: shape, Row: tl.rowOf[i], Kind: e.Kind, Page: tl.page[i], Link: -1})
		}
		if len(all) > from { // nil when none
			tl.Lanes[ln].Ev = all[from:len(all):len(all)]
		}
	}
	for ln := range tl.Lanes {
		k := trackOf[ln]
		j := 0
		for _, i := range tl.drawnOf(k) {
			if !tl.written[i] {
				continue
			}
			ev := &tl.Lanes[ln].Ev[j]
			j++
			if ev.Kind.IsDevice() {
				// its launch call (chain.Frames' launch)
				if launch := l.Launch[i]; launch >= 0 {
					ev.Link = tl.page[launch]
				}
			} else if p := l.Parent[i]; p >= 0 {
				ev.Link = tl.page[p]
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
