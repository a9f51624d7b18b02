package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The executable's pages are let go of around a large trace only, once
// before the first and once after it, never for small ones or stdin.
func TestReleaseGates(t *testing.T) {
	saved := release
	defer func() { release = saved }()
	releases.before, releases.after = sync.Once{}, sync.Once{}
	defer func() { releases.before, releases.after = sync.Once{}, sync.Once{} }()
	n := 0
	release = func() { n++ }

	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"traceEvents":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(releaseMin); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	f.Close()

	releaseBefore(small)
	releaseBefore(filepath.Join(dir, "missing.json"))
	releaseBefore(dir) // a directory
	releaseBefore("-") // stdin, whatever the working directory holds
	releaseAfter(releaseMin - 1)
	if n != 0 {
		t.Fatalf("%d releases around small inputs, want 0", n)
	}
	releaseBefore(big)
	if n != 1 {
		t.Fatalf("%d releases before a %d-byte trace, want 1", n, releaseMin)
	}
	releaseAfter(releaseMin)
	if n != 2 {
		t.Fatalf("%d releases after it, want 2", n)
	}
	releaseBefore(big)
	releaseAfter(5 * releaseMin)
	if n != 2 {
		t.Fatalf("%d releases after a second large trace, want still 2", n)
	}
}
