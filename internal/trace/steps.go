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

	Kernels   int // kernels launched from the step
	DeviceOps int // kernels, memcpys and memsets launched from the step

	// The step's share of GPU time, by the one definition (FillGPU): its
	// GPU window (from its start to its end or the later end of the work
	// it launched, less what an earlier step's window covers), the device
	// work inside it summed over the devices, and the rest of window x
	// devices: GPUBusyNs + GPUIdleNs = GPUWindowNs * Devices.
	GPUWindowNs  int64
	GPUFrom      int64 // the window: [GPUFrom, GPUFrom+GPUWindowNs), ns as written
	GPUBusyNs    int64
	GPUIdleNs    int64
	Devices      int   // the devices the idle time is counted on
	LargestGapNs int64 // the longest stretch of the window with no work on a device
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

// StepCursor answers StepAt for times that mostly come in order: it
// remembers where the last answer was and searches only when the time
// moved to another step. Over a trace's events in file order (each
// track's mostly in time order) it replaces a binary search per event
// (export: some 37 ms of CPU on a 200 MB trace of 1,377 steps; gaps' step
// lanes and denominator).
type StepCursor struct {
	Steps []Step
	k     int // the first step starting after the last time asked, as StepAt finds it
}

// At is StepAt(c.Steps, ts).
func (c *StepCursor) At(ts int64) int {
	st := c.Steps
	k := c.k
	// k is right when every step before it starts at or before ts and the
	// step at k starts after it.
	if !(k <= len(st) && (k == 0 || st[k-1].Start <= ts) && (k == len(st) || st[k].Start > ts)) {
		if k < len(st) && st[k].Start <= ts && (k+1 == len(st) || st[k+1].Start > ts) {
			k++
		} else {
			k, _ = slices.BinarySearchFunc(st, ts, func(s Step, x int64) int { return cmp.Compare(s.Start, x+1) })
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

// LaunchTime is when device op i was launched: its launch call's start, or
// its own start when the trace has no launch call for it.
func (t *Trace) LaunchTime(i int) int64 {
	if r := t.Links().Launch[i]; r >= 0 {
		return t.Ev(int(r)).Start
	}
	return t.Ev(i).Start
}

// Steps returns the profiler steps with the device work launched from
// each (a device op belongs to the step holding its launch time) and their
// share of GPU time (FillGPU). keep, when set, selects the device ops that
// count.
func (t *Trace) Steps(keep func(i int) bool) []Step {
	steps := t.StepWindows()
	MarkCold(steps)
	return t.stepsOf(steps, keep)
}

// StepsRange is Steps for the steps numbered lo to hi alone, as gaps
// selects them: their windows share the GPU time, and only the device work
// launched in them counts (the cold mark is still among all the steps).
func (t *Trace) StepsRange(lo, hi int64) []Step {
	steps := t.StepWindows()
	MarkCold(steps)
	steps = slices.DeleteFunc(steps, func(s Step) bool { return s.N < lo || s.N > hi })
	return t.stepsOf(steps, func(i int) bool { return StepAt(steps, t.LaunchTime(i)) >= 0 })
}

func (t *Trace) stepsOf(steps []Step, keep func(i int) bool) []Step {
	var work []DeviceWork
	devs := map[int]bool{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		k := StepAt(steps, t.LaunchTime(i))
		if k >= 0 {
			steps[k].DeviceOps++
			if e.Kind == KindKernel {
				steps[k].Kernels++
			}
		}
		d := t.Tracks[e.Track].Device
		devs[d] = true
		if len(steps) > 0 {
			work = append(work, DeviceWork{Start: e.Start, End: e.End(), Device: int32(d), Step: int32(k)})
		}
	}
	FillGPU(steps, work, len(devs))
	return steps
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
