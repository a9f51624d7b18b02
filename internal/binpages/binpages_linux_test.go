package binpages

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// rssFile is the process's RssFile in KiB (/proc/self/status).
func rssFile(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("RssFile: %q", line)
			}
			return n
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// The test binary's own pages are mapped once its packages are
// initialised; Release unmaps them, and the process goes on (its code
// mapped again as it runs).
func TestReleaseLowersRssFile(t *testing.T) {
	before := rssFile(t)
	Release()
	after := rssFile(t)
	if after >= before {
		t.Fatalf("RssFile %d KiB before Release, %d after: nothing released", before, after)
	}
	t.Logf("RssFile %d -> %d KiB", before, after)
	Release()
	if s := strconv.Itoa(42); s != "42" {
		t.Fatal(s)
	}
}

// A read-only private mapping holding a page the process wrote (as a
// dynamically linked program's relocated data, RELRO, is) is not dropped:
// its bytes stay the written ones. A clean one of the same file is.
func TestWrittenPagesKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	page := os.Getpagesize()
	if err := os.WriteFile(path, make([]byte, 2*page), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	written, err := syscall.Mmap(int(f.Fd()), 0, page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(written)
	written[0] = 42
	if err := syscall.Mprotect(written, syscall.PROT_READ); err != nil {
		t.Fatal(err)
	}
	clean, err := syscall.Mmap(int(f.Fd()), int64(page), page, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(clean)
	_ = clean[0] // mapped
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	all := parseSmaps(b)
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	var mine []mapping
	for _, m := range all {
		if m.inode == st.Ino {
			mine = append(mine, m)
		}
	}
	if len(mine) != 2 {
		t.Fatalf("%d mappings of the file in smaps, want 2: %+v", len(mine), mine)
	}
	var nClean int
	for _, m := range mine {
		if m.clean() {
			nClean++
		}
	}
	if nClean != 1 {
		t.Fatalf("%d clean mappings, want 1 (the written one is not): %+v", nClean, mine)
	}
	drop(all, mine[0].dev, st.Ino)
	if written[0] != 42 {
		t.Fatalf("the written page was dropped: byte %d, want 42", written[0])
	}
}

func TestParseSmaps(t *testing.T) {
	smaps := `00400000-00e38000 r-xp 00000000 fd:01 1234  /opt/my tools/tracetab
Size:              10464 kB
Anonymous:             0 kB
00e38000-018f3000 r--p 00a38000 fd:01 1234  /opt/my tools/tracetab
Anonymous:             8 kB
018f3000-019da000 rw-p 014f3000 fd:01 1234  /opt/my tools/tracetab
Anonymous:           120 kB
019da000-03a25000 rw-p 00000000 00:00 0 
Anonymous:           108 kB
garbage line
`
	all := parseSmaps([]byte(smaps))
	if len(all) != 4 {
		t.Fatalf("%d mappings, want 4: %+v", len(all), all)
	}
	if !all[0].clean() || all[1].clean() || all[2].clean() {
		t.Errorf("clean: text %v, written read-only data %v, data %v; want true, false, false", all[0].clean(), all[1].clean(), all[2].clean())
	}
	if dev, ino, ok := fileAt(all, 0x500000); !ok || dev != "fd:01" || ino != 1234 {
		t.Errorf("fileAt text: %q %d %v", dev, ino, ok)
	}
	if _, _, ok := fileAt(all, 0x19da100); ok {
		t.Error("an anonymous mapping named a file")
	}
	if _, _, ok := fileAt(all, 0x1); ok {
		t.Error("an unmapped address named a file")
	}
	// maps alone (no Anonymous lines): nothing is known clean
	for _, m := range parseSmaps([]byte("00400000-00e38000 r-xp 00000000 fd:01 1234 /x\n")) {
		if m.clean() {
			t.Error("a mapping without smaps' counts is clean")
		}
	}
}
