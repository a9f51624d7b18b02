package binpages

import (
	"os"
	"strconv"
	"strings"
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
	// still running, and able to release again
	Release()
	if s := strconv.Itoa(42); s != "42" {
		t.Fatal(s)
	}
}

func TestExeMappings(t *testing.T) {
	maps := `00400000-00e38000 r-xp 00000000 fd:01 1234  /opt/my tools/tracetab
00e38000-018f3000 r--p 00a38000 fd:01 1234  /opt/my tools/tracetab
018f3000-019da000 rw-p 014f3000 fd:01 1234  /opt/my tools/tracetab
019da000-03a25000 rw-p 00000000 00:00 0 
7f0000000000-7f0000001000 r--p 00000000 fd:01 99  /usr/lib/other.so
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0  [stack]
garbage line
`
	got := exeMappings([]byte(maps), 0x500000)
	if len(got) != 3 {
		t.Fatalf("%d mappings of the executable, want 3: %+v", len(got), got)
	}
	if got[0].writable || got[1].writable || !got[2].writable {
		t.Errorf("writable flags: %+v", got)
	}
	if got[1].lo != 0xe38000 || got[1].hi != 0x18f3000 {
		t.Errorf("range: %+v", got[1])
	}
	// an address in an anonymous mapping (inode 0) names no file
	if got := exeMappings([]byte(maps), 0x19da100); got != nil {
		t.Errorf("anonymous mapping: %+v", got)
	}
	if got := exeMappings([]byte(maps), 0x1); got != nil {
		t.Errorf("unmapped address: %+v", got)
	}
}
