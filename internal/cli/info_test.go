package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestInfoOrigin: a device op before the profiler's Trace event has a
// negative offset in JSON and is "before the origin" in text; the span
// covers it; occupancy queries and syncs are not launch calls.
func TestInfoOrigin(t *testing.T) {
	p := miniTrace(t,
		"Trace PyTorch_Profiler 1 100 1000 0",
		"cuda_runtime cudaOccupancyMaxActiveBlocksPerMultiprocessor 1 110 2 0",
		"cuda_runtime cudaLaunchKernel 1 120 5 7",
		"cuda_runtime cudaDeviceSynchronize 1 130 50 0",
		"kernel early 7 40 20 99",
		"kernel k 7 150 20 7")
	var in struct {
		Origin      string `json:"origin"`
		SpanStartNs int64  `json:"span_start_ns"`
		SpanNs      int64  `json:"span_ns"`
		Runtime     int    `json:"runtime_calls"`
		Launch      int    `json:"launch_calls"`
		Devices     []struct {
			WorkStartNs *int64 `json:"work_start_ns"`
		} `json:"devices"`
	}
	runJSON(t, &in, "info", "--format", "json", p)
	if in.Origin != "trace_span" || in.SpanStartNs != -60000 || in.SpanNs != 1060000 {
		t.Errorf("origin %s span start %d span %d; want trace_span -60000 1060000", in.Origin, in.SpanStartNs, in.SpanNs)
	}
	if len(in.Devices) != 1 || in.Devices[0].WorkStartNs == nil || *in.Devices[0].WorkStartNs != -60000 {
		t.Errorf("device work start: %+v", in.Devices)
	}
	if in.Runtime != 3 || in.Launch != 1 {
		t.Errorf("runtime calls %d launch calls %d; want 3 and 1", in.Runtime, in.Launch)
	}
	out, _, _ := run(t, "info", p)
	for _, w := range []string{"device work from 60.000us before the origin to 70.000us", "span        1.060ms: 60.000us before the origin to 1.000ms",
		"1 launch call (", "2 other runtime calls", "device ops  2: 1 linked to their launch call, 1 unlinked"} {
		if !strings.Contains(out, w) {
			t.Errorf("info lacks %q:\n%s", w, out)
		}
	}
	if regexp.MustCompile(`[ (]-[0-9]`).MatchString(out) {
		t.Errorf("a negative offset printed with a minus sign:\n%s", out)
	}
}

// TestInfoLaunchesWithoutGPU: launch calls and no device events is not a
// CPU-only trace.
func TestInfoLaunchesWithoutGPU(t *testing.T) {
	p := miniTrace(t, "cpu_op aten::mm 1 0 100 0 1", "cuda_runtime cudaLaunchKernel 1 10 5 7")
	out, _, code := run(t, "info", p)
	if code != 0 || !strings.Contains(out, "1 launch call but no GPU activity") || strings.Contains(out, "CPU-only") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	p = miniTrace(t, "cpu_op aten::add 1 0 100 0 1")
	if out, _, _ := run(t, "info", p); !strings.Contains(out, "no GPU lane and no launch call (a CPU-only trace)") {
		t.Errorf("CPU-only trace:\n%s", out)
	}
}
