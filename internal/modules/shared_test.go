package modules

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// rawFrame is a module frame as the test reads it from the JSON.
type rawFrame struct {
	thread     string // pid/tid as written
	start, end int64
	name       string
	idx        int // position in the file
	parent     int // index into frames, -1 at the top
	deviceNs   int64
}

// rawTruth is one path's numbers by the test's own reading.
type rawTruth struct {
	occ, host, device int64
}

// launch categories and device-work categories of every era the shared
// traces hold (the test's own list, not the parser's).
var (
	rawLaunchCats = map[string]bool{"cuda_runtime": true, "cuda_driver": true, "Runtime": true, "runtime": true}
	rawDeviceCats = map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true}
)

// readRaw reads the trace with rawjson and computes, per module
// path, the occurrences, host total and device total: a frame's parent is
// the innermost frame of the same thread that contains it (found by
// comparing every pair), and its device time is that of the kernels,
// memcpys and memsets whose launch call (the first runtime or driver call
// with the same args.correlation) is on its thread and starts in [ts,
// ts+dur). Also returns the device time of the whole trace.
func readRaw(t *testing.T, path string) (map[string]rawTruth, int64, int) {
	type call struct {
		thread string
		start  int64
	}
	calls := map[string]call{} // correlation -> first launch call
	type devOp struct {
		corr string
		dur  int64
	}
	var devOps []devOp
	var frames []rawFrame
	var deviceNs int64
	for _, e := range rawjson.MustRead(t, path) {
		if e.Ph != "X" {
			continue
		}
		cat, name := e.Cat, e.Name
		thread := e.Pid + "/" + e.Tid
		ts, dur := e.Ts, max(e.Dur, 0)
		switch {
		case cat == "python_function" && strings.HasPrefix(name, "nn.Module: "):
			frames = append(frames, rawFrame{thread: thread, start: ts, end: ts + dur, name: strings.TrimPrefix(name, "nn.Module: "), idx: e.Index, parent: -1})
		case rawLaunchCats[cat]:
			if c := e.Corr; c != "" {
				if _, seen := calls[c]; !seen {
					calls[c] = call{thread, ts}
				}
			}
		case rawDeviceCats[cat]:
			deviceNs += dur
			devOps = append(devOps, devOp{e.Corr, dur})
		}
	}
	// device time per frame: every launched op against every frame of its
	// thread (frames per thread sorted by start for a binary search bound)
	byThread := map[string][]int{}
	for f := range frames {
		byThread[frames[f].thread] = append(byThread[frames[f].thread], f)
	}
	for _, fs := range byThread {
		slices.SortFunc(fs, func(a, b int) int { return cmp.Compare(frames[a].start, frames[b].start) })
	}
	for _, d := range devOps {
		c, ok := calls[d.corr]
		if d.corr == "" || !ok {
			continue
		}
		fs := byThread[c.thread]
		for _, f := range fs {
			if frames[f].start > c.start {
				break
			}
			if c.start < frames[f].end {
				frames[f].deviceNs += d.dur
			}
		}
	}
	// parents: the innermost containing frame; of two frames with the same
	// span, the one earlier in the file contains the other
	for _, fs := range byThread {
		for _, f := range fs {
			a := &frames[f]
			best := -1
			for _, g := range fs {
				b := &frames[g]
				if g == f || b.start > a.start {
					continue
				}
				inside := b.start <= a.start && a.start < b.end && a.end <= b.end
				if !inside || (b.start == a.start && b.end == a.end && b.idx > a.idx) {
					continue
				}
				if best < 0 {
					best = g
					continue
				}
				c := &frames[best]
				// innermost: the later start, then the earlier end, then later in the file
				if b.start > c.start || (b.start == c.start && (b.end < c.end || (b.end == c.end && b.idx > c.idx))) {
					best = g
				}
			}
			a.parent = best
		}
	}
	truth := map[string]rawTruth{}
	for f := range frames {
		var parts []string
		for g := f; g >= 0; g = frames[g].parent {
			parts = append(parts, frames[g].name)
		}
		slices.Reverse(parts)
		p := strings.Join(parts, "/")
		r := truth[p]
		r.occ++
		r.host += frames[f].end - frames[f].start
		r.device += frames[f].deviceNs
		truth[p] = r
	}
	return truth, deviceNs, len(frames)
}

// TestSharedTracesAgainstRawJSON: on every shared trace with module
// frames, each node's occurrences, host total and device total equal the
// test's own reading of the JSON, self times are totals less the
// children's, and no trace with "nn.Module: " in it goes unchecked.
func TestSharedTracesAgainstRawJSON(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	dir := filepath.Join(testenv.Shared(t), "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json.gz"))
	if len(paths) == 0 {
		t.Fatalf("no traces in %s", dir)
	}
	withModules, checked, nodes, frames := 0, 0, 0, 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(`"nn.Module: `)) {
			continue
		}
		withModules++
		name := filepath.Base(p)
		truth, deviceNs, nFrames := readRaw(t, p)
		data = nil
		tr, _, err := testcache.Open(p, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tree := Build(tr)
		if len(tree.Nodes) == 0 || nFrames == 0 {
			t.Errorf("%s: %d nodes, %d frames by the raw reading", name, len(tree.Nodes), nFrames)
			continue
		}
		if tree.Frames != nFrames {
			t.Errorf("%s: %d frames read, the raw JSON has %d", name, tree.Frames, nFrames)
		}
		if tree.DeviceNs != deviceNs {
			t.Errorf("%s: device time %d ns, the raw JSON %d", name, tree.DeviceNs, deviceNs)
		}
		if len(tree.Nodes) != len(truth) {
			t.Errorf("%s: %d nodes, the raw JSON %d paths", name, len(tree.Nodes), len(truth))
		}
		bad := 0
		var devIn int64
		for i := range tree.Nodes {
			n := &tree.Nodes[i]
			path := tree.Path(i)
			w, ok := truth[path]
			got := rawTruth{n.Occurrences, n.HostTotal, n.DeviceTotal}
			if !ok || got != w {
				if bad++; bad <= 5 {
					t.Errorf("%s: %s: occurrences, host, device %v; the raw JSON %v (found %v)", name, path, got, w, ok)
				}
			}
			var ch, chDev int64
			for _, c := range n.Children {
				ch += tree.Nodes[c].HostTotal
				chDev += tree.Nodes[c].DeviceTotal
			}
			if n.HostSelf != n.HostTotal-ch || n.DeviceSelf != n.DeviceTotal-chDev || n.DeviceSelf < 0 {
				t.Errorf("%s: %s: self times %d, %d; totals less children %d, %d", name, path, n.HostSelf, n.DeviceSelf, n.HostTotal-ch, n.DeviceTotal-chDev)
			}
			if n.Parent < 0 {
				devIn += n.DeviceTotal
			}
		}
		if devIn != tree.DeviceInModulesNs || devIn > tree.DeviceNs {
			t.Errorf("%s: device in modules %d, top-level sum %d, trace %d", name, tree.DeviceInModulesNs, devIn, tree.DeviceNs)
		}
		checked++
		nodes += len(tree.Nodes)
		frames += nFrames
		t.Logf("%s: %d frames, %d nodes, %d threads; device in modules %d of %d ns", name, nFrames, len(tree.Nodes), tree.Threads, tree.DeviceInModulesNs, tree.DeviceNs)
	}
	if checked < withModules || withModules == 0 {
		t.Fatalf("checked %d traces with module frames; %d of the shared traces have them", checked, withModules)
	}
	t.Logf("%d traces with module frames checked: %d frames, %d nodes", checked, frames, nodes)
}
