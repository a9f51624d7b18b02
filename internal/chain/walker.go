package chain

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// stepEv is one ProfilerStep#N event.
type stepEv struct {
	N          int64
	Ev         int32
	Start, End int64
}

// walker holds what every walk of one trace shares. Each array is linear
// in the number of events and built once, when first needed.
type walker struct {
	t     *trace.Trace
	l     *trace.Links
	steps []stepEv

	devPairs [][2]int32 // (launch call, device op), sorted
	fwdLand  map[[2]int64]int64
	fwdFrom  map[int64][2]int64

	self      []int64 // duration minus the children on the same track
	lastChild []int32 // last child in time order, -1 when none
	pos       []int32 // position of each event in its track's slice of l.Order
	stamp     []int32 // subtree membership for the current walk
	curStamp  int32
	topStart  []int32 // CSR per track over top: the top-level events of CPU tracks, in time order
	top       []int32
	topAll    []int32 // the same events of every track together, by start
}

func newWalker(t *trace.Trace) *walker {
	w := &walker{t: t, l: t.Links(), fwdLand: map[[2]int64]int64{}, fwdFrom: map[int64][2]int64{}}
	num := make([]int64, len(t.Strings))
	for id, s := range t.Strings {
		num[id] = -1
		if n, ok := trace.StepNumber(s); ok {
			num[id] = n
		}
	}
	i := int32(0)
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			if n := num[e.Name]; n >= 0 && (e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp) {
				w.steps = append(w.steps, stepEv{N: n, Ev: i, Start: e.Start, End: e.End()})
			}
			if r := w.l.Launch[i]; r >= 0 && e.Kind.IsDevice() {
				w.devPairs = append(w.devPairs, [2]int32{r, i})
			}
			i++
		}
	}
	slices.SortStableFunc(w.steps, func(a, b stepEv) int { return cmp.Compare(a.Start, b.Start) })
	slices.SortFunc(w.devPairs, func(a, b [2]int32) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	for _, f := range t.Flows {
		if f.Kind != trace.FlowFwdBwd {
			continue
		}
		if f.Phase == 'f' {
			w.fwdLand[[2]int64{int64(f.Track), f.Ts}] = f.ID
		} else if f.Phase == 's' {
			w.fwdFrom[f.ID] = [2]int64{int64(f.Track), f.Ts}
		}
	}
	return w
}

// stepAt is the index of the step whose window holds ts, or -1 (the
// latest-starting one when windows overlap).
func (w *walker) stepAt(ts int64) int {
	k, _ := slices.BinarySearchFunc(w.steps, ts, func(s stepEv, x int64) int { return cmp.Compare(s.Start, x+1) })
	for j := k - 1; j >= 0 && j >= k-2; j-- {
		if w.steps[j].Start <= ts && ts < w.steps[j].End {
			return j
		}
	}
	return -1
}

func (w *walker) stepNumAt(ts int64) int64 {
	if k := w.stepAt(ts); k >= 0 {
		return w.steps[k].N
	}
	return -1
}

// at is when instance i happened: a device op at its launch.
func (w *walker) at(i int32) int64 {
	if w.t.Ev(int(i)).Kind.IsDevice() {
		return w.t.LaunchTime(int(i))
	}
	return w.t.Ev(int(i)).Start
}

// launched lists the device ops launch call r launched, in file order.
func (w *walker) launched(r int32) [][2]int32 {
	lo, _ := slices.BinarySearchFunc(w.devPairs, r, func(p [2]int32, x int32) int { return cmp.Compare(p[0], x) })
	hi := lo
	for hi < len(w.devPairs) && w.devPairs[hi][0] == r {
		hi++
	}
	return w.devPairs[lo:hi]
}

// prepare builds the arrays of the down walk.
func (w *walker) prepare() {
	if w.self != nil {
		return
	}
	t, l := w.t, w.l
	n := t.NumEvents()
	w.self = make([]int64, n)
	w.lastChild = make([]int32, n)
	w.pos = make([]int32, n)
	w.stamp = make([]int32, n)
	for i := 0; i < n; i++ {
		w.self[i] = t.Ev(i).Dur
		w.lastChild[i] = -1
	}
	w.topStart = make([]int32, len(t.Tracks)+1)
	for k := range t.Tracks {
		ord := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		cpu := t.Tracks[k].Kind != trace.TrackDevice
		for j, i := range ord {
			w.pos[i] = int32(j)
			if !cpu {
				continue
			}
			if p := l.Parent[i]; p >= 0 {
				w.self[p] -= t.Ev(int(i)).Dur
				w.lastChild[p] = i
			} else if t.Ev(int(i)).Kind.IsCPU() {
				w.top = append(w.top, i)
			}
		}
		w.topStart[k+1] = int32(len(w.top))
	}
	w.topAll = slices.Clone(w.top)
	slices.SortStableFunc(w.topAll, func(a, b int32) int { return cmp.Compare(t.Ev(int(a)).Start, t.Ev(int(b)).Start) })
}

