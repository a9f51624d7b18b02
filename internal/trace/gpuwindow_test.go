package trace

import "testing"

// TestFillGPU: hand-computed shares of GPU time.
func TestFillGPU(t *testing.T) {
	// step 1 [0,100) launches work that runs to 150; step 2 [120,200)
	// launches work [160,190); work launched outside the steps runs at
	// [195,205) on device 1. Two devices.
	steps := []Step{{N: 1, Start: 0, End: 100}, {N: 2, Start: 120, End: 200}}
	work := []DeviceWork{
		{Start: 10, End: 40, Device: 0, Step: 0},
		{Start: 130, End: 150, Device: 0, Step: 0}, // runs into step 2's CPU window
		{Start: 160, End: 190, Device: 0, Step: 1},
		{Start: 195, End: 205, Device: 1, Step: -1},
	}
	FillGPU(steps, work, 2)
	// step 1: window [0,150); step 2: [150,200) (the rest of [120,200))
	if steps[0].GPUWindowNs != 150 || steps[1].GPUWindowNs != 50 {
		t.Fatalf("windows %d, %d; want 150, 50", steps[0].GPUWindowNs, steps[1].GPUWindowNs)
	}
	// busy: step 1 = 30 + 20 on device 0; step 2 = 30 on device 0 + 5 on device 1 ([195,200))
	if steps[0].GPUBusyNs != 50 || steps[1].GPUBusyNs != 35 {
		t.Errorf("busy %d, %d; want 50, 35", steps[0].GPUBusyNs, steps[1].GPUBusyNs)
	}
	if steps[0].GPUIdleNs != 150*2-50 || steps[1].GPUIdleNs != 50*2-35 {
		t.Errorf("idle %d, %d", steps[0].GPUIdleNs, steps[1].GPUIdleNs)
	}
	// largest stretch without work on a device: step 1, device 1 idle all
	// 150; step 2, device 1 idle [150,195) = 45, device 0 [150,160) 10 and
	// [190,200) 10
	if steps[0].LargestGapNs != 150 || steps[1].LargestGapNs != 45 {
		t.Errorf("largest gaps %d, %d; want 150, 45", steps[0].LargestGapNs, steps[1].LargestGapNs)
	}
	for _, s := range steps {
		if s.GPUBusyNs+s.GPUIdleNs != s.GPUWindowNs*int64(s.Devices) {
			t.Errorf("step %d: busy + idle != window x devices", s.N)
		}
	}
}

// TestFillGPUNested: a window inside an earlier one has no share of its
// own; nothing is counted twice.
func TestFillGPUNested(t *testing.T) {
	steps := []Step{{N: 1, Start: 0, End: 100}, {N: 2, Start: 10, End: 50}, {N: 3, Start: 120, End: 130}}
	work := []DeviceWork{{Start: 0, End: 200, Device: 0, Step: 0}}
	FillGPU(steps, work, 1)
	want := []int64{200, 0, 0}
	for k, s := range steps {
		if s.GPUWindowNs != want[k] || s.GPUBusyNs != want[k] || s.GPUIdleNs != 0 {
			t.Errorf("step %d: window %d busy %d idle %d, want %d %d 0", s.N, s.GPUWindowNs, s.GPUBusyNs, s.GPUIdleNs, want[k], want[k])
		}
	}
}
