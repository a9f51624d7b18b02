package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestSortKeysAndShortNames: torch's sort keys and the short metric names
// are the same metrics in every command: table --sort and --columns take
// the short names, diff --metric/--fail-on and check --max/budget files
// take torch's keys, and each spelling gives the same output as the other.
func TestSortKeysAndShortNames(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	dir := filepath.Join(testenv.Shared(t), "traces")
	p0 := filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz")
	p1 := filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz")
	same := func(what string, a, b []string, wantCode int, replace ...string) string {
		t.Helper()
		outA, errA, codeA := run(t, a...)
		outB, errB, codeB := run(t, b...)
		if len(replace) == 2 {
			outB, errB = strings.ReplaceAll(outB, replace[0], replace[1]), strings.ReplaceAll(errB, replace[0], replace[1])
		}
		if codeA != wantCode || codeB != wantCode {
			t.Errorf("%s: exit %d and %d, want %d: %s %s", what, codeA, codeB, wantCode, errA, errB)
		}
		if outA != outB || errA != errB {
			t.Errorf("%s: the two spellings differ:\n%v\n%s\n%v\n%s", what, a, outA, b, outB)
		}
		return outA
	}
	for _, tr := range []string{sample, p1} {
		sorted := same("table --sort", []string{"table", tr, "--sort", "self_cuda_time_total"}, []string{"table", tr, "--sort", "self_cuda"}, 0)
		if def, _, _ := run(t, "table", tr); def == sorted {
			t.Errorf("%s: --sort self_cuda left the default order: the test would not see the sort", tr)
		}
		same("table --sort cpu_total", []string{"table", tr, "--sort", "cpu_time_total", "--format", "json"}, []string{"table", tr, "--sort", "cpu_total", "--format", "json"}, 0)
		same("table --columns", []string{"table", tr, "--columns", "self_cuda_time_total,count,cpu_time"}, []string{"table", tr, "--columns", "self_cuda,calls,avg"}, 0)
	}
	if _, stderr, code := run(t, "table", sample, "--sort", "self_cuda_per_call"); code != ExitUsage || !strings.Contains(stderr, "no sort key") {
		t.Errorf("--sort self_cuda_per_call: exit %d %q; want a usage error saying torch has no such key", code, stderr)
	}

	// diff: the rule fails on this pair (one step each: the thresholds decide)
	out := same("diff --fail-on", []string{"diff", p0, p1, "--metric", "self_cuda,count", "--fail-on", "self_cuda>5%&5us", "--fail-on", "total.self_cuda>1%"},
		[]string{"diff", p0, p1, "--metric", "self_cuda_time_total,calls", "--fail-on", "self_cuda_time_total>5%&5us", "--fail-on", "total.self_cuda_time_total>1%"}, ExitCheck,
		"self_cuda_time_total>", "self_cuda>")
	if !strings.Contains(out, "- [self_cuda>5%&5us] ") || !strings.Contains(out, "- [total.self_cuda>1%] ") {
		t.Errorf("diff: want violations of both rules:\n%s", out)
	}

	// check: the same value under both spellings, in flags and in a file
	value := func(args ...string) (string, int64) {
		t.Helper()
		out, stderr, code := run(t, append([]string{"check", p1, "--format", "json"}, args...)...)
		var doc struct {
			Budgets []struct {
				Result  string `json:"result"`
				Metric  string `json:"metric"`
				ValueNs *int64 `json:"value_ns"`
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Budgets) != 1 || doc.Budgets[0].ValueNs == nil {
			t.Fatalf("check %v: exit %d %v %s %s", args, code, err, out, stderr)
		}
		b := doc.Budgets[0]
		return b.Result + " " + b.Metric, *b.ValueNs
	}
	r1, v1 := value("--max", "self_cuda@^record_param_comms$=1ms")
	r2, v2 := value("--max", "self_cuda_time_total@^record_param_comms$=1ms")
	budget := filepath.Join(t.TempDir(), "budget.yaml")
	if err := os.WriteFile(budget, []byte("budgets:\n  - metric: self_device_time_total\n    match: ^record_param_comms$\n    max: 1ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r3, v3 := value("--budget", budget)
	if r1 != "FAIL self_cuda" || v1 <= 1e6 || r2 != r1 || v2 != v1 || r3 != r1 || v3 != v1 {
		t.Errorf("check: %s %d, %s %d, %s %d; want the same FAIL of self_cuda over 1ms for all three spellings", r1, v1, r2, v2, r3, v3)
	}
	for _, args := range [][]string{{"diff", p0, p1, "--metric", "bogus"}, {"check", p1, "--max", "bogus=1ms"}, {"diff", p0, p1, "--fail-on", "bogus>1%"}} {
		if _, stderr, code := run(t, args...); code != ExitUsage || !strings.Contains(stderr, "self_cuda_time_total") {
			t.Errorf("%v: exit %d %q; want a usage error naming both spellings", args, code, stderr)
		}
	}
}