func (w *walker) newStamp() int32 {
	w.curStamp++
	return w.curStamp
}

// eventAt finds a CPU op on track tr starting at ts.
func (w *walker) eventAt(tr int32, ts int64) int32 {
	if tr < 0 || int(tr) >= len(w.t.Tracks) {
		return -1
	}
	ord := w.l.Order[w.l.TrackStart[tr]:w.l.TrackStart[tr+1]]
	k, _ := slices.BinarySearchFunc(ord, ts, func(i int32, v int64) int { return cmp.Compare(w.t.Ev(int(i)).Start, v) })
	for ; k < len(ord) && w.t.Ev(int(ord[k])).Start == ts; k++ {
		if e := w.t.Ev(int(ord[k])); e.Kind == trace.KindCPUOp {
			return ord[k]
		}
	}
	return -1
}

func (w *walker) backwardOf(i int32) string {
	if len(w.fwdLand) == 0 {
		return ""
	}
	e := w.t.Ev(int(i))
	id, ok := w.fwdLand[[2]int64{int64(e.Track), e.Start}]
	if !ok {
		return ""
	}
	from, ok := w.fwdFrom[id]
	if !ok {
		return ""
	}
	if f := w.eventAt(int32(from[0]), from[1]); f >= 0 {
		return w.t.NameOf(int(f))
	}
	return ""
}

func (w *walker) deviceOp(d int32) *DeviceOp {
	t := w.t
	e := t.Ev(int(d))
	tr := &t.Tracks[e.Track]
	op := &DeviceOp{Event: d, Name: t.NameOf(int(d)), Kind: e.Kind, Device: tr.Device, Stream: tr.Stream,
		Corr: t.CorrOf(e), HasCorr: e.Has(trace.FlagCorr),
		DurNs: e.Dur, StartNs: e.Start - t.TraceStart, Regs: -1, SharedMemB: -1, Bytes: -1}
	if r := w.l.Launch[d]; r >= 0 {
		op.HasLaunch = true
		op.QueueNs = e.Start - t.Ev(int(r)).Start
	}
	if a := t.AuxOf(int(d)); a != nil {
		if a.HasLaunch {
			g, b := a.Grid, a.Block
			op.Grid, op.Block = &g, &b
		}
		op.Regs, op.SharedMemB, op.Bytes = a.Regs, a.SharedMem, a.Bytes
	}
	return op
}

func (w *walker) id(x trace.ID) ID {
	if !x.IsStr {
		return ID{Num: x.Int, IsNum: true}
	}
	s := w.t.Str(x.Str)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return ID{Num: n, IsNum: true, Text: s}
	}
	return ID{Text: s}
}

func (w *walker) thread(i int32) Thread {
	tr := &w.t.Tracks[w.t.Ev(int(i)).Track]
	return Thread{Pid: w.id(tr.Pid), Tid: w.id(tr.Tid)}
}

// marks names the patterns the cheat sheet teaches.
func (w *walker) marks(i int32, prevSibling, parentName string, parentKind trace.Kind, devs [][2]int32) []string {
	t := w.t
	name := t.NameOf(int(i))
	kind := t.Ev(int(i)).Kind
	var m []string
	switch {
	case strings.HasPrefix(name, "cudaOccupancy") || strings.HasPrefix(name, "hipOccupancy"):
		m = append(m, "occupancy query: the library is picking a kernel variant")
	case kind.IsLaunch() && trace.IsBlockingCall(name):
		m = append(m, "blocking: the CPU waits for the GPU")
	}
	if kind.IsLaunch() && (strings.HasPrefix(prevSibling, "cudaOccupancy") || strings.HasPrefix(prevSibling, "hipOccupancy")) && isLaunch(name) {
		m = append(m, "launch after an occupancy query (GEMM-like)")
	}
	if trace.IsGraphLaunch(name) && len(devs) > 0 {
		m = append(m, "graph launch: one call, "+itoa(len(devs))+" device ops")
	}
	if kind.IsLaunch() && parentKind == trace.KindCPUOp && !isCopyOp(parentName) {
		for _, d := range devs {
			if t.Ev(int(d[1])).Kind == trace.KindMemcpy {
				m = append(m, "memcpy inside "+parentName+": a copy the user did not write")
				break
			}
		}
	}
	return m
}

func isCopyOp(name string) bool {
	switch name {
	case "aten::copy_", "aten::to", "aten::_to_copy", "aten::clone", "aten::contiguous":
		return true
	}
	return false
}

func isLaunch(name string) bool {
	return strings.Contains(name, "LaunchKernel") || strings.Contains(name, "GraphLaunch") ||
		strings.HasPrefix(name, "cuLaunch") || strings.Contains(name, "LaunchCooperativeKernel")
}
