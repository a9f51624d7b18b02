package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestCategoryViewRefusals: flags that do not apply to --by category, and
// --all without it, exit 2 in one line; so do a trace without device work
// and a --steps range that launched none.
func TestCategoryViewRefusals(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	for _, args := range [][]string{
		{"--by", "category", "--sort", "cpu_time_total"},
		{"--by", "category", "--match", "x"},
		{"--by", "category", "--group-by-shape"},
		{"--by", "category", "--steps", "999"},
		{"--all"},
		{"--by", "kernel", "--all"},
		{"--by", "categories"},
	} {
		_, stderr, code := run(t, append([]string{"table", sample}, args...)...)
		if code != ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") > 1 || stderr == "" {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	if dir, ok := testenv.SharedDir(); ok {
		cpu := filepath.Join(dir, "traces", "HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
		_, stderr, code := run(t, "table", cpu, "--by", "category")
		if code != ExitUsage || !strings.Contains(stderr, "has no device work") {
			t.Errorf("a CPU-only trace: exit %d, %q", code, stderr)
		}
	}
}

// TestCategoryViewSharedTraces: on every shared trace, --by category's
// JSON adds up: the categories to device_ns and kernels, in total and per
// step, and the steps with the device work outside them to the total; or
// the trace has no device work and is refused in one line.
func TestCategoryViewSharedTraces(t *testing.T) {
	type cat struct {
		Category string `json:"category"`
		DeviceNs int64  `json:"device_ns"`
		Kernels  int    `json:"kernels"`
	}
	type doc struct {
		Schema     string `json:"schema"`
		DeviceNs   int64  `json:"device_ns"`
		Kernels    int    `json:"kernels"`
		Categories []cat  `json:"categories"`
		Outside    *struct {
			DeviceNs int64 `json:"device_ns"`
			Kernels  int   `json:"kernels"`
		} `json:"outside_steps"`
		Steps []struct {
			Step       int64 `json:"step"`
			DeviceNs   int64 `json:"device_ns"`
			Kernels    int   `json:"kernels"`
			Categories []cat `json:"categories"`
		} `json:"steps"`
	}
	add := func(cs []cat) (ns int64, n int) {
		for _, c := range cs {
			ns += c.DeviceNs
			n += c.Kernels
		}
		return ns, n
	}
	dir := filepath.Join(testenv.Shared(t), "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	shown := 0
	for _, p := range paths {
		name := filepath.Base(p)
		out, stderr, code := run(t, "table", p, "--by", "category", "--format", "json")
		if code == ExitUsage && strings.Contains(stderr, "has no device work") {
			continue
		}
		if code != ExitOK {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		shown++
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ns, n := add(d.Categories); d.Schema != "tracetab.categories/1" || len(d.Categories) != 8 || ns != d.DeviceNs || n != d.Kernels {
			t.Errorf("%s: %d categories add up to %d ns in %d ops; the total is %d ns in %d", name, len(d.Categories), ns, n, d.DeviceNs, d.Kernels)
		}
		var stepsNs int64
		stepsN := 0
		for _, s := range d.Steps {
			if ns, n := add(s.Categories); ns != s.DeviceNs || n != s.Kernels {
				t.Errorf("%s step %d: categories %d ns in %d ops, the step %d ns in %d", name, s.Step, ns, n, s.DeviceNs, s.Kernels)
			}
			stepsNs += s.DeviceNs
			stepsN += s.Kernels
		}
		if len(d.Steps) > 0 && (d.Outside == nil || stepsNs+d.Outside.DeviceNs != d.DeviceNs || stepsN+d.Outside.Kernels != d.Kernels) {
			t.Errorf("%s: the steps and the work outside them do not add up to %d ns in %d ops", name, d.DeviceNs, d.Kernels)
		}
	}
	if shown < 21 {
		t.Errorf("the category view showed %d shared traces; 21 have device work", shown)
	}
}
