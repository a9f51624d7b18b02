package cli

import (
	"encoding/json"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

func genFile(t *testing.T, name string, cfg gen.Config) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := gen.Write(f, cfg); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDiffSelf: a trace against itself changes nothing and passes any rule.
func TestDiffSelf(t *testing.T) {
	p := genFile(t, "a.json", gen.Config{Steps: 4, Layers: 2})
	out, stderr, code := run(t, "diff", p, p, "--format", "json", "--fail-on", "self_cuda>0%", "--fail-on", "count>0",
		"--fail-on", "total.gpu_idle>0%", "--fail-on", "self_cpu>0us")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var d struct {
		Rows []struct {
			Metrics map[string]struct{ Abs float64 } `json:"metrics"`
		} `json:"rows"`
		Totals map[string]struct{ Abs float64 } `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range d.Rows {
		for m, c := range r.Metrics {
			if c.Abs != 0 {
				t.Errorf("%s changed by %v", m, c.Abs)
			}
		}
	}
	for m, c := range d.Totals {
		if c.Abs != 0 {
			t.Errorf("total %s changed by %v", m, c.Abs)
		}
	}
}

// TestDiffSlowerKernel: one kernel made 30% slower.
func TestDiffSlowerKernel(t *testing.T) {
	base := genFile(t, "base.json", gen.Config{Steps: 4})
	slow := genFile(t, "slow.json", gen.Config{Steps: 4, GEMMScale: 1.3})
	out, _, code := run(t, "diff", "--by", "kernel", base, slow, "--fail-on", "self_cuda>10%")
	if code != ExitCheck || !strings.Contains(out, "FAIL: 1 violation") || !strings.Contains(out, "ampere_sgemm_32x32_sliced1x4_nn: self_cuda grew") {
		t.Fatalf("10%% rule: exit %d\n%s", code, out)
	}
	if _, _, code := run(t, "diff", "--by", "kernel", base, slow, "--fail-on", "self_cuda>50%"); code != 0 {
		t.Errorf("50%% rule: exit %d", code)
	}
	if _, _, code := run(t, "diff", "--by", "kernel", base, slow, "--fail-on", "self_cuda>10%&1ms"); code != 0 {
		t.Errorf("absolute part not met: exit %d", code)
	}
	// the op view sees it too: aten::mm's self CUDA, per step
	out, _, code = run(t, "diff", base, slow, "--fail-on", "self_cuda>20%@^aten::mm$", "--format", "junit")
	if code != ExitCheck {
		t.Fatalf("op rule: exit %d", code)
	}
	var suite struct {
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Text string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal([]byte(out), &suite); err != nil {
		t.Fatal(err)
	}
	if suite.Failures != 1 || len(suite.Cases) != 1 || suite.Cases[0].Failure == nil || !strings.Contains(suite.Cases[0].Failure.Text, "aten::mm") {
		t.Fatalf("junit: %+v", suite)
	}
}

func TestDiffRulesRefused(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	for _, r := range []string{"speed>10%", "self_cuda>abc", "self_cuda>10%@(", "total.bogus>1", "self_cuda", "self_cuda>10%&20%"} {
		if _, stderr, code := run(t, "diff", p, p, "--fail-on", r); code != ExitUsage || !strings.Contains(stderr, "rule") {
			t.Errorf("%q: exit %d %q", r, code, stderr)
		}
	}
}

// TestDiffHTA: the control/test pair. Each op row equals tracetab table on
// each side divided by that side's number of profiler steps; ops found on
// one side only are marked added or removed.
func TestDiffHTA(t *testing.T) {
	shared := testenv.Shared(t)
	base := filepath.Join(shared, "traces", "HTA__trace_diff__control__control.json.gz")
	nw := filepath.Join(shared, "traces", "HTA__trace_diff__test__test.json.gz")
	out, stderr, code := run(t, "diff", base, nw, "--format", "json", "--limit", "-1")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var d struct {
		BaseSteps, NewSteps int
		Rows                []struct {
			Key     string
			Status  string
			Metrics map[string]struct{ Base, New float64 }
		}
	}
	if err := json.Unmarshal([]byte(strings.NewReplacer(`"base_steps"`, `"BaseSteps"`, `"new_steps"`, `"NewSteps"`).Replace(out)), &d); err != nil {
		t.Fatal(err)
	}
	side := func(path string) map[string][2]float64 {
		m := tableJSON(t, "table", "--format", "json", "--limit", "-1", path)
		out := map[string][2]float64{}
		for _, r := range m["rows"].([]any) {
			row := r.(map[string]any)
			key := row["name"].(string)
			if row["device_op"] == true {
				key = "[device] " + key
			}
			out[key] = [2]float64{row["self_cuda_ns"].(float64) / 1e3, row["self_cpu_ns"].(float64) / 1e3}
		}
		return out
	}
	b, n := side(base), side(nw)
	if d.BaseSteps != 6 || d.NewSteps != 6 {
		t.Fatalf("steps %d %d", d.BaseSteps, d.NewSteps)
	}
	var added, removed int
	for _, r := range d.Rows {
		switch r.Status {
		case "added":
			added++
		case "removed":
			removed++
		}
		for k, want := range [][2]float64{b[r.Key], n[r.Key]} {
			got := [2]float64{r.Metrics["self_cuda"].Base, r.Metrics["self_cpu"].Base}
			if k == 1 {
				got = [2]float64{r.Metrics["self_cuda"].New, r.Metrics["self_cpu"].New}
			}
			for j := range got {
				if math.Abs(got[j]-want[j]/6) > 1e-6 {
					t.Fatalf("%s side %d metric %d: %v, table/6 = %v", r.Key, k, j, got[j], want[j]/6)
				}
			}
		}
	}
	if added == 0 || removed == 0 {
		t.Errorf("added %d removed %d: the pair differs in ops", added, removed)
	}
	t.Logf("%d rows, %d added, %d removed", len(d.Rows), added, removed)
}

func TestCheck(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	out, _, code := run(t, "check", p, "--max-gpu-idle", "99", "--max", "self_cuda_per_call@^aten::mm$=20us", "--no-unlinked")
	if code != 0 || !strings.Contains(out, "PASS: 3 budget(s) met") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, code = run(t, "check", p, "--max-gpu-idle", "10", "--max", "self_cuda_per_call@^aten::mm$=5us")
	if code != ExitCheck || !strings.Contains(out, "FAIL: 2 of 2") || !strings.Contains(out, "aten::mm: self_cuda_per_call is 11.328us") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "budget.yaml")
	os.WriteFile(good, []byte("budgets:\n  - metric: total.step_time\n    max: 1ms\n  - metric: count\n    match: ^aten::add$\n    max: 1\n"), 0o644)
	if out, stderr, code := run(t, "check", p, "--budget", good, "--format", "json"); code != 0 || !strings.Contains(out, `"passed": true`) {
		t.Fatalf("yaml budget: exit %d %s\n%s", code, stderr, out)
	}
	jsonBudget := filepath.Join(dir, "budget.json")
	os.WriteFile(jsonBudget, []byte(`{"budgets": [{"metric": "total.step_time", "max": "100us"}]}`), 0o644)
	if _, _, code := run(t, "check", p, "--budget", jsonBudget); code != ExitCheck {
		t.Fatalf("json budget over: exit %d", code)
	}
}

// TestBudgetErrors: a wrong budget file is refused with exit 2 and its line.
func TestBudgetErrors(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	dir := t.TempDir()
	for _, c := range []struct {
		name, body, want string
	}{
		{"metric", "budgets:\n  - metric: total.step_time\n    max: 1ms\n  - metric: speed\n    max: 3\n", ":4: unknown metric"},
		{"number", "budgets:\n  - metric: total.gpu_idle_pct\n    max: forty\n", ":2: bad max"},
		{"regex", "budgets:\n  - metric: count\n    match: \"(\"\n    max: 1\n", ":2: bad match"},
		{"key", "budgets:\n  - metric: count\n    limit: 1\n", ":3: unknown key"},
		{"yaml", "budgets: [\n", "not YAML or JSON"},
	} {
		path := filepath.Join(dir, c.name+".yaml")
		os.WriteFile(path, []byte(c.body), 0o644)
		_, stderr, code := run(t, "check", p, "--budget", path)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d %q, want 2 and %q", c.name, code, stderr, c.want)
		}
	}
}
