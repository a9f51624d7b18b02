package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/gen"
)

// TestGCPacerTarget: the pacer's target keeps the heap goal
// (live*(1+target/100), and at least Go's own 4 MB*target/100) at the
// floor or above for a small live heap, never raises Go's least goal
// above the floor, and leaves the base target where twice the live heap
// already passes the floor.
func TestGCPacerTarget(t *testing.T) {
	const floor = 32 << 20
	g := newGCPacer(100, floor)
	goal := func(live uint64, p int) uint64 {
		return max(live*uint64(100+p)/100, runtimeHeapMin*uint64(p)/100)
	}
	for _, live := range []uint64{0, 1, 1 << 20, 3 << 20, 5 << 20, 10 << 20, 15 << 20, 16 << 20, 20 << 20, 64 << 20, 1 << 30} {
		p := g.target(live)
		if p < 100 {
			t.Errorf("live %d: target %d below the base", live, p)
		}
		if runtimeHeapMin*uint64(p)/100 > floor {
			t.Errorf("live %d: target %d raises Go's least goal to %d, above the floor", live, p, runtimeHeapMin*uint64(p)/100)
		}
		if got := goal(live, p); got < floor*99/100 && 2*live < floor {
			t.Errorf("live %d: target %d gives a goal of %d, below the floor %d", live, p, got, floor)
		}
		if 2*live >= floor && p != 100 {
			t.Errorf("live %d: target %d, want the base where the goal passes the floor by itself", live, p)
		}
	}
	var nilPacer *gcPacer
	if got := nilPacer.update(); got != -1 {
		t.Errorf("nil pacer: update = %d, want -1 (no change)", got)
	}
}

// TestManySmallFilesFewCollections: ranks over 48 small ranks (0.7 MB
// each), in the built binary with the runtime's GC trace on, forces no
// collection after a small file and runs at most one collection per six
// files, with one worker and with two (before the heap floor: 96
// collections with one worker, 47 of them forced, and 18 with two; after:
// 3 and 5); both print the same bytes.
func TestManySmallFilesFewCollections(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and writes 34 MB")
	}
	const n = 48
	dir := t.TempDir()
	files := writeRanks(t, dir, gen.Config{Steps: 20, Layers: 4, World: n, Straggler: 30, StragglerDelay: 3_000_000}, seq(n)...)
	t.Setenv("GODEBUG", "gctrace=1")
	var outs [][]byte
	for _, w := range []string{"1", "2"} {
		t.Setenv(workersEnv, w)
		r := runChild(t, time.Minute, "", append([]string{"ranks"}, files...)...)
		if r.code != 0 || !bytes.Contains(r.stdout, []byte("straggler: rank 30")) {
			t.Fatalf("%s workers: exit %d: %s\n%.2000s", w, r.code, r.stdout, r.stderr)
		}
		var gcs, forced int
		for _, l := range strings.Split(r.stderr, "\n") {
			if strings.HasPrefix(l, "gc ") {
				gcs++
				if strings.Contains(l, "(forced)") {
					forced++
				}
			}
		}
		t.Logf("%s workers: %d collections (%d forced) over %d files, peak RSS %d MiB", w, gcs, forced, n, r.rss>>20)
		if gcs == 0 {
			t.Fatalf("%s workers: no gc line on stderr: GODEBUG=gctrace=1 did not reach the child", w)
		}
		if forced > 0 {
			t.Errorf("%s workers: %d forced collections over %d small files, want none", w, forced, n)
		}
		if gcs > n/6 {
			t.Errorf("%s workers: %d collections over %d files, want at most %d", w, gcs, n, n/6)
		}
		outs = append(outs, r.stdout)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Errorf("one and two workers print different bytes")
	}
}
