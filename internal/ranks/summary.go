// Package ranks compares the traces of the ranks of one distributed job
// (one torch.profiler trace per rank): what each rank's device did, and
// which rank the others waited for in their collectives.
//
// Each trace is reduced to a Summary as soon as it is read (Summarize), so
// only one trace is in memory at a time; Compare then works on the
// summaries alone. All times are int64 nanoseconds.
package ranks

import (
	"cmp"
	"math"
	"path/filepath"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// Window names the denominator of a rank's device figures.
const (
	WindowSteps  = "steps"       // the union of the ProfilerStep#N windows, each extended to the end of the device work launched in it
	WindowDevice = "device work" // first to last device op: the trace has no steps
)

// epochNs is 2001-09-09 in ns since 1970: a trace whose times lie beyond
// it is on the wall clock (Kineto's epoch timestamps, or a relative trace
// with baseTimeNanoseconds); earlier times are relative to some start and
// cannot be compared across files.
const epochNs = int64(1_000_000_000) * 1_000_000_000

// Summary is one rank's trace reduced to what the comparison needs.
type Summary struct {
	Path string // as given
	File string // base name

	Rank         int64  // distributedInfo's rank, else the file's position
	RankFromFile bool   // the trace had no rank: Rank is the file's position
	WorldSize    int64  // distributedInfo's world_size; -1 when absent
	Backend      string // distributedInfo's backend; "" when absent

	Steps        []int64 // the ProfilerStep#N numbers, in time order
	StepStart    []int64 // each step's start, absolute ns (Base + ts)
	StepDur      []int64 // each step's CPU duration
	MedianStepNs int64   // median ProfilerStep CPU time; -1 without steps
	Origin       int64   // the trace's time origin (its Trace span, else its first event), absolute ns
	Device       string  // the name of the first device in deviceProperties; "" when absent

	HasGPU        bool   // the trace has kernels, memcpys or memsets
	Window        string // WindowSteps or WindowDevice; "" without GPU
	WindowNs      int64  // the length of Window
	ComputeNs     int64  // union of non-communication device work inside Window
	CommNs        int64  // union of communication kernels inside Window
	ExposedCommNs int64  // communication not overlapped by compute, inside Window
	IdleNs        int64  // Window minus the union of all device work
	// OverlapNs is the communication inside Window that ran while a
	// compute kernel ran (HTA's get_comm_comp_overlap: compute kernels are
	// the kernels that are not communication, memcpys and memsets apart).
	OverlapNs   int64
	CommKernels int // communication kernels in the whole trace
	// SizedOps are CPU ops that record a collective's size
	// (record_param_comms); SizedOpsNoKernel those of them that launched no
	// communication kernel in the trace.
	SizedOps, SizedOpsNoKernel int

	Colls []Coll // communication kernels in start order, for matching
	Epoch bool   // times are wall-clock times, comparable across hosts
}

// Coll is one communication kernel.
type Coll struct {
	Name   string
	PG     string // "Process Group Name" of the kernel; "" when absent
	Seq    int64  // "Seq" of the kernel; -1 when absent
	Step   int64  // the ProfilerStep#N its launch call ran in; -1 outside steps
	Start  int64  // absolute ns (baseTimeNanoseconds + ts)
	Dur    int64
	Launch int64 // its launch call's start, absolute ns; -1 when the call is not in the trace
	Size   Size  // what the kernel (or the op that launched it) records of its size
}

// End is Start + Dur.
func (c *Coll) End() int64 { return c.Start + c.Dur }

// Summarize reduces t to a Summary; pos is the file's 0-based position on
// the command line (the rank when the trace names none).
func Summarize(t *trace.Trace, pos int) *Summary {
	s := &Summary{Path: t.File, File: filepath.Base(t.File), Rank: int64(pos), WorldSize: -1, MedianStepNs: -1}
	if t.Dist.Present && t.Dist.Rank >= 0 {
		s.Rank = t.Dist.Rank
	} else {
		s.RankFromFile = true
	}
	if t.Dist.Present && t.Dist.WorldSize > 0 {
		s.WorldSize = t.Dist.WorldSize
	}
	s.Backend = t.Dist.Backend
	s.Origin = t.Base + t.TraceStart
	s.Epoch = s.Origin >= epochNs
	if len(t.Devices) > 0 {
		s.Device = t.Devices[0].Name
	}

	steps := t.StepWindows()
	durs := make([]int64, len(steps))
	// each step's window, extended to the end of the device work launched
	// in it (the denominator gaps uses)
	win := make([][2]int64, len(steps))
	for k, st := range steps {
		s.Steps = append(s.Steps, st.N)
		s.StepStart = append(s.StepStart, t.Base+st.Start)
		durs[k] = st.End - st.Start
		win[k] = [2]int64{st.Start, st.End}
	}
	s.StepDur = durs
	if len(durs) > 0 {
		s.MedianStepNs = stats.MedianNs(durs)
	}
	ls := t.LaunchSteps(steps)

	// the device ops' intervals, presized: grown by appending, their
	// copies were a fifth of Summarize's time (200 MB traces)
	n := 0
	for _, chunk := range t.Events.Chunks() {
		for ci := range chunk {
			if chunk[ci].Kind.IsDeviceWork() {
				n++
			}
		}
	}
	compute := make([]devIv, 0, n)
	var comm [][2]int64
	byCorr := map[int64]int{} // correlation id -> index in s.Colls
	// the name rule runs once per distinct name: 0 not asked, 1 comm, 2 not
	isComm := make([]uint8, len(t.Strings))
	i := -1
	for _, chunk := range t.Events.Chunks() {
		for ci := range chunk {
			i++
			e := &chunk[ci]
			if !e.Kind.IsDeviceWork() {
				continue
			}
			if summarizeOp(t, s, steps, ls, win, isComm, &compute, &comm, i, e) && e.Has(trace.FlagCorr) {
				byCorr[t.CorrOf(e)] = len(s.Colls) - 1
			}
		}
	}
	launches(t, s, byCorr)
	s.CommKernels = len(s.Colls)
	s.HasGPU = len(compute)+len(comm) > 0
	slices.SortStableFunc(s.Colls, func(a, b Coll) int { return cmp.Compare(a.Start, b.Start) })
	if s.HasGPU {
		deviceFigures(s, win, compute, comm)
	}
	return s
}

// summarizeOp adds device op i (e) to the step windows, the compute or
// communication intervals and, for a communication kernel, the Colls (it
// then returns true).
func summarizeOp(t *trace.Trace, s *Summary, steps []trace.Step, ls *trace.LaunchSteps, win [][2]int64, isComm []uint8,
	compute *[]devIv, comm *[][2]int64, i int, e *trace.Event) bool {
	iv := [2]int64{e.Start, e.End()}
	k := ls.Of(e)
	if k >= 0 {
		win[k][1] = max(win[k][1], iv[1])
	}
	if e.Kind == trace.KindKernel && isComm[e.Name] == 0 {
		isComm[e.Name] = 2
		if trace.IsCommKernel(t.Str(e.Name)) {
			isComm[e.Name] = 1
		}
	}
	if e.Kind != trace.KindKernel || isComm[e.Name] != 1 {
		*compute = append(*compute, devIv{iv, e.Kind == trace.KindKernel})
		return false
	}
	name := t.Str(e.Name)
	*comm = append(*comm, iv)
	c := Coll{Name: name, Seq: -1, Step: -1, Start: t.Base + e.Start, Dur: e.Dur, Launch: -1, Size: noSize}
	if k >= 0 {
		c.Step = steps[k].N
	}
	if a := t.AuxOf(i); a != nil {
		c.PG, c.Seq = t.Str(a.PG), a.Seq
		c.Size = sizeOf(t, a)
	}
	s.Colls = append(s.Colls, c)
	return true
}

// deviceFigures fills the device lane's figures over the rank's window:
// the union of its steps, or the device work window when it has none
// (first start to last end of its device ops, 0 long when they all last
// 0 ns).
func deviceFigures(s *Summary, steps [][2]int64, compute []devIv, comm [][2]int64) {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, x := range compute {
		lo, hi = min(lo, x.iv[0]), max(hi, x.iv[1])
	}
	for _, x := range comm {
		lo, hi = min(lo, x[0]), max(hi, x[1])
	}
	// one sort of the compute ops gives both their union and their
	// kernels' (a subset); the union of everything is that of the two
	// merged lists
	slices.SortFunc(compute, func(a, b devIv) int { return cmp.Compare(a.iv[0], b.iv[0]) })
	c := mergeSorted(compute, false)
	m := merge(comm)
	all := union(c, m)
	w := merge(steps)
	s.Window = WindowSteps
	if len(w) == 0 {
		s.Window = WindowDevice
		if hi > lo {
			w = [][2]int64{{lo, hi}}
		}
	}
	s.WindowNs = length(w)
	s.ComputeNs = overlap(c, w)
	s.CommNs = overlap(m, w)
	busy := overlap(all, w)
	s.ExposedCommNs = busy - s.ComputeNs
	s.IdleNs = s.WindowNs - busy
	s.OverlapNs = overlap(intersect(mergeSorted(compute, true), m), w)
}

// devIv is a compute op's interval, and whether the op is a kernel (not a
// memcpy or memset).
type devIv struct {
	iv     [2]int64
	kernel bool
}

// mergeSorted is merge of ivs (sorted by start), or of its kernels alone.
func mergeSorted(ivs []devIv, kernels bool) [][2]int64 {
	out := make([][2]int64, 0, len(ivs))
	for _, d := range ivs {
		if !kernels || d.kernel {
			out = extend(out, d.iv)
		}
	}
	return out
}

// union is merge of the intervals of a and b, two merged lists.
func union(a, b [][2]int64) [][2]int64 {
	out := make([][2]int64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var x [2]int64
		if j == len(b) || (i < len(a) && a[i][0] <= b[j][0]) {
			x, i = a[i], i+1
		} else {
			x, j = b[j], j+1
		}
		out = extend(out, x)
	}
	return out
}

// intersect is the intersection of two merged lists, merged.
func intersect(a, b [][2]int64) [][2]int64 {
	var out [][2]int64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
		if hi > lo {
			out = append(out, [2]int64{lo, hi})
		}
		if a[i][1] < b[j][1] {
			i++
		} else {
			j++
		}
	}
	return out
}

// merge returns the union of half-open intervals as sorted, disjoint
// intervals (ivs is sorted in place).
func merge(ivs [][2]int64) [][2]int64 {
	slices.SortFunc(ivs, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	var out [][2]int64
	for _, x := range ivs {
		out = extend(out, x)
	}
	return out
}

// extend adds x, the next interval by start, to out, a merged list: an
// empty or reversed x is left out, one that overlaps or touches the last
// interval lengthens it.
func extend(out [][2]int64, x [2]int64) [][2]int64 {
	if x[1] <= x[0] {
		return out
	}
	if n := len(out); n > 0 && x[0] <= out[n-1][1] {
		out[n-1][1] = max(out[n-1][1], x[1])
		return out
	}
	return append(out, x)
}

func length(a [][2]int64) (n int64) {
	for _, x := range a {
		n += x[1] - x[0]
	}
	return n
}

// overlap is the length of the intersection of two merged lists.
func overlap(a, b [][2]int64) (n int64) {
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
