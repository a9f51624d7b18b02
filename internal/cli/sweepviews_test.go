package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// rawHas reports what the views need, read from the raw JSON: a module
// frame (a python_function event named "nn.Module: ...") and device work
// (a kernel, memcpy or memset event, in any era's category name).
func rawHas(t *testing.T, path string) (modules, device bool) {
	for _, e := range readRawFile(t, path) {
		if e.Ph != "X" {
			continue
		}
		switch strings.ToLower(e.Cat) {
		case "python_function":
			modules = modules || strings.HasPrefix(e.Name, "nn.Module: ")
		case "kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset":
			device = true
		}
	}
	return modules, device
}

// TestSweepViews: table --by module, --by category and --by sequence on
// the sample, a generated trace with module frames and every shared
// trace hold to the sweep's contract, and refuse (exit 2, one line
// saying why) exactly the traces the raw JSON shows lack what they need:
// module frames for --by module, device work for --by category and
// --by sequence (which may refuse for want of a sequence too).
func TestSweepViews(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 3, Layers: 2, Modules: true}); err != nil {
		t.Fatal(err)
	}
	g := filepath.Join(t.TempDir(), "modules.json")
	os.WriteFile(g, b.Bytes(), 0o644)
	files := []string{testdata("sample.pt.trace.json"), g}
	dir, shared := testenv.SharedDir()
	if shared {
		s, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
		files = append(files, s...)
	} else {
		testenv.Shared(t)
	}
	refused := map[string]int{}
	shown := map[string]int{}
	for _, f := range files {
		mods, dev := rawHas(t, f)
		name := filepath.Base(f)
		for _, c := range []struct {
			view   string
			has    bool
			reason string // in the refusal's line
			maybe  bool   // refused for other reasons too
		}{
			{"module", mods, "no nn.Module frames", false},
			{"category", dev, "no device work", false},
			{"sequence", dev, "no device work", true},
		} {
			line := []string{"table", "--by", c.view, f}
			out, stderr, code := run(t, line...)
			sweepCheck(t, line, out, stderr, code)
			switch {
			case !c.has && code != ExitUsage:
				t.Errorf("%s --by %s: exit %d on a trace the raw JSON shows lacks it", name, c.view, code)
			case !c.has && !strings.Contains(stderr, c.reason):
				t.Errorf("%s --by %s: refused without saying %q: %s", name, c.view, c.reason, stderr)
			case c.has && code != ExitOK && !c.maybe:
				t.Errorf("%s --by %s: exit %d on a trace that has it: %s", name, c.view, code, stderr)
			case c.has && code == ExitUsage && strings.Contains(stderr, c.reason):
				t.Errorf("%s --by %s: says %q of a trace that has it", name, c.view, c.reason)
			}
			if code == ExitOK {
				shown[c.view]++
			} else {
				refused[c.view]++
			}
		}
	}
	t.Logf("shown %v, refused %v", shown, refused)
	if shared && (shown["module"] < 3 || refused["module"] < 3 || refused["category"] < 1) {
		t.Errorf("the traces do not exercise both answers: shown %v, refused %v", shown, refused)
	}
}
