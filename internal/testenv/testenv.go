// Package testenv locates the shared reference data (../shared next to the
// repository: real traces and torch's own tables) for tests, which skip
// with a message when it is absent.
package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// SharedDir returns the shared folder and whether it is there, for tests
// that check what they can without it.
func SharedDir() (string, bool) {
	if d := os.Getenv("TRACETAB_SHARED"); d != "" {
		// set on purpose: a folder that is not the reference data is an
		// error, never a silent run that checks nothing
		if msg := checkShared(d); msg != "" {
			panic("TRACETAB_SHARED=" + d + ": " + msg)
		}
		return d, true
	}
	_, file, _, _ := runtime.Caller(0)
	// internal/testenv/testenv.go -> repo root -> ../shared
	d := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
	st, err := os.Stat(filepath.Join(d, "oracle"))
	return d, err == nil && st.IsDir()
}

// checkShared says what is wrong with d as the shared reference data, or "".
func checkShared(d string) string {
	for _, sub := range []string{"traces", "oracle", "oracle-gpu"} {
		st, err := os.Stat(filepath.Join(d, sub))
		if err != nil || !st.IsDir() {
			return "not the shared reference data (no " + sub + "/ folder)"
		}
	}
	if m, _ := filepath.Glob(filepath.Join(d, "traces", "*.json*")); len(m) == 0 {
		return "traces/ holds no trace"
	}
	return ""
}

// Shared returns the shared folder, or skips the test.
func Shared(t testing.TB) string {
	t.Helper()
	d, ok := SharedDir()
	if !ok {
		logSkip(t.Name())
		t.Skipf("shared reference data not found at %s (set TRACETAB_SHARED): skipping", d)
	}
	return d
}

// logSkip appends the name of a test skipped for want of the shared data
// to the file TRACETAB_SKIPLOG names (make test sets it and prints how
// many were skipped); one short append per line, safe across the parallel
// test binaries of go test ./....
func logSkip(name string) {
	p := os.Getenv("TRACETAB_SKIPLOG")
	if p == "" {
		return
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.WriteString(name + "\n")
	f.Close()
}

// Root returns the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// BenchFile returns the trace named by TRACETAB_BENCH_FILE (e.g. the 1 GB
// trace make bench generates), or skips the benchmark.
func BenchFile(b *testing.B) string {
	b.Helper()
	path := os.Getenv("TRACETAB_BENCH_FILE")
	if path == "" {
		b.Skip("TRACETAB_BENCH_FILE not set")
	}
	if _, err := os.Stat(path); err != nil {
		b.Skip(err)
	}
	return path
}

// MinSharedTraces is the fewest traces the shared traces/ folder holds
// (its README lists 25): fewer means a broken copy, not a smaller set.
const MinSharedTraces = 20

// SharedTraces lists every trace of the shared traces/ folder (*.json and
// *.json.gz, sorted), skipping the test when the shared data is absent
// and failing it when the folder holds fewer than MinSharedTraces.
func SharedTraces(t testing.TB) []string {
	t.Helper()
	dir := filepath.Join(Shared(t), "traces")
	var out []string
	for _, pat := range []string{"*.json", "*.json.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		out = append(out, m...)
	}
	slices.Sort(out)
	if len(out) < MinSharedTraces {
		t.Fatalf("%d traces in %s, want the %d and more its README lists", len(out), dir, MinSharedTraces)
	}
	return out
}

// ReadOnlyInput reports whether path is one of the inputs tests only
// read, which caches may keep for the whole test binary: a file under the
// shared reference data or the repository's testdata.
func ReadOnlyInput(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	roots := []string{filepath.Join(Root(), "testdata")}
	if d, ok := SharedDir(); ok {
		roots = append(roots, d)
	}
	for _, r := range roots {
		if ra, err := filepath.Abs(r); err == nil && strings.HasPrefix(abs, ra+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
