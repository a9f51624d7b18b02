package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// The categories of launch calls and of device work, as Kineto has
// written them (2021's Runtime, Kernel, Memcpy, Memset).
var (
	rawLaunchCats = map[string]bool{"cuda_runtime": true, "Runtime": true, "runtime": true, "cuda_driver": true}
	rawDeviceCats = map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true}
)

// rawQueueLevel is the launch queue of each stream (by the op's tid) of a
// trace's raw JSON at any instant x: launch calls (rawLaunchCats)
// started at or before x, less their device ops started at
// or before x, the two matched by correlation id.
func rawQueueLevel(t *testing.T, evs []rawEvent) func(stream string, x int64) int {
	calls := map[int64]int64{}
	for _, e := range evs {
		if c, ok := argInt(e, "correlation"); ok && e.Ph == "X" && rawLaunchCats[e.Cat] {
			if _, dup := calls[c]; !dup {
				calls[c] = e.Ts
			}
		}
	}
	launch, start := map[string][]int64{}, map[string][]int64{}
	for _, e := range evs {
		if e.Ph != "X" || !rawDeviceCats[e.Cat] {
			continue
		}
		c, ok := argInt(e, "correlation")
		l, linked := calls[c]
		if !ok || !linked {
			continue
		}
		_, tid := e.Pid, e.Tid
		launch[tid] = append(launch[tid], l)
		start[tid] = append(start[tid], e.Ts)
	}
	for k := range launch {
		slices.Sort(launch[k])
		slices.Sort(start[k])
	}
	upTo := func(s []int64, x int64) int { return sort.Search(len(s), func(i int) bool { return s[i] > x }) }
	return func(stream string, x int64) int { return upTo(launch[stream], x) - upTo(start[stream], x) }
}

// checkQueueCounters: every launch-queue counter event of out holds the
// raw queue length of its stream at its time in the source; it returns how
// many there are and the most they hold.
func checkQueueCounters(t *testing.T, src, out string) (n, most int) {
	t.Helper()
	level := rawQueueLevel(t, readRawAny(t, src))
	for _, e := range readRawAny(t, out) {
		if e.Ph != "C" || e.Cat != "tracetab_queue" {
			continue
		}
		_, tid := e.Pid, e.Tid
		var v int
		var args map[string]json.RawMessage
		if err := json.Unmarshal(e.Args, &args); err != nil || len(args) != 1 {
			t.Fatalf("a counter event holds one value, its stream's: %s", e.Args)
		}
		for k, raw := range args {
			if err := json.Unmarshal(raw, &v); err != nil || !strings.HasPrefix(k, "stream ") {
				t.Fatalf("counter event without its stream's value: %s", e.Args)
			}
		}
		if want := level(tid, e.Ts); v != want {
			t.Errorf("stream %s at %d ns: %d queued, the raw count %d", tid, e.Ts, v, want)
		}
		n++
		most = max(most, v)
	}
	return n, most
}

// TestQueueCounters: crop and critical-path --overlay add each stream's
// launch queue as counter events, each equal to the raw count at its time
// (the planted full queue); a crop of a crop replaces them, never doubles.
func TestQueueCounters(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "full.json")
	f, _ := os.Create(src)
	if _, err := gen.Write(f, gen.Config{Steps: 3, Scenario: "fullqueue"}); err != nil {
		t.Fatal(err)
	}
	f.Close()

	crop := filepath.Join(dir, "crop.json")
	out, stderr, code := run(t, "crop", src, "--step", "3", "-o", crop)
	if code != ExitOK || !strings.Contains(out, "launch-queue counter events") {
		t.Fatalf("crop: exit %d %s %s", code, out, stderr)
	}
	n, most := checkQueueCounters(t, src, crop)
	if n < gen.FullQueueLaunches || most < 1024 {
		t.Errorf("crop: %d counter events, at most %d queued", n, most)
	}

	again := filepath.Join(dir, "again.json")
	if _, stderr, code := run(t, "crop", crop, "--step", "3", "-o", again); code != ExitOK {
		t.Fatalf("crop of the crop: exit %d %s", code, stderr)
	}
	n2, _ := checkQueueCounters(t, crop, again)
	if n2 > n {
		t.Errorf("a crop of the crop has %d counter events, the crop %d: doubled", n2, n)
	}

	overlay := filepath.Join(dir, "overlay.json")
	if _, stderr, code := run(t, "critical-path", src, "--overlay", overlay); code != ExitOK || !strings.Contains(stderr, "launch-queue counter events") {
		t.Fatalf("overlay: exit %d %s", code, stderr)
	}
	n, most = checkQueueCounters(t, src, overlay)
	if n < 3*gen.FullQueueLaunches || most < 1024 {
		t.Errorf("overlay: %d counter events, at most %d queued", n, most)
	}
}

// TestQueueCountersShared: on every GPU trace of ../shared/traces, the
// crop of its first 10 s holds counter events equal to the raw count of
// each stream's queue at their times.
func TestQueueCountersShared(t *testing.T) {
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".tar.gz") {
			continue
		}
		t.Run(filepath.Base(f)[:min(40, len(filepath.Base(f)))], func(t *testing.T) {
			// the trace as shared (gzip or not): its raw events are read
			// once for the binary (rawjson)
			out := filepath.Join(t.TempDir(), "crop.json")
			if _, stderr, code := run(t, "crop", f, "--window", "0ns..10s", "-o", out); code != ExitOK {
				t.Skipf("crop: exit %d %s", code, stderr)
			}
			if n, _ := checkQueueCounters(t, f, out); n > 0 {
				checked++
			}
		})
	}
	if checked < 15 {
		t.Errorf("only %d traces had launch-queue counters to check", checked)
	}
}

// readRawAny is readRaw (for a trace object or a bare array of events).
func readRawAny(t *testing.T, path string) []rawEvent { return readRaw(t, path) }
