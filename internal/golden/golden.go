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

var updateFlag = flag.Bool("update", false, "rewrite golden files")

// Updating reports whether golden files are rewritten: -update (in a
// package whose tests import this one) or TRACETAB_UPDATE=1 (make golden:
// every package, whether it has the flag or not).
func Updating() bool { return *updateFlag || os.Getenv("TRACETAB_UPDATE") == "1" }

// forbidden are the characters Windows or macOS file systems cannot hold
// in a file name (the path separators included).
const forbidden = `<>:"|?*\/`

// FileName turns a test's name (often a command line) into a file name
// every file system can hold: each forbidden character becomes '_', and
// control characters too.
func FileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(forbidden, r) {
			return '_'
		}
		return r
	}, name)
}

// Check compares got with the golden file for name (made a portable file
// name by FileName) under root/testdata/golden, writing it under -update.
func Check(t *testing.T, root, name, got string) {
	t.Helper()
	name = FileName(name)
	path := filepath.Join(root, "testdata", "golden", name)
	if Updating() {
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
		t.Fatalf("%v (run make golden to create it)", err)
	}
	if w := strings.ReplaceAll(string(want), "\r\n", "\n"); w != got {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Fatalf("%s differs from the golden file; see %s.got, or run with -update after review", name, path)
	}
}

// Absent fails when a golden file exists for name: a view that shows
// nothing (its command refuses) has none. Under -update it removes it.
func Absent(t *testing.T, root, name string) {
	t.Helper()
	path := filepath.Join(root, "testdata", "golden", FileName(name))
	if _, err := os.Stat(path); err != nil {
		return
	}
	if Updating() {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s: the view shows nothing here, yet a golden file exists (remove it, or run with -update)", path)
}
