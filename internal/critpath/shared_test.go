package critpath

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// gpuTraces are the shared traces with device ops.
func gpuTraces(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	var out []string
	for _, f := range files {
		tr := load(t, f)
		if tr.Links().DeviceOps > 0 {
			out = append(out, f)
		}
	}
	if len(out) < 15 {
		t.Fatalf("only %d shared GPU traces", len(out))
	}
	return out
}

// On every shared GPU trace, every step: a path unless the window holds
// nothing with a duration (never a cycle), the breakdown and the edge
// weights add up to it, every event on it is an event of the JSON and the
// weights recomputed from the raw events are its own, and what-if saves
// between 0 and half the name's path time.
func TestSharedInvariants(t *testing.T) {
	t.Parallel()
	var dataLoading, comm int64 // the categories' checks are not vacuous
	defer func() {
		if !t.Failed() && !t.Skipped() && (dataLoading == 0 || comm == 0) {
			t.Errorf("data_loading %d, gpu_comm %d on the shared traces' paths: the category checks saw none", dataLoading, comm)
		}
	}()
	for _, f := range gpuTraces(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tr := load(t, f)
			raw := readRaw(t, f)
			idx := rawIndex(raw)
			r := Analyze(tr, StepWindows(tr), Options{WhatIf: 3, Speedup: 2, Detail: true})
			dl := dataLoaderFrames(raw)
			paths := 0
			for k := range r.Windows {
				w := &r.Windows[k]
				if !w.HasPath {
					if strings.Contains(w.Reason, "cycle") {
						t.Errorf("%s: %s", w.Label, w.Reason)
					}
					continue
				}
				paths++
				var sum, edges int64
				for _, ns := range w.Breakdown {
					sum += ns
				}
				for _, e := range w.Edges {
					edges += e.WeightNs
				}
				if sum != w.PathNs || edges != w.PathNs || w.WallNs < 0 {
					t.Errorf("%s: path %d, breakdown adds up to %d, edges to %d, wall %d", w.Label, w.PathNs, sum, edges, w.WallNs)
				}
				checkAgainstRaw(t, raw, idx, w)
				checkCategories(t, raw, idx, dl, w)
				dataLoading += w.Breakdown[CatDataLoading]
				comm += w.Breakdown[CatGPUComm]
				for _, x := range w.WhatIf {
					if x.SavedNs < 0 || 2*x.SavedNs > x.OnPathNs || x.SavedNs != w.PathNs-x.NewPathNs {
						t.Errorf("%s: what-if %+v", w.Label, x)
					}
				}
			}
			if paths == 0 {
				t.Errorf("no window has a path")
			}
		})
	}
}

// The overlay of every shared GPU trace keeps every event, marks exactly
// the path's events (by name, ts and dur read back with encoding/json),
// adds one s/f pair per launch, sync and dependency edge of the paths, and
// reads back with tracetab's parser.
func TestSharedOverlay(t *testing.T) {
	t.Parallel()
	for _, f := range gpuTraces(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tr := load(t, f)
			r := Analyze(tr, StepWindows(tr), Options{Detail: true})
			checkOverlay(t, f, tr, r)
		})
	}
}

