// Package golden compares test output with files under testdata/golden,
// and rewrites them when tests run with -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Check compares got with the golden file path (relative to the repo root
// given), writing it under -update.
func Check(t *testing.T, root, name, got string) {
	t.Helper()
	path := filepath.Join(root, "testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./... -update to create it)", err)
	}
	if w := strings.ReplaceAll(string(want), "\r\n", "\n"); w != got {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Fatalf("%s differs from the golden file; see %s.got, or run with -update after review", name, path)
	}
}
