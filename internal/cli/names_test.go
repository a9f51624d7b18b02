package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/testenv"
)

// rawDeviceNames reads the distinct names of the kernels, memcpys and
// memsets of a trace through rawjson, apart from tracetab's reader.
func rawDeviceNames(t *testing.T, path string) map[string]bool {
	t.Helper()
	evs := readRaw(t, path)
	names := map[string]bool{}
	for _, e := range evs {
		switch e.Cat {
		case "kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset":
			if e.Ph == "X" {
				names[e.Name] = true
			}
		}
	}
	return names
}

// kernelTextNames parses the Name column of table --by kernel's text.
func kernelTextNames(t *testing.T, out string) []string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		return nil
	}
	col := strings.Index(lines[0], "Name")
	var names []string
	for _, l := range lines[2:] {
		if len(l) > col {
			names = append(names, strings.TrimRight(l[col:], " "))
		}
	}
	return names
}

// TestKernelNamesDistinct: on every shared trace, table --by kernel shows
// one row per distinct device-op name of the raw trace, and no two rows
// look the same in the 110-column name field; mangled C++ names are shown
// demangled (and as written with --demangle=false).
func TestKernelNamesDistinct(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	demangled := 0
	for _, f := range files {
		raw := rawDeviceNames(t, f)
		if len(raw) == 0 {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, stderr, code := run(t, "table", "--by", "kernel", "--limit", "-1", f)
			if code != 0 {
				t.Fatalf("exit %d %s", code, stderr)
			}
			shown := kernelTextNames(t, out)
			if len(shown) != len(raw) {
				t.Errorf("%d rows, want one per distinct raw name: %d", len(shown), len(raw))
			}
			seen := map[string]bool{}
			for _, s := range shown {
				if seen[s] {
					t.Errorf("two rows show %q", s)
				}
				seen[s] = true
				if strings.HasPrefix(s, "_Z") {
					t.Errorf("mangled name shown: %q", s)
				}
			}
			mangled := 0
			for n := range raw {
				if strings.HasPrefix(n, "_ZN") {
					mangled++
				}
			}
			if mangled > 0 {
				demangled++
				// the text shows the labels (names.Labels): each mangled
				// name's function name, demangled, is in it
				for n := range raw {
					if !strings.HasPrefix(n, "_ZN") {
						continue
					}
					d := names.Demangle(n)
					if i := strings.IndexAny(d, "<("); i > 0 {
						d = d[:i]
					}
					if j := strings.LastIndex(d, "::"); j >= 0 {
						d = d[j+2:]
					}
					if d == "kentry" || strings.HasPrefix(d, "Kernel") {
						continue // a launcher: labelled by its argument
					}
					if !strings.Contains(out, d) {
						t.Errorf("the function name %q of %q is not in the text", d, n)
					}
				}
				plain, _, _ := run(t, "table", "--by", "kernel", "--limit", "-1", "--demangle=false", f)
				if !strings.Contains(plain, "_ZN") {
					t.Error("--demangle=false should show the names as written")
				}
			}
		})
	}
	if demangled == 0 {
		t.Error("no shared trace with mangled names was checked; the vLLM trace has two")
	}
}
