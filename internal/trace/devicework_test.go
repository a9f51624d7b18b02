package trace

import "testing"

// TestHasDeviceWork: a kernel, memcpy or memset (under any category
// spelling KindOf knows) is device work; CPU ops, runtime calls, GPU
// annotations and syncs are not, nor is an empty trace.
func TestHasDeviceWork(t *testing.T) {
	with := func(cats ...string) *Trace {
		tr := &Trace{}
		for _, c := range cats {
			tr.Events.Append(Event{Kind: KindOf(c), Dur: 1})
		}
		return tr
	}
	none := []string{"cpu_op", "cuda_runtime", "user_annotation", "gpu_user_annotation", "cuda_sync", "Trace", "python_function"}
	if with().HasDeviceWork() || with(none...).HasDeviceWork() {
		t.Errorf("no device work in %q, yet HasDeviceWork", none)
	}
	for _, c := range []string{"kernel", "Kernel", "xpu_kernel", "mtia_ccp_events", "gpu_memcpy", "Memcpy", "xpu_memcpy", "gpu_memset", "Memset", "xpu_memset"} {
		if !with(append(none, c)...).HasDeviceWork() {
			t.Errorf("%q is device work, HasDeviceWork says none", c)
		}
	}
}
