package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestGapsLaunchesWithoutGPU: a trace whose CPU lane launches work but that
// holds no kernel, memcpy or memset is not called CPU-only; the verdict
// counts its launch calls (counted here from the raw JSON).
func TestGapsLaunchesWithoutGPU(t *testing.T) {
	shared := testenv.Shared(t)
	for _, c := range []struct{ file string }{
		{"HTA__cupti_profiler__benchmark_result_924719_1679055439_trace.json.gz"},
		{"HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"},
	} {
		path := filepath.Join(shared, "traces", c.file)
		launches, device := 0, 0
		for _, e := range readRawFile(t, path) {
			if e.Ph != "X" {
				continue
			}
			switch e.Cat {
			case "kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset":
				device++
			case "cuda_runtime", "cuda_driver", "Runtime":
				for _, w := range []string{"LaunchKernel", "LaunchCooperativeKernel", "GraphLaunch", "Memcpy", "Memset"} {
					if strings.Contains(e.Name, w) {
						launches++
						break
					}
				}
			}
		}
		if device != 0 {
			t.Fatalf("%s: %d device ops: not a trace without a GPU lane", c.file, device)
		}
		out, _, code := run(t, "gaps", path)
		if code != 0 {
			t.Fatalf("%s: exit %d", c.file, code)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		switch {
		case launches == 0 && !strings.Contains(first, "a CPU-only trace"):
			t.Errorf("%s: no launch call, verdict %q", c.file, first)
		case launches > 0 && (strings.Contains(first, "CPU-only") || !strings.Contains(first, fmt.Sprintf("%d launch call", launches))):
			t.Errorf("%s: %d launch calls in the raw events, verdict %q", c.file, launches, first)
		}
	}
}
