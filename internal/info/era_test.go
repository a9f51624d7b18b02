package info

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestEraCodesDocumented: every era code the reader can return has one
// sentence, and docs/output.md carries the same sentence.
func TestEraCodesDocumented(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "output.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(strings.ReplaceAll(string(raw), "`", "")), " ")
	for _, code := range EraCodes {
		m := EraMeaning(code)
		if m == "" || !strings.HasPrefix(m, code+": ") || strings.Count(m, ". ") > 0 || !strings.HasSuffix(m, ".") {
			t.Errorf("%s: want one sentence starting %q, got %q", code, code+": ", m)
		}
		if !strings.Contains(doc, m) {
			t.Errorf("docs/output.md lacks the sentence for %s: %q", code, m)
		}
	}
	if len(eraMeaning) != len(EraCodes) {
		t.Errorf("%d meanings for %d codes", len(eraMeaning), len(EraCodes))
	}
}
