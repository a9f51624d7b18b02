package table_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestCommunicationClass: on every shared trace, every kernel ranks
// collects as a collective, and every kernel whose raw name names NCCL or
// RCCL, is class communication in the kernel view; no memcpy or memset is.
func TestCommunicationClass(t *testing.T) {
	dir := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
	comm := 0
	for _, p := range paths {
		tr, _, err := testcache.Open(p, parse.Options{})
		if err != nil {
			continue
		}
		coll := map[string]bool{}
		for _, c := range ranks.Summarize(tr, 0).Colls {
			coll[c.Name] = true
		}
		rows, _ := table.KernelView(tr, nil)
		for _, r := range rows {
			lower := strings.ToLower(r.Name)
			want := coll[r.Name] || r.Kind.String() == "kernel" && (strings.Contains(lower, "nccl") || strings.Contains(lower, "rccl"))
			if want {
				comm++
				if r.Class != "communication" {
					t.Errorf("%s: %q is class %q, want communication", filepath.Base(p), r.Name, r.Class)
				}
			} else if r.Class == "communication" && !strings.Contains(lower, "reduce") && !strings.Contains(lower, "gather") && !strings.Contains(lower, "scatter") {
				t.Errorf("%s: %q is class communication but no collective", filepath.Base(p), r.Name)
			}
		}
	}
	if comm < 3 {
		t.Fatalf("only %d communication kernels seen on the shared traces; want at least 3", comm)
	}
}
