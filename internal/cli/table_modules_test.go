package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/testenv"
)

// moduleTrace is the shared trace of the module view's golden: BERT on an
// H100, 84 module frames.
const moduleTrace = "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz"

// TestModuleViewRefusals: a trace without module frames exits 2 with one
// line naming the profiler options; flags that do not apply are refused.
func TestModuleViewRefusals(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	_, stderr, code := run(t, "table", sample, "--by", "module")
	if code != ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 ||
		!strings.Contains(stderr, "with_modules=True") || !strings.Contains(stderr, "with_stack=True") {
		t.Errorf("no modules: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{
		{"--by", "module", "--sort", "cpu_memory_usage"},
		{"--by", "module", "--depth", "-1"},
		{"--by", "module", "--steps", "1"},
		{"--by", "module", "--match", "x"},
		{"--depth", "2"},
		{"--by", "modul"},
	} {
		_, stderr, code := run(t, append([]string{"table", sample}, args...)...)
		if code != ExitUsage || stderr == "" {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestModuleViewSharedTraces: on every shared trace, --by module's JSON
// keeps the output contract, or the trace has no module frames and is
// refused in one line.
func TestModuleViewSharedTraces(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	shown := 0
	for _, p := range paths {
		out, stderr, code := run(t, "table", p, "--by", "module", "--format", "json", "--limit", "-1")
		switch code {
		case ExitOK:
			shown++
			if v := contractViolations([]byte(out)); len(v) > 0 {
				t.Errorf("%s breaks the output contract:\n  %s", filepath.Base(p), strings.Join(v, "\n  "))
			}
		case ExitUsage:
			if !strings.Contains(stderr, "no nn.Module frames") {
				t.Errorf("%s: exit 2: %s", filepath.Base(p), stderr)
			}
		default:
			t.Errorf("%s: exit %d: %s", filepath.Base(p), code, stderr)
		}
	}
	if shown < 6 {
		t.Errorf("the module view showed %d shared traces; 6 have module frames", shown)
	}
}

// TestModuleViewGolden: `table --by module` on a shared trace at 80
// columns and unlimited, and sorted at 100, through Main in parallel:
// exit 0, every line fits its width, and stdout is moduleview's golden
// (its TestGolden makes it on the model).
func TestModuleViewGolden(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", moduleTrace)
	for _, c := range []struct {
		name string
		args []string
		w    int
	}{
		{"modules.bert.80.golden", []string{"--width", "80", "--limit", "-1"}, 80},
		{"modules.bert.0.golden", []string{"--width", "0", "--limit", "-1"}, 0},
		{"modules.bert.sorted.100.golden", []string{"--width", "100", "--sort", "self_cuda", "--limit", "15"}, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, stderr, code := run(t, append([]string{"table", path, "--by", "module"}, c.args...)...)
			if code != ExitOK {
				t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
			}
			for i, l := range strings.Split(out, "\n") {
				if c.w > 0 && layout.Width(l) > c.w {
					t.Errorf("%s: line %d has %d columns: %q", c.name, i+1, layout.Width(l), l)
				}
				if strings.HasSuffix(l, " ") {
					t.Errorf("%s: line %d ends in a space", c.name, i+1)
				}
			}
			holdToViewGolden(t, "moduleview", c.name, out)
		})
	}

}
