package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestExportFilesThroughSymlink: a directory of traces given as a symbolic
// link stands for its traces as the directory does (filepath.WalkDir does
// not follow a link at its root); hidden entries stay skipped.
func TestExportFilesThroughSymlink(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "job")
	for _, name := range []string{"a.json", "sub/b.json.gz", ".hidden/c.json", "notes.txt"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	want := []string{filepath.Join(link, "a.json"), filepath.Join(link, "sub", "b.json.gz")}
	got, err := exportFiles([]string{link})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("through the link: %q, %v; want %q", got, err, want)
	}
	got, err = exportFiles([]string{dir})
	if err != nil || len(got) != 2 {
		t.Errorf("the directory: %q, %v", got, err)
	}
}
