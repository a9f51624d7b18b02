package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Files synced together and committed without a sync of their own appear
// whole under their names, and no temporary file is left.
func TestSyncAllThenCommitSynced(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "a.parquet"), filepath.Join(sub, "b.parquet")}
	var files []*File
	for i, p := range paths {
		f, err := Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte{byte('x' + i)}); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if _, err := os.Stat(paths[0]); !os.IsNotExist(err) {
		t.Fatalf("%s exists before its commit: %v", paths[0], err)
	}
	if err := SyncAll(files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := f.CommitSynced(); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || string(b) != string(rune('x'+i)) {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	if err := files[0].CommitSynced(); err == nil {
		t.Error("a second commit succeeded")
	}
	for _, d := range []string{dir, sub} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if IsTemp(e.Name()) {
				t.Errorf("temporary file left: %s", filepath.Join(d, e.Name()))
			}
		}
	}
}

// A file aborted after SyncAll is removed and never appears.
func TestAbortAfterSyncAll(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.parquet")
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := SyncAll([]*File{f}); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
