package cli

import (
	"bytes"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gctune"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestGapsRestoresGCPercent: gaps lowers the GC target for its analysis
// and raises it for the rendering; when it returns, the target is the one
// set before it ran, whatever that was.
func TestGapsRestoresGCPercent(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	// the package's tests run with the tuning off (gc.go); this one is
	// about the tuning
	defer gctune.SetEnabled(gctune.SetEnabled(true))
	prev := debug.SetGCPercent(37)
	defer debug.SetGCPercent(prev)
	for _, format := range []string{"text", "json"} {
		var out, errb bytes.Buffer
		cmd := newGapsCmd(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
		cmd.SetArgs([]string{sample, "--format", format})
		if err := cmd.Execute(); err != nil {
			t.Fatalf("gaps --format %s: %v (%s)", format, err, errb.String())
		}
		if out.Len() == 0 {
			t.Errorf("gaps --format %s wrote nothing", format)
		}
		if got := debug.SetGCPercent(37); got != 37 {
			t.Errorf("gaps --format %s: GC percent %d after the run, want the 37 set before", format, got)
		}
	}
}
