package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// k2bWithPython writes a copy of a real torch 1.13-2.3 trace (integer us,
// no baseTimeNanoseconds) with one python_function event wrapped around its
// aten::mm, 1 us on each side. torch 2.10+ key_averages leaves
// python_function events out; the torch that recorded this trace kept
// them. It returns the path, the event's name and its self CPU time in ns,
// computed from the raw events (its duration minus aten::mm's).
func k2bWithPython(t *testing.T) (path, name string, selfNs int64) {
	t.Helper()
	src := filepath.Join(testenv.Shared(t), "traces", "HTA__call_stack__backward_thread.json")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc["baseTimeNanoseconds"]; ok {
		t.Fatal("the trace must be of the integer-us era")
	}
	evs := doc["traceEvents"].([]any)
	var mm map[string]any
	for _, x := range evs {
		e := x.(map[string]any)
		if e["name"] == "aten::mm" && e["cat"] == "cpu_op" {
			mm = e
		}
	}
	if mm == nil {
		t.Fatal("no aten::mm in the trace")
	}
	ts, dur := int64(mm["ts"].(float64)), int64(mm["dur"].(float64))
	name = "torch/nn/functional.py(2000): linear"
	evs = append(evs, map[string]any{"ph": "X", "cat": "python_function", "name": name, "pid": mm["pid"], "tid": mm["tid"],
		"ts": ts - 1, "dur": dur + 2, "args": map[string]any{"Python id": 7, "Python parent id": 1}})
	doc["traceEvents"] = evs
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "k2b_python.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, name, (dur + 2 - dur) * 1000
}

// TestDiffCheckTorchFromEra: diff and check, like table, print the op rows
// by the rules of the recording torch when --torch is not given (2.3 for a
// 1.13-2.3 trace, which keeps python_function rows), not by 2.14's.
func TestDiffCheckTorchFromEra(t *testing.T) {
	path, name, selfNs := k2bWithPython(t)
	if out, _, _ := run(t, "info", path); !strings.Contains(out, "torch       2.3 assumed") {
		t.Fatalf("info must assume torch 2.3 for this trace:\n%s", out)
	}
	budget := "self_cpu@^" + strings.NewReplacer("(", `\(`, ")", `\)`, ".", `\.`).Replace(name) + "$=1us"
	type outcome struct {
		Result  string `json:"result"`
		Row     string `json:"row"`
		ValueNs *int64 `json:"value_ns"`
	}
	check := func(args ...string) (outcome, int) {
		out, stderr, code := run(t, append([]string{"check", path, "--max", budget, "--format", "json"}, args...)...)
		var doc struct{ Budgets []outcome }
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Budgets) != 1 {
			t.Fatalf("check %v: %v %q %s", args, err, out, stderr)
		}
		return doc.Budgets[0], code
	}
	def, code := check()
	if code != ExitCheck || def.Result != "FAIL" || def.Row != name || def.ValueNs == nil || *def.ValueNs != selfNs {
		t.Errorf("check without --torch: exit %d %+v; want FAIL on %q with %d ns (the raw events), as torch 2.3 keeps python_function", code, def, name, selfNs)
	}
	if v23, _ := check("--torch", "2.3"); v23.Result != def.Result || v23.Row != def.Row || v23.ValueNs == nil || def.ValueNs == nil || *v23.ValueNs != *def.ValueNs {
		t.Errorf("check without --torch %+v differs from --torch 2.3 %+v", def, v23)
	}
	if v214, code := check("--torch", "2.14"); code != ExitCheck || v214.Result != "n/a" {
		t.Errorf("check --torch 2.14: exit %d %+v; want n/a (2.14 leaves python_function out)", code, v214)
	}

	keys := func(args ...string) []string {
		out, stderr, code := run(t, append([]string{"diff", path, path, "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("diff %v: exit %d %s", args, code, stderr)
		}
		var doc struct{ Rows []struct{ Key string } }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, r := range doc.Rows {
			ks = append(ks, r.Key)
		}
		return ks
	}
	if ks := keys(); !slices.Contains(ks, name) {
		t.Errorf("diff without --torch must keep the python_function row as torch 2.3 did: %v", ks)
	} else if !slices.Equal(ks, keys("--torch", "2.3")) {
		t.Error("diff without --torch differs from --torch 2.3")
	}
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	if _, stderr, _ := run(t, "diff", path, sample); !strings.Contains(stderr, "recording torch (2.3, 2.14") {
		t.Errorf("diff of a 2.3 and a 2.14 trace must say the op rows follow each one's torch: %s", stderr)
	}
	if _, stderr, _ := run(t, "diff", path, sample, "--torch", "2.14"); strings.Contains(stderr, "recording torch") {
		t.Errorf("with --torch the rows follow one version: %s", stderr)
	}
	if ks := keys("--torch", "2.14"); slices.Contains(ks, name) {
		t.Errorf("diff --torch 2.14 must leave the python_function row out: %v", ks)
	}
}

// TestTorchRefusedEverywhere: an unknown --torch is the same usage error in
// table, diff and check.
func TestTorchRefusedEverywhere(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	for _, v := range []string{"3.0", "2.15", "banana"} {
		_, want, code := run(t, "table", "--torch", v, sample)
		if code != ExitUsage || !strings.Contains(want, "--torch") || !strings.Contains(want, `"`+v+`"`) && !strings.Contains(want, " "+v+" ") {
			t.Fatalf("table --torch %s: exit %d %q", v, code, want)
		}
		for _, args := range [][]string{{"diff", sample, sample}, {"check", sample, "--max-gpu-idle", "100"}} {
			_, got, code := run(t, append(args, "--torch", v)...)
			if code != ExitUsage || got != want {
				t.Errorf("%s --torch %s: exit %d %q; want exit %d and table's message %q", args[0], v, code, got, ExitUsage, want)
			}
		}
	}
}
