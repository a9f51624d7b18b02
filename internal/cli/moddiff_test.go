package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/testtrace"
)

// modTraceFile writes a trace of steps profiler steps of a small model
// (integer microseconds): Model_0 holds Encoder_0 (Linear_1 of linUs with
// a kernel of linUs*2/5, then Norm_0) and Decoder_0 (Norm_0 again, the
// same instance under another parent; with dropout, Dropout_0 too).
// Without modules the frames are plain Python functions.
func modTraceFile(t *testing.T, name string, steps, linUs int, dropout, modules bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, testtrace.SmallModel(steps, linUs, dropout, modules), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type modDiffRow struct {
	diffRowDoc
	Module string  `json:"module"`
	Parent *string `json:"parent"`
}

func modDiff(t *testing.T, args ...string) ([]modDiffRow, string, int) {
	t.Helper()
	out, stderr, code := run(t, append([]string{"diff", "--by", "module", "--format", "json", "--limit", "-1"}, args...)...)
	var d struct {
		By   string       `json:"by"`
		Rows []modDiffRow `json:"rows"`
	}
	if code == ExitOK || code == ExitCheck {
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if d.By != "module" {
			t.Errorf("by %q", d.By)
		}
		if v := contractViolations([]byte(out)); len(v) > 0 {
			t.Errorf("the output contract: %s", strings.Join(v, "; "))
		}
	}
	return d.Rows, stderr, code
}

// TestModuleDiffConstructed: NEW's Linear_1 is 30% slower over 10 steps.
func TestModuleDiffConstructed(t *testing.T) {
	const steps, baseUs, newUs = 10, 100, 130
	a := modTraceFile(t, "a.json", steps, baseUs, false, true)
	b := modTraceFile(t, "b.json", steps, newUs, true, true)
	rows, stderr, code := modDiff(t, a, b)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	by := map[string]modDiffRow{}
	for _, r := range rows {
		by[r.Module] = r
		if r.Key != r.Module {
			t.Errorf("key %q, module %q", r.Key, r.Module)
		}
	}
	lin, ok := by["Model_0/Encoder_0/Linear_1"]
	if !ok {
		t.Fatalf("no Linear_1 row in %v", rows)
	}
	if lin.Parent == nil || *lin.Parent != "Model_0/Encoder_0" || lin.Status != "" {
		t.Errorf("Linear_1: parent %v, status %q", lin.Parent, lin.Status)
	}
	if m := by["Model_0"]; m.Parent != nil {
		t.Errorf("Model_0's parent %q, want null", *m.Parent)
	}
	for metric, want := range map[string][2]int64{
		"cpu_total":  {baseUs * 1000, newUs * 1000},
		"cuda_total": {baseUs * 2 / 5 * 1000, newUs * 2 / 5 * 1000},
		"count":      {1, 1},
	} {
		c := lin.Metrics[metric]
		u := "ns"
		if metric == "count" {
			u = "count"
		}
		if jnum(c["base_"+u]) != float64(want[0]) || jnum(c["new_"+u]) != float64(want[1]) || jnum(c["delta_"+u]) != float64(want[1]-want[0]) {
			t.Errorf("Linear_1 %s: %v, want %d -> %d", metric, c, want[0], want[1])
		}
		if int(jnum(c["base_samples_count"])) != steps || int(jnum(c["new_samples_count"])) != steps {
			t.Errorf("Linear_1 %s: samples %v+%v, want %d each", metric, c["base_samples_count"], c["new_samples_count"], steps)
		}
	}
	if c := lin.Metrics["cpu_total"]; jnum(c["delta_pct"]) != 30 || c["verdict"] != "changed" {
		t.Errorf("Linear_1 cpu_total: %v", c)
	}
	if d := by["Model_0/Decoder_0/Dropout_0"]; d.Status != "added" {
		t.Errorf("Dropout_0: %+v", d)
	}

	// the text view names the module rows and fits its width
	out, _, code := run(t, "diff", a, b, "--by", "module", "--width", "80")
	if code != ExitOK || !strings.Contains(out, "Linear_1") || !strings.Contains(out, "added") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	for i, l := range strings.Split(out, "\n") {
		if layout.Width(l) > 80 {
			t.Errorf("text line %d is wider than 80: %q", i+1, l)
		}
	}

	// rules: a 10% threshold on the slower module fails, on another passes
	for match, want := range map[string]int{"Linear_1": ExitCheck, "Model_0/Encoder_0/Linear_1": ExitCheck, "Decoder_0": ExitOK, "Model_0": ExitOK} {
		if _, stderr, code := run(t, "diff", a, b, "--by", "module", "--fail-on", "cpu_total>10%@"+match); code != want {
			t.Errorf("--fail-on @%s: exit %d, want %d: %s", match, code, want, stderr)
		}
	}
	// budgets on NEW at BASE's value + 10%
	for _, c := range []struct {
		budget string
		want   int
	}{
		{fmt.Sprintf("cpu_total@Linear_1=%dus", baseUs*11/10), ExitCheck},
		{fmt.Sprintf("cpu_total@Model_0/Encoder_0/Linear_1=%dus", baseUs*11/10), ExitCheck},
		{fmt.Sprintf("cpu_total@Decoder_0=%dus", 200*11/10), ExitOK},
		{fmt.Sprintf("cpu_total@Linear_1=%dus", newUs*11/10), ExitOK},
	} {
		if out, stderr, code := run(t, "check", b, "--by", "module", "--max", c.budget); code != c.want {
			t.Errorf("check --max %s: exit %d, want %d: %s%s", c.budget, code, c.want, out, stderr)
		}
	}
	// a name at two paths is a usage error listing them
	_, stderr, code = run(t, "check", b, "--by", "module", "--max", "cpu_total@Norm_0=1ms")
	if code != ExitUsage || !strings.Contains(stderr, "Model_0/Decoder_0/Norm_0") || !strings.Contains(stderr, "Model_0/Encoder_0/Norm_0") {
		t.Errorf("ambiguous name: exit %d: %s", code, stderr)
	}
	_, stderr, code = run(t, "diff", a, b, "--by", "module", "--fail-on", "cpu_total>10%@Norm_0")
	if code != ExitUsage || !strings.Contains(stderr, "Model_0/Encoder_0/Norm_0") {
		t.Errorf("ambiguous name in diff: exit %d: %s", code, stderr)
	}
}

// TestModuleDiffNoModules: a trace without module frames on either side
// exits 2 naming it and the profiler options.
func TestModuleDiffNoModules(t *testing.T) {
	with := modTraceFile(t, "with.json", 3, 100, false, true)
	without := modTraceFile(t, "without.json", 3, 100, false, false)
	for _, args := range [][]string{
		{"diff", with, without, "--by", "module"},
		{"diff", without, with, "--by", "module"},
		{"check", without, "--by", "module", "--max", "cpu_total=1s"},
	} {
		_, stderr, code := run(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, without) || !strings.Contains(stderr, "with_modules=True") ||
			!strings.Contains(stderr, "with_stack=True") || strings.Contains(stderr, with+" ") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// rawModuleNames are the distinct module names of a trace's module
// frames, read from its raw JSON.
func rawModuleNames(t *testing.T, path string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, e := range readRaw(t, path) {
		if n, ok := strings.CutPrefix(e.Name, "nn.Module: "); ok && e.Ph == "X" && e.Cat == "python_function" {
			out[n] = true
		}
	}
	return out
}

// TestModuleDiffSharedTraces: every shared trace with module frames,
// compared with itself, shows every module with no change, and holds to
// a budget at its own value.
func TestModuleDiffSharedTraces(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	seen := 0
	for _, p := range paths {
		names := rawModuleNames(t, p)
		if len(names) == 0 {
			continue
		}
		seen++
		base := filepath.Base(p)
		rows, stderr, code := modDiff(t, p, p, "--fail-on", "cpu_total>0%", "--fail-on", "cuda_total>0%")
		if code != ExitOK {
			t.Errorf("%s: exit %d: %s", base, code, stderr)
			continue
		}
		got := map[string]bool{}
		top, topNs := "", -1.0
		for _, r := range rows {
			got[r.Module[strings.LastIndexByte(r.Module, '/')+1:]] = true
			if r.Status != "" {
				t.Errorf("%s: %s is %s", base, r.Module, r.Status)
			}
			for m, c := range r.Metrics {
				for _, k := range []string{"delta_ns", "delta_count"} {
					if v, ok := c[k]; ok && v != nil && jnum(v) != 0 {
						t.Errorf("%s: %s %s changed by %v", base, r.Module, m, v)
					}
				}
			}
			if v := jnum(r.Metrics["cpu_total"]["base_ns"]); v > topNs {
				top, topNs = r.Module, v
			}
		}
		if len(got) != len(names) {
			t.Errorf("%s: %d module names in the rows, %d in the raw trace", base, len(got), len(names))
		}
		for n := range names {
			if !got[n] {
				t.Errorf("%s: module %s has no row", base, n)
			}
		}
		budget := fmt.Sprintf("cpu_total@%s=%dns", top, int64(topNs))
		if out, stderr, code := run(t, "check", p, "--by", "module", "--max", budget); code != ExitOK {
			t.Errorf("%s: check --max %s: exit %d: %s%s", base, budget, code, out, stderr)
		}
	}
	if seen < 6 {
		t.Errorf("%d shared traces have module frames, want 6", seen)
	}
}