func checkOverlay(t *testing.T, path string, tr *trace.Trace, r *Result) {
	t.Helper()
	src := openText(t, path)
	defer src.Close()
	text, err := parse.Decompressed(src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	queues := gaps.QueueTracks(tr)
	st, err := WriteOverlay(&buf, text, tr, r, queues)
	if err != nil {
		t.Fatal(err)
	}
	want := map[rawKey]int{}
	flows := 0
	for _, w := range r.Windows {
		for _, e := range w.Events {
			if e.OnPath {
				x := tr.Ev(int(e.Index))
				want[rawKey{e.Name, x.Start, x.Dur}]++
			}
		}
		for _, e := range w.Edges {
			if e.Type == EdgeLaunch || e.Type == EdgeSync || e.Type == EdgeDependency {
				flows++
			}
		}
	}
	evs, err := rawjson.Decode(buf.Bytes())
	if err != nil {
		t.Fatalf("the overlay is not JSON: %v", err)
	}
	marked := map[rawKey]int{}
	xs, s, fs, counters := 0, map[string]int{}, map[string]int{}, 0
	for _, e := range evs {
		switch {
		case e.Ph == "X":
			xs++
			if v, _ := e.Arg("critical"); string(v) == "1" {
				marked[rawKey{e.Name, e.Ts, e.Dur}]++
			}
		case e.Cat == "critical_path" && e.Ph == "s":
			s[e.ID]++
		case e.Cat == "critical_path" && e.Ph == "f":
			fs[e.ID]++
		case e.Cat == gaps.QueueCounterCat && e.Ph == "C" && e.Name == gaps.QueueCounterName:
			counters++
		}
	}
	// the launch queues: one counter event per point of each series
	points := 0
	for _, q := range queues {
		points += len(q.Points)
	}
	if counters != points || st.Counters != points || (points == 0) != (tr.Links().LinkedDeviceOps == 0) {
		t.Errorf("%d queue counter events (%d written), want %d", counters, st.Counters, points)
	}
	if len(marked) != len(want) || st.Marked != st.Want {
		t.Errorf("%d events marked (%d written), want %d", len(marked), st.Marked, len(want))
	}
	for k := range want {
		if marked[k] == 0 {
			t.Errorf("path event %q at %d not marked", k.name, k.ts)
			break
		}
	}
	if len(s) != flows || len(fs) != flows || st.Flows != flows {
		t.Errorf("%d flow starts, %d ends, want %d each", len(s), len(fs), flows)
	}
	for id := range s {
		if fs[id] != 1 || s[id] != 1 {
			t.Errorf("flow %s: %d starts, %d ends", id, s[id], fs[id])
			break
		}
	}
	back, err := parse.Read(bytes.NewReader(buf.Bytes()), "overlay", parse.Options{NoExtras: true})
	if err != nil {
		t.Fatalf("tracetab cannot read the overlay: %v", err)
	}
	if back.NumEvents() != tr.NumEvents() || xs < tr.NumEvents() {
		t.Errorf("the overlay holds %d events (%d X in the JSON), the trace %d", back.NumEvents(), xs, tr.NumEvents())
	}
	if os.Getenv("CRITPATH_KEEP_OVERLAY") != "" {
		os.WriteFile(filepath.Join(os.TempDir(), filepath.Base(path)+".overlay.json"), buf.Bytes(), 0o644)
	}
}

// dataLoaderFrames are the raw events named as DataLoader frames, per
// thread as written.
func dataLoaderFrames(raw []rawEvent) map[[2]string][]rawEvent {
	m := map[[2]string][]rawEvent{}
	for _, e := range raw {
		if strings.Contains(e.Name, "DataLoader") || strings.Contains(e.Name, "dataloader.py") && strings.Contains(e.Name, "__next__") {
			m[[2]string{e.Pid, e.Tid}] = append(m[[2]string{e.Pid, e.Tid}], e)
		}
	}
	return m
}

var rawDeviceCats = []string{"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset"}

// checkCategories holds the breakdown to the raw events the path time is
// attributed to: the time of device events (kernels, memcpys, memsets by
// their category as written) is gpu_compute + gpu_comm + kernel_kernel
// (a gap goes to the op before it); the time of the others is cpu +
// data_loading, and data_loading is the time of those inside (or named
// as) a DataLoader frame of their thread.
func checkCategories(t *testing.T, raw []rawEvent, idx map[rawKey][]int, dl map[[2]string][]rawEvent, w *WindowResult) {
	t.Helper()
	var dev, cpu, inDL int64
	for _, e := range w.Events {
		if e.OnPathNs == 0 {
			continue
		}
		m := idx[rawKey{e.Name, e.StartNs + w.Start - w.StartNs, e.DurNs}]
		if len(m) == 0 {
			t.Fatalf("%s: %q is not in the JSON", w.Label, e.Name)
		}
		x := raw[m[0]]
		if slices.Contains(rawDeviceCats, x.Cat) {
			dev += e.OnPathNs
			continue
		}
		cpu += e.OnPathNs
		for _, f := range dl[[2]string{x.Pid, x.Tid}] {
			if f.Ts <= x.Ts && x.Ts+x.Dur <= f.Ts+f.Dur {
				inDL += e.OnPathNs
				break
			}
		}
	}
	b := w.Breakdown
	if dev != b[CatGPUCompute]+b[CatGPUComm]+b[CatKernelKernel] || cpu != b[CatCPU]+b[CatDataLoading] || inDL != b[CatDataLoading] {
		t.Errorf("%s: raw attribution: device %d, CPU %d, in DataLoader frames %d; breakdown %v", w.Label, dev, cpu, inDL, b)
	}
}
