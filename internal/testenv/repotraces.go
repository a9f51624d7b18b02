package testenv

import (
	"path/filepath"
	"strings"
	"testing"
)

// MinRepoTraces is the fewest traces the view goldens run on: the
// repository's quirk traces and its generated sample (7 today).
const MinRepoTraces = 7

// RepoTraces lists the repository's own traces, testdata/quirks/*.json and
// testdata/sample.pt.trace.json: every view's goldens run on each. It
// fails the test when fewer than MinRepoTraces are found (a broken
// checkout, not a smaller set).
func RepoTraces(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(Root(), "testdata", "quirks", "*.json"))
	files = append(files, filepath.Join(Root(), "testdata", "sample.pt.trace.json"))
	if len(files) < MinRepoTraces {
		t.Fatalf("%d traces under %s, want at least %d", len(files), filepath.Join(Root(), "testdata"), MinRepoTraces)
	}
	return files
}

// RepoBase is a repository trace's name without its .json: the goldens'
// file names start with it.
func RepoBase(path string) string { return strings.TrimSuffix(filepath.Base(path), ".json") }

// Unroot writes the repository's root out of s: a path under it reads as
// from the root (testdata/quirks/x.json), so goldens do not hold the
// checkout's place.
func Unroot(s string) string {
	return strings.ReplaceAll(s, Root()+string(filepath.Separator), "")
}
