package gaps

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

func rawIsCPU(cat string) bool {
	switch cat {
	case "cpu_op", "Operator", "operator", "user_annotation", "python_function", "cuda_runtime", "Runtime", "runtime", "cuda_driver", "overhead", "Overhead":
		return true
	}
	return false
}

// TestCPUActiveReal: CPU active is non-zero and at most the span on every
// real trace with CPU ops and a GPU lane; without steps (the span is the
// GPU window) it equals the raw union of CPU events on the launching
// threads inside that window. The verdict of each trace is logged. Every
// trace with launched device work is checked, and the shared set holds at
// least 10 (a run whose subtests all skip fails).
func TestCPUActiveReal(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	checked := 0
	defer func() {
		if checked < 10 {
			t.Errorf("only %d shared traces with launched device work and CPU ops checked, want at least 10", checked)
		}
	}()
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name[:min(40, len(name))], func(t *testing.T) {
			evs := readRaw(t, f)
			streams := rawStreams(evs)
			threads := map[[2]string]bool{}
			lo, hi, any := int64(0), int64(0), false
			firstLaunch := int64(1<<63 - 1)
			for _, ops := range streams {
				for _, x := range ops {
					if x.launch != nil {
						threads[[2]string{x.launch.Pid, x.launch.Tid}] = true
						firstLaunch = min(firstLaunch, x.launch.Ts)
					}
					if !any || x.Ts < lo {
						lo = x.Ts
					}
					if !any || x.End > hi {
						hi = x.End
					}
					any = true
				}
			}
			hasSteps, hasCPU := false, false
			var cpu [][2]int64
			for _, x := range evs {
				if strings.HasPrefix(x.Name, "ProfilerStep#") && rawIsCPU(x.Cat) {
					hasSteps = true
					continue
				}
				if rawIsCPU(x.Cat) && x.Cat != "python_function" {
					hasCPU = true
				}
				if rawIsCPU(x.Cat) && threads[[2]string{x.Pid, x.Tid}] && x.End > x.Ts {
					cpu = append(cpu, [2]int64{x.Ts, x.End})
				}
			}
			if !any || len(threads) == 0 || !hasCPU {
				t.Skip("no GPU lane, or no launch calls / CPU ops")
			}
			checked++
			r := Analyze(load(t, f), Options{Device: -1, Stream: -1, Top: 3})
			v := r.Verdict
			t.Logf("%s: %s", v.Class, v.Headline)
			if v.CPUActiveNs <= 0 || v.CPUActiveNs > v.CPUWindowNs || v.CPUWindowNs < v.SpanNs {
				t.Errorf("CPU active %d ns, its window %d ns, span %d ns", v.CPUActiveNs, v.CPUWindowNs, v.SpanNs)
			}
			if !hasSteps {
				if firstLaunch < lo {
					lo = firstLaunch
				}
				if want := intersect(mergeIvs(cpu), ivs{{lo, hi}}); v.CPUActiveNs != want {
					t.Errorf("CPU active %d ns, raw union %d ns", v.CPUActiveNs, want)
				}
			}
			var sum int64
			for _, ns := range v.IdleByCause {
				sum += ns
			}
			if sum != v.IdleNs || v.IdleNs < 0 || v.BusyNs+v.IdleNs != v.SpanNs*int64(v.Devices) {
				t.Errorf("idle by cause sums to %d, idle %d, busy %d, span %d x %d", sum, v.IdleNs, v.BusyNs, v.SpanNs, v.Devices)
			}
		})
	}
}
