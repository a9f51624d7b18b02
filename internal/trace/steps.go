package trace

import (
	"cmp"
	"slices"
)

// Step is one ProfilerStep#N annotation: its CPU window, and the device
// work launched from inside it.
type Step struct {
	N          int64
	Start, End int64 // the annotation's CPU window (ns, as written)

	Kernels      int   // kernels launched from the step
	DeviceOps    int   // kernels, memcpys and memsets launched from the step
	GPUBusyNs    int64 // union of that device work
	GPUSpanNs    int64 // its first start to last end
	LargestGapNs int64 // the longest idle stretch inside that span
	Cold         bool  // much longer than the median step (warm-up, cold start)
}

// StepWindows returns the ProfilerStep#N annotations sorted by start,
// without their device work. They are found once per trace (safely from
// several goroutines); each call returns its own copy to change at will.
func (t *Trace) StepWindows() []Step {
	t.stepOnce.Do(func() { t.stepCache = findSteps(t) })
	return slices.Clone(t.stepCache)
}

func findSteps(t *Trace) []Step {
	// step number per name, looked up once per distinct name
	num := make([]int64, len(t.Strings))
	for id, s := range t.Strings {
		num[id] = -1
		if n, ok := StepNumber(s); ok {
			num[id] = n
		}
	}
	var w []Step
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			if n := num[e.Name]; n >= 0 && (e.Kind == KindAnnotation || e.Kind == KindCPUOp) {
				w = append(w, Step{N: n, Start: e.Start, End: e.End()})
			}
		}
	}
	slices.SortFunc(w, func(a, b Step) int { return cmp.Compare(a.Start, b.Start) })
	if w == nil {
		w = []Step{}
	}
	return w
}

// StepAt returns the index of the step whose window holds ts, or -1.
func StepAt(steps []Step, ts int64) int {
	k, _ := slices.BinarySearchFunc(steps, ts, func(s Step, x int64) int { return cmp.Compare(s.Start, x+1) })
	for j := k - 1; j >= 0 && j >= k-2; j-- {
		if steps[j].Start <= ts && ts < steps[j].End {
			return j
		}
	}
	return -1
}

// LaunchTime is when device op i was launched: its launch call's start, or
// its own start when the trace has no launch call for it.
func (t *Trace) LaunchTime(i int) int64 {
	if r := t.Links().Launch[i]; r >= 0 {
		return t.Ev(int(r)).Start
	}
	return t.Ev(i).Start
}

// Steps returns the profiler steps with the device work launched from
// each (a device op belongs to the step holding its launch time). keep,
// when set, selects the device ops that count.
func (t *Trace) Steps(keep func(i int) bool) []Step {
	steps := t.StepWindows()
	work := make([][][2]int64, len(steps))
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		k := StepAt(steps, t.LaunchTime(i))
		if k < 0 {
			continue
		}
		steps[k].DeviceOps++
		if e.Kind == KindKernel {
			steps[k].Kernels++
		}
		work[k] = append(work[k], [2]int64{e.Start, e.End()})
	}
	for k := range steps {
		steps[k].SetDeviceWork(work[k])
	}
	MarkCold(steps)
	return steps
}

// SetDeviceWork fills the step's GPU busy time, span and largest gap from
// the intervals of the device work launched in it (sorted in place).
func (s *Step) SetDeviceWork(w [][2]int64) {
	busy, lo, hi := Union(w) // sorts w
	s.GPUBusyNs, s.GPUSpanNs = busy, hi-lo
	if len(w) > 1 {
		end := w[0][1]
		for _, x := range w[1:] {
			if x[0] > end {
				s.LargestGapNs = max(s.LargestGapNs, x[0]-end)
			}
			end = max(end, x[1])
		}
	}
}

// MarkCold flags the first step as cold when it is much longer than the
// median step (warm-up, a cold start); it needs three steps or more.
func MarkCold(steps []Step) {
	if len(steps) < 3 {
		return
	}
	cpu := make([]int64, len(steps))
	for k, s := range steps {
		cpu[k] = s.End - s.Start
	}
	slices.Sort(cpu)
	steps[0].Cold = steps[0].End-steps[0].Start > cpu[len(cpu)/2]*3/2
}
