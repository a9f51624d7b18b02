// Package repotest checks the repository itself: nothing built is tracked.
package repotest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingBuiltTracked fails when git tracks, outside testdata, an
// executable binary (ELF, Mach-O or PE magic, or mode 100755 without #!)
// or a file over 1 MB.
func TestNothingBuiltTracked(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("no .git here: not a checkout")
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-s").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// "100644 <sha> 0\tpath"
		meta, path, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if strings.HasPrefix(path, "testdata/") || strings.Contains(path, "/testdata/") {
			continue
		}
		n++
		full := filepath.Join(root, path)
		st, err := os.Stat(full)
		if err != nil {
			continue // deleted in the work tree
		}
		if st.Size() > 1<<20 {
			t.Errorf("%s is tracked and %d bytes (over 1 MB) outside testdata", path, st.Size())
		}
		head := make([]byte, 4)
		f, err := os.Open(full)
		if err != nil {
			continue
		}
		f.Read(head)
		f.Close()
		for _, magic := range [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, {'M', 'Z'}} {
			if bytes.HasPrefix(head, magic) {
				t.Errorf("%s is a tracked executable binary", path)
			}
		}
		if strings.HasPrefix(meta, "100755") && !bytes.HasPrefix(head, []byte("#!")) {
			t.Errorf("%s is tracked as executable but is not a script", path)
		}
	}
	if n < 50 {
		t.Fatalf("only %d tracked files seen; git ls-files did not list the repository", n)
	}
}
