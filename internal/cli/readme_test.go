package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestReadmeFirstCommand: the excerpt the README shows under its first
// command is what that command prints, line for line.
func TestReadmeFirstCommand(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "The first command prints what the trace holds (excerpt):\n\n```\n")
	excerpt, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README has no excerpt of the first command's output")
	}
	wd, _ := os.Getwd()
	os.Chdir(testenv.Root())
	defer os.Chdir(wd)
	out, _, code := run(t, "info", "testdata/sample.pt.trace.json")
	if code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimRight(excerpt, "\n"), "\n")
	for _, l := range lines {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("README shows %q, info prints:\n%s", l, out)
		}
	}
	if len(lines) < 5 {
		t.Errorf("excerpt of %d lines", len(lines))
	}
}
