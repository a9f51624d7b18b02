package metricnames

import "testing"

// TestBothDirections: every torch sort key reads as its short name and
// every short name with a torch key reads as that key.
func TestBothDirections(t *testing.T) {
	torchToShort := map[string]string{
		"self_cpu_time_total": "self_cpu", "cpu_time_total": "cpu_total", "cpu_time": "avg",
		"self_cuda_time_total": "self_cuda", "self_device_time_total": "self_cuda", "self_xpu_time_total": "self_cuda",
		"cuda_time_total": "cuda_total", "device_time_total": "cuda_total", "cuda_time": "cuda_avg", "device_time": "cuda_avg",
		"count": "count", "self_cpu_memory_usage": "self_cpu_mem", "self_cuda_memory_usage": "self_cuda_mem",
		"self_device_memory_usage": "self_cuda_mem", "cpu_memory_usage": "cpu_mem", "device_memory_usage": "cuda_mem",
	}
	for k, want := range torchToShort {
		if got := Short(k); got != want {
			t.Errorf("Short(%q) = %q, want %q", k, got, want)
		}
	}
	shortToTorch := map[string]string{
		"self_cpu": "self_cpu_time_total", "cpu_total": "cpu_time_total", "avg": "cpu_time", "cpu_avg": "cpu_time",
		"self_cuda": "self_cuda_time_total", "cuda_total": "cuda_time_total", "cuda_avg": "cuda_time",
		"count": "count", "calls": "count", "self_cpu_mem": "self_cpu_memory_usage", "self_cuda_mem": "self_cuda_memory_usage",
		"cpu_mem": "cpu_memory_usage", "cuda_mem": "cuda_memory_usage",
	}
	for s, want := range shortToTorch {
		if got, ok := Torch(s); !ok || got != want {
			t.Errorf("Torch(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"self_cuda_per_call", "self_cpu_per_call", "bogus", "gpu_idle_pct"} {
		if got, ok := Torch(s); ok {
			t.Errorf("Torch(%q) = %q: it has no torch sort key", s, got)
		}
	}
	if got := Short("gpu_idle_pct"); got != "gpu_idle_pct" {
		t.Errorf("a name with one spelling must stay as given, got %q", got)
	}
	// no spelling names two metrics
	seen := map[string]string{}
	for _, m := range Table {
		for _, s := range m.Spellings() {
			if prev, ok := seen[s]; ok && prev != m.Short {
				t.Errorf("%q names both %s and %s", s, prev, m.Short)
			}
			seen[s] = m.Short
		}
	}
}
