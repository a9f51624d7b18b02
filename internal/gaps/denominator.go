package gaps

import (
	"fmt"

	"github.com/tracetab/tracetab/internal/trace"
)

// denominator is the span idle time is measured over, and its name: the
// selected step windows, each extended to the end of the GPU work launched
// in it (by its launch call's start, an op without one by its own start),
// as the TensorBoard plugin's Overview does: the GPU lane runs behind.
// Without steps it is the GPU window, from the first op's start to the
// last op's end.
func denominator(allSteps, steps []trace.Step, devices []stream) (ivs, string) {
	if len(allSteps) == 0 {
		return gpuWindow(devices), "the GPU window"
	}
	end := make([]int64, len(steps))
	for k, s := range steps {
		end[k] = s.End
	}
	cur := trace.StepCursor{Steps: steps}
	for _, d := range devices {
		for _, x := range d.ops {
			lt := x.s
			if x.call >= 0 {
				lt = x.launch
			}
			if k := cur.At(lt); k >= 0 {
				end[k] = max(end[k], x.e)
			}
		}
	}
	w := make([][2]int64, 0, len(steps))
	for k, s := range steps {
		w = append(w, [2]int64{s.Start, end[k]})
	}
	name := fmt.Sprintf("the union of %d profiler steps, each to the end of the GPU work it launched", len(steps))
	if len(steps) == 1 {
		name = fmt.Sprintf("profiler step %d, to the end of the GPU work it launched", steps[0].N)
	}
	return mergeIvs(w), name
}

// gpuWindow is the devices' ops from the earliest start to the latest end
// (nil without ops).
func gpuWindow(devices []stream) ivs {
	if len(devices) == 0 {
		return nil
	}
	lo, hi := devices[0].at(0).s, int64(0)
	for _, d := range devices {
		lo = min(lo, d.at(0).s)
		for _, x := range d.ops {
			hi = max(hi, x.e)
		}
	}
	return ivs{{lo, hi}}
}

// cpuWindow is where CPU activity is measured: the span and, when the
// first launch call came before it (the GPU lane runs behind), from that
// call on.
func cpuWindow(span ivs, devices []stream) ivs {
	if firstLaunch := firstLaunchIn(devices); len(span) > 0 && firstLaunch < span[0][0] {
		return mergeIvs(append([][2]int64{{firstLaunch, span[0][0]}}, span...))
	}
	return span
}

// firstLaunchIn is the earliest launch call start of the ops (their own
// start when none has a launch call).
func firstLaunchIn(devices []stream) int64 {
	first := int64(1<<63 - 1)
	for _, d := range devices {
		for _, x := range d.ops {
			if x.call >= 0 {
				first = min(first, x.launch)
			} else {
				first = min(first, x.s)
			}
		}
	}
	return first
}
