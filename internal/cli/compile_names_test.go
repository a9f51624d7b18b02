package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestCompileKernelNamesDistinct: in the text of `compile`, distinct kernels
// keep distinct names however long they are (the ROCm GEMMs of the
// torch.compile trace differ only deep inside their names), also when the
// text is fitted to 80 columns.
func TestCompileKernelNamesDistinct(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "TraceLens__torch_compile_triton__trace.json.gz")
	js, _, code := run(t, "compile", "--format", "json", "--top", "0", path)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Kernels []struct {
			Name string `json:"name"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	raw := map[string]bool{}
	for _, k := range doc.Kernels {
		raw[k.Name] = true
	}
	for _, width := range []string{"0", "80"} {
		text, _, _ := run(t, "compile", "--top", "0", "--width", width, path)
		sec := text[strings.Index(text, "Kernels of compiled code"):]
		lines := strings.Split(sec, "\n")
		k := 0
		for !strings.HasPrefix(lines[k], "---") {
			k++
		}
		cell := regexp.MustCompile(`\s{2,}`)
		shown := map[string]bool{}
		rows := 0
		for _, l := range lines[k+1:] {
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "(to fit") {
				break
			}
			f := cell.Split(strings.TrimSpace(l), -1)
			if len(f) < 3 {
				t.Fatalf("row %q", l)
			}
			rows++
			shown[f[0]] = true
		}
		if rows != len(doc.Kernels) || len(shown) != len(raw) {
			t.Errorf("--width %s: %d rows for %d kernels; %d distinct names shown for %d distinct kernels", width, rows, len(doc.Kernels), len(shown), len(raw))
		}
	}
}
