package info

import (
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawEvent is what the tests read from the JSON themselves (rawjson:
// encoding/json, exact decimal times), independently of tracetab's reader.
type rawEvent = rawjson.Event

func readRaw(t *testing.T, path string) []rawEvent {
	t.Helper()
	return rawjson.MustRead(t, path)
}

func sharedTraces(t *testing.T) []string { return testenv.SharedTraces(t) }

var (
	deviceWorkCat = map[string]bool{"kernel": true, "gpu_memcpy": true, "gpu_memset": true, "Kernel": true, "Memcpy": true, "Memset": true, "mtia_ccp_events": true}
	runtimeCat    = map[string]bool{"cuda_runtime": true, "cuda_driver": true, "Runtime": true}
	// the CUDA/HIP calls that enqueue device work, spelled out
	launchAPI = regexp.MustCompile(`^(cuda|hip|cu)(Ext)?(Module)?(LaunchKernel|LaunchKernelExC|LaunchKernelEx|LaunchCooperativeKernel|GraphLaunch|Memcpy\w*|Memset\w*)(_v\d+)?$`)
	// a step is the CPU annotation (the GPU lane has its own copy)
	cpuStepCat = map[string]bool{"user_annotation": true, "cpu_op": true, "Operator": true}
	stepName   = regexp.MustCompile(`^ProfilerStep#(\d+)$`)
)

// TestInfoAgainstRawEvents: on every shared trace, the origin, the step
// windows, each device's work window and the launch-call counts equal
// what a few lines over the raw JSON compute.
func TestInfoAgainstRawEvents(t *testing.T) {
	checked := map[string]int{}
	for _, path := range sharedTraces(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			tr, _, err := testcache.Open(path, parse.Options{})
			if err != nil {
				t.Fatalf("a shared trace must be readable: %v", err)
			}
			in := Summarize(tr)
			evs := readRaw(t, path)

			// origin: the first Trace event, else the earliest start
			var origin int64
			found, first := false, true
			for _, e := range evs {
				if e.Ph != "X" {
					continue
				}
				if (e.Cat == "Trace" || e.Cat == "trace") && !found {
					origin, found = e.Ts, true
				}
				if ts := e.Ts; !found && (first || ts < origin) {
					origin = ts
				}
				first = false
			}
			if in.OriginNs != origin || (in.Origin == "trace_span") != found {
				t.Errorf("origin %s %d, want %d (Trace event: %v)", in.Origin, in.OriginNs, origin, found)
			}

			// steps
			type win struct{ lo, hi int64 }
			steps := map[int64]win{}
			for _, e := range evs {
				if m := stepName.FindStringSubmatch(e.Name); m != nil && e.Ph == "X" && cpuStepCat[e.Cat] {
					n, _ := strconv.ParseInt(m[1], 10, 64)
					steps[n] = win{e.Ts - origin, e.Dur}
				}
			}
			if len(in.Steps) != len(steps) {
				t.Errorf("%d steps, want %d", len(in.Steps), len(steps))
			}
			for _, s := range in.Steps {
				if w := steps[s.N]; w.lo != s.StartNs || w.hi != s.DurNs {
					t.Errorf("step %d: start %d dur %d, want %d %d", s.N, s.StartNs, s.DurNs, w.lo, w.hi)
				}
			}
			checked["steps"] += len(steps)

			// device work windows per device (pid)
			work := map[string]*win{}
			corrWork := map[string]bool{}
			for _, e := range evs {
				if e.Ph != "X" || !deviceWorkCat[e.Cat] {
					continue
				}
				lo, hi := e.Ts-origin, e.Ts+e.Dur-origin
				k := e.Pid
				if w := work[k]; w == nil {
					work[k] = &win{lo, hi}
				} else {
					w.lo, w.hi = min(w.lo, lo), max(w.hi, hi)
				}
				if e.Corr != "" {
					corrWork[e.Corr] = true
				}
			}
			for _, d := range in.Devices {
				w := work[strconv.Itoa(d.ID)]
				if w == nil {
					if d.WorkStartNs != nil {
						t.Errorf("device %d: work window %d, want none", d.ID, *d.WorkStartNs)
					}
					continue
				}
				if d.WorkStartNs == nil || *d.WorkStartNs != w.lo || *d.WorkEndNs != w.hi {
					t.Errorf("device %d: work %v..%v, want %d..%d", d.ID, d.WorkStartNs, d.WorkEndNs, w.lo, w.hi)
				}
				checked["devices"]++
			}

			// launch calls: named launch APIs and calls with device work
			launches, withWork, runtime := 0, 0, 0
			for _, e := range evs {
				if e.Ph != "X" || !runtimeCat[e.Cat] {
					continue
				}
				runtime++
				linked := e.Corr != "" && corrWork[e.Corr]
				if linked || launchAPI.MatchString(e.Name) {
					launches++
				}
				if linked {
					withWork++
				}
			}
			if in.RuntimeCalls != runtime || in.LaunchCalls != launches || in.LaunchCallsWork != withWork {
				t.Errorf("runtime %d launch %d with work %d; want %d %d %d", in.RuntimeCalls, in.LaunchCalls, in.LaunchCallsWork, runtime, launches, withWork)
			}
			checked["launches"] += launches
		})
	}
	if checked["steps"] == 0 || checked["devices"] == 0 || checked["launches"] == 0 {
		t.Errorf("nothing checked: %v", checked)
	}
	t.Logf("checked %v", checked)
}

// TestInfoZeroDeviceTrace: the trace with launch calls and no device
// events says so, with its own count of launches.
func TestInfoZeroDeviceTrace(t *testing.T) {
	n := 0
	for _, path := range sharedTraces(t) {
		tr, _, err := testcache.Open(path, parse.Options{})
		if err != nil {
			continue
		}
		in := Summarize(tr)
		if len(in.Devices) == 0 && in.LaunchCalls > 0 {
			n++
			if in.LaunchCallsWork != 0 || in.DeviceOps != 0 {
				t.Errorf("%s: no devices but %d launches with work", path, in.LaunchCallsWork)
			}
		}
	}
	if n == 0 {
		t.Error("no shared trace has launches without GPU activity; the zoology trace should")
	}
}

// TestThreadRenameWarning: the warning stays in info where the renamed
// thread is listed with events, and is dropped where it names no listed
// thread.
func TestThreadRenameWarning(t *testing.T) {
	w := func(msg string) []string {
		in := &Info{}
		name := "x"
		tid := int64(1262)
		in.Threads = []Thread{{Tid: &tid, Name: &name, Events: 3}}
		if renamesListedThread(warning(msg), in.Threads) {
			return []string{msg}
		}
		return nil
	}
	if got := w(`thread 1262 is named twice ("a", then "b"); kept the first`); len(got) != 1 {
		t.Error("a listed thread's rename must be kept")
	}
	if got := w(`thread 99 is named twice ("a", then "b"); kept the first`); len(got) != 0 {
		t.Error("the rename of a thread without events changes nothing")
	}
	if !IsThreadRename(warning(`thread 5 is named twice ("a", then "b"); kept the first`)) || IsThreadRename(warning(`process 5 is named twice ("a", then "b"); kept the first`)) {
		t.Error("IsThreadRename must tell thread renames from process renames")
	}
}

func warning(msg string) trace.Warning { return trace.Warning{Key: "dup-meta", Msg: msg} }
