package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestChainGolden: chain's JSON walking up from every device op, and its
// text down from the first step, on the testdata traces.
func TestChainGolden(t *testing.T) {
	files, _ := filepath.Glob(testdata("quirks", "*.json"))
	files = append(files, testdata("sample.pt.trace.json"))
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		rel, _ := filepath.Rel(testenv.Root(), f)
		for name, args := range map[string][]string{
			"chain_up_all_json": {"chain", "--allow-truncated", rel, "--regex", ".", "--up", "--all", "--format", "json"},
			"chain_up_summary":  {"chain", "--allow-truncated", rel, "--regex", ".", "--up", "--summary"},
			"chain_mm_summary":  {"chain", "--allow-truncated", rel, "aten::mm", "--summary"},
			"chain_mm_depth1":   {"chain", "--allow-truncated", rel, "aten::matmul", "--depth", "1", "--instance", "2"},
		} {
			name := base + "." + name + ".golden"
			t.Run(name, func(t *testing.T) {
				wd, _ := os.Getwd()
				os.Chdir(testenv.Root())
				defer os.Chdir(wd)
				out, stderr, code := run(t, args...)
				if code == 0 && args[len(args)-1] == "json" {
					var v map[string]any
					if err := json.Unmarshal([]byte(out), &v); err != nil || v["schema"] != "tracetab.chain/2" {
						t.Fatalf("not chain/2 JSON: %v\n%s", err, out)
					}
				}
				golden.Check(t, testenv.Root(), name, "exit "+itoa(code)+"\n-- stdout --\n"+out+"-- stderr --\n"+stderr)
			})
		}
	}
}
