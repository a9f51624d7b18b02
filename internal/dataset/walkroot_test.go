package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFilesThroughSymlink: an export's directory given as a symbolic link
// lists the same files (under the link's name) as the directory itself.
func TestFilesThroughSymlink(t *testing.T) {
	dir, _ := exportJob(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	want, err := Files(dir, "ranks", "events")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Files(link, "ranks", "events")
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range []string{"ranks", "events"} {
		if len(want[ds]) != 2 {
			t.Fatalf("%s: %d files in the export, want 2 (one a rank)", ds, len(want[ds]))
		}
		var rel []string
		for _, p := range got[ds] {
			r, err := filepath.Rel(link, p)
			if err != nil {
				t.Fatal(err)
			}
			rel = append(rel, filepath.Join(dir, r))
		}
		if !slices.Equal(rel, want[ds]) {
			t.Errorf("%s through the link: %v, want %v", ds, got[ds], want[ds])
		}
	}
	if WalkRoot(dir) != dir {
		t.Errorf("WalkRoot changed a plain directory: %q", WalkRoot(dir))
	}
}
