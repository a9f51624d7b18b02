package trace

import (
	"cmp"
	"slices"
)

// DeviceWork is one kernel, memcpy or memset for the GPU-window
// accounting: its interval, its device, and the step its launch call ran
// in (-1 outside every step).
type DeviceWork struct {
	Start, End int64
	Device     int32
	Step       int32
}

// FillGPU sets each step's GPU figures by the one definition of GPU idle
// (docs/output.md, "GPU idle"), the same the gaps verdict takes over the
// union of the steps:
//
//  1. A step's GPU window runs from its start to its end or, when later,
//     to the end of the device work launched in it (the GPU lane runs
//     behind the CPU).
//  2. The part of a window that an earlier step's window already covers
//     belongs to that earlier step: the steps' shares are disjoint and add
//     up to the union of the windows, the verdict's denominator.
//  3. GPUBusyNs is the device work inside the step's share, whichever step
//     launched it, summed over the devices; GPUIdleNs is the share times
//     the number of devices less that. Summed over the steps they are the
//     verdict's busy and idle time.
//
// Kernels and DeviceOps count the work launched in the step. work is
// sorted in place; devices is the number of devices the idle time is
// counted on (those with work in the trace or the selection).
func FillGPU(steps []Step, work []DeviceWork, devices int) {
	for k := range steps {
		steps[k].GPUFrom, steps[k].GPUWindowNs, steps[k].GPUBusyNs, steps[k].GPUIdleNs, steps[k].LargestGapNs = 0, 0, 0, 0, 0
		steps[k].Devices = devices
	}
	if len(steps) == 0 {
		return
	}
	ends := make([]int64, len(steps))
	for k, s := range steps {
		ends[k] = s.End
	}
	for _, w := range work {
		if w.Step >= 0 {
			ends[w.Step] = max(ends[w.Step], w.End)
		}
	}
	// each step's share [lo, hi): the steps come by start, so what an
	// earlier window covers of a later one is [its start, the largest end
	// so far]
	share := make([][2]int64, len(steps))
	reach := int64(-1 << 62)
	for k, s := range steps {
		lo := max(s.Start, reach)
		hi := max(lo, ends[k])
		share[k] = [2]int64{lo, hi}
		steps[k].GPUFrom, steps[k].GPUWindowNs = lo, hi-lo
		reach = max(reach, ends[k])
	}
	// per device: the union of its work, swept against the shares (the
	// shares are disjoint and increasing)
	slices.SortFunc(work, func(a, b DeviceWork) int {
		if c := cmp.Compare(a.Device, b.Device); c != 0 {
			return c
		}
		return cmp.Compare(a.Start, b.Start)
	})
	for i := 0; i < len(work); {
		j := i
		for j < len(work) && work[j].Device == work[i].Device {
			j++
		}
		sweepDevice(steps, share, work[i:j])
		i = j
	}
	for k := range steps {
		steps[k].GPUIdleNs = steps[k].GPUWindowNs*int64(devices) - steps[k].GPUBusyNs
	}
}

// sweepDevice adds one device's busy time in each share, and the longest
// stretch inside a share with no work of this device.
func sweepDevice(steps []Step, share [][2]int64, work []DeviceWork) {
	k := 0
	add := func(s, e int64) { // a busy run [s, e), runs in increasing order
		for k < len(share) && share[k][1] <= s {
			k++
		}
		for j := k; j < len(share) && share[j][0] < e; j++ {
			if o := min(e, share[j][1]) - max(s, share[j][0]); o > 0 {
				steps[j].GPUBusyNs += o
			}
		}
	}
	// the idle stretches of this device, clipped to each share
	idle := func(s, e int64) {
		for j := k; j < len(share) && share[j][0] < e; j++ {
			if o := min(e, share[j][1]) - max(s, share[j][0]); o > steps[j].LargestGapNs {
				steps[j].LargestGapNs = o
			}
		}
	}
	prevEnd := int64(-1 << 62)
	cs, ce := work[0].Start, work[0].End
	flush := func() {
		idle(max(prevEnd, share[0][0]), cs)
		add(cs, ce)
		prevEnd = ce
	}
	for _, w := range work[1:] {
		if w.Start > ce {
			flush()
			cs, ce = w.Start, w.End
		} else if w.End > ce {
			ce = w.End
		}
	}
	flush()
	idle(prevEnd, share[len(share)-1][1])
}
