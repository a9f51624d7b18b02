package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestDeviceBudgetsWithoutGPU: on a real trace with no GPU lane, every
// budget or rule on a device metric is n/a with the reason and fails
// (exit 1), never PASS at 0; --allow-missing makes it a warning (exit 0).
func TestDeviceBudgetsWithoutGPU(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
	// the raw events: no device activity and no event on a device lane
	gpuCats := map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true,
		"cuda_sync": true, "gpu_user_annotation": true, "cuda_profiler_range": true, "xpu_kernel": true, "xpu_memcpy": true,
		"xpu_memset": true, "mtia_ccp_events": true}
	evs := readRawFile(t, path)
	cpuOps := 0
	for _, e := range evs {
		_, dev := e.Arg("device")
		_, stream := e.Arg("stream")
		if gpuCats[e.Cat] || dev || stream {
			t.Fatalf("the trace has device activity (%s %q): the test needs one without", e.Cat, e.Name)
		}
		if e.Cat == "cpu_op" {
			cpuOps++
		}
	}
	if cpuOps == 0 {
		t.Fatal("the trace has no cpu_op: the CPU side must be measured")
	}
	const reason = "the trace has no device ops"
	for _, b := range [][]string{
		{"--max-gpu-idle", "40"},
		{"--max-gpu-idle", "40", "--no-normalize"},
		{"--max-gpu-idle", "40", "--by", "kernel"},
		{"--max", "total.gpu_busy=1ms"},
		{"--max", "total.gpu_idle=1ms"},
		{"--max", "total.self_cuda=1ms"},
		{"--max", "self_cuda=1ms"},
		{"--max", "cuda_total=1ms"},
		{"--max", "cuda_avg=1ms"},
		{"--max", "self_cuda_per_call@^aten::=1us"},
		{"--max", "self_cuda_time_total=1ms"},
		{"--max", "self_cuda=1ms", "--by", "kernel"},
	} {
		args := append([]string{"check", path}, b...)
		out, stderr, code := run(t, args...)
		first, _, _ := strings.Cut(out, "\n")
		if code != ExitCheck || !strings.HasPrefix(first, "FAIL") || !strings.Contains(out, "n/a") || !strings.Contains(out, reason) {
			t.Errorf("%v: exit %d, want %d with n/a and %q:\n%s%s", b, code, ExitCheck, reason, out, stderr)
		}
		if strings.Contains(out, "PASS") || strings.Contains(out, "0.00%") {
			t.Errorf("%v: an unmeasured device metric must not pass or show 0:\n%s", b, out)
		}
		out, _, code = run(t, append(args, "--format", "json")...)
		var doc struct {
			Failed  bool `json:"failed"`
			Budgets []map[string]any
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Budgets) != 1 {
			t.Fatalf("%v json: %v %s", b, err, out)
		}
		bj := doc.Budgets[0]
		reasonJ, _ := bj["reason"].(string)
		if code != ExitCheck || !doc.Failed || bj["result"] != "n/a" || bj["passed"] != false || !strings.Contains(reasonJ, reason) {
			t.Errorf("%v json: exit %d %v", b, code, bj)
		}
		for k, v := range bj {
			if strings.HasPrefix(k, "value_") && v != nil {
				t.Errorf("%v json: %s is %v, want null", b, k, v)
			}
		}
		out, stderr, code = run(t, append(args, "--allow-missing")...)
		if code != 0 || !strings.Contains(stderr, "warning: n/a") || !strings.Contains(stderr, reason) {
			t.Errorf("%v --allow-missing: exit %d, want 0 and a warning:\n%s%s", b, code, out, stderr)
		}
	}
	// the CPU side is measured: a CPU budget is not n/a
	if out, _, code := run(t, "check", path, "--max", "self_cpu=100s"); code != 0 || !strings.HasPrefix(out, "PASS") {
		t.Errorf("a CPU budget on the CPU-only trace: exit %d\n%s", code, out)
	}
	// diff: a device metric's cells are n/a (null in JSON), not 0
	out, _, _ := run(t, "diff", path, path, "--metric", "self_cuda")
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && (f[0] == "ProfilerStep*" || strings.HasPrefix(f[0], "aten::")) {
			rows++
			if f[1] != "n/a" || f[2] != "n/a" {
				t.Errorf("diff --metric self_cuda on a CPU-only trace: want n/a cells: %q", line)
			}
		}
	}
	if rows == 0 {
		t.Errorf("diff: no op rows found:\n%s", out)
	}
	// diff: a device rule on the pair is n/a and fails too
	for _, rule := range []string{"total.gpu_idle_pct>1", "total.gpu_idle>1ms", "self_cuda>10%"} {
		out, stderr, code := run(t, "diff", path, path, "--fail-on", rule)
		if code != ExitCheck || !strings.Contains(out, "n/a ["+rule+"]") || !strings.Contains(out, reason) {
			t.Errorf("diff --fail-on %s: exit %d, want %d with n/a and %q:\n%s%s", rule, code, ExitCheck, reason, out, stderr)
		}
	}
}
