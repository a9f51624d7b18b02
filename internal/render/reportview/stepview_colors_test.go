package reportview

import (
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
)

// TestEveryCauseHasAColor: a cause gaps learns later needs its colour, or
// the page's data indexes past the list (the startup cause did).
func TestEveryCauseHasAColor(t *testing.T) {
	if n, m := len(CauseColors), len(gaps.Causes()); n != m {
		t.Fatalf("%d cause colours for %d causes", n, m)
	}
	seen := map[string]bool{}
	for k, c := range CauseColors {
		if seen[c] {
			t.Errorf("cause %s shares its colour %s", gaps.Causes()[k], c)
		}
		seen[c] = true
	}
}
