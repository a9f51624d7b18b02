package roofline

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawEvent is an X event of the JSON as the test reads it itself
// (rawjson: encoding/json and none of tracetab's reader).
type rawEvent struct {
	rawjson.Event
	ts  int64 // ns, from the decimal text
	dur int64
}

func (e *rawEvent) end() int64 { return e.ts + e.dur }

// arg is args[k] as compact JSON text, "" when absent.
func (e *rawEvent) arg(k string) string {
	v, ok := e.Arg(k)
	if !ok {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

func (e *rawEvent) intArg(k string) (int64, bool) {
	v, ok := e.Arg(k)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.Trim(string(v), `"`), 10, 64)
	return n, err == nil
}

func (e *rawEvent) isDeviceWork() bool {
	switch e.Cat {
	case "kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset":
		return true
	}
	return false
}

func (e *rawEvent) isOp() bool { return e.Cat == "cpu_op" || e.Cat == "Operator" }

func (e *rawEvent) isRuntime() bool {
	switch e.Cat {
	case "cuda_runtime", "Runtime", "cuda_driver":
		return true
	}
	return false
}

func (e *rawEvent) dims() string {
	if d := e.arg("Input Dims"); d != "" {
		return d
	}
	return e.arg("Input dims")
}

// realTrace is one shared trace with shapes: its raw events and tracetab's
// reading of it, each made once per test binary.
type realTrace struct {
	name string
	raw  []rawEvent
	t    *trace.Trace
	res  *Result
}

var (
	realOnce   sync.Once
	realTraces []*realTrace
	realErrs   []string // a trace that could not be read fails the tests, never drops out
)

// sharedWithShapes reads every shared trace whose events carry Input Dims.
func sharedWithShapes(t *testing.T) []*realTrace {
	t.Helper()
	dir := testenv.Shared(t)
	realOnce.Do(func() {
		files, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan struct{}, 2)
		for _, f := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				rt, err := readReal(f)
				if err != nil {
					mu.Lock()
					realErrs = append(realErrs, fmt.Sprintf("%s: %v", filepath.Base(f), err))
					mu.Unlock()
				}
				if rt == nil {
					return
				}
				mu.Lock()
				realTraces = append(realTraces, rt)
				mu.Unlock()
			}()
		}
		wg.Wait()
		slices.SortFunc(realTraces, func(a, b *realTrace) int { return strings.Compare(a.name, b.name) })
	})
	if len(realErrs) > 0 {
		t.Fatalf("shared traces not read: %s", strings.Join(realErrs, "; "))
	}
	if len(realTraces) == 0 {
		t.Fatal("no shared trace with shapes")
	}
	return realTraces
}

// readReal is the trace at path with its raw events and tracetab's
// reading, or nil when no event carries Input Dims.
func readReal(path string) (*realTrace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
	}
	if !bytes.Contains(data, []byte(`"Input Dims"`)) && !bytes.Contains(data, []byte(`"Input dims"`)) {
		return nil, nil
	}
	evs, err := rawjson.ReadArgs(path)
	if err != nil {
		return nil, err
	}
	var keep []rawEvent
	for _, e := range evs {
		if e.Ph != "X" {
			continue
		}
		keep = append(keep, rawEvent{Event: e, ts: e.Ts, dur: e.Dur})
	}
	tr, _, err := testcache.Open(path, parse.Options{})
	if err != nil {
		return nil, err
	}
	return &realTrace{name: filepath.Base(path), raw: keep, t: tr, res: Compute(tr, Options{})}, nil
}

// rawOwners attributes every device op of the raw events as the roofline
// defines it, computed here from the JSON: the op that launched it (the
// innermost cpu_op around its runtime call on that thread, found through
// the correlation id; in 2021 traces, where a device op's lower-case
// "external id" is the op's "External id", that op), and
// above it the outermost op whose name has a model. It returns, per name
// of such an owner, the device time and the calls (owner events with
// device time), and the total device time.
func rawOwners(evs []rawEvent) (ns, calls map[string]int64, total int64) {
	ns, calls = map[string]int64{}, map[string]int64{}
	type thread struct{ pid, tid string }
	byThread := map[thread][]int{}
	corr := map[int64]int{} // correlation -> runtime call
	extOp := map[int64]int{}
	for i := range evs {
		e := &evs[i]
		switch {
		case e.isOp():
			th := thread{string(e.Pid), string(e.Tid)}
			byThread[th] = append(byThread[th], i)
			if id, ok := e.intArg("External id"); ok {
				extOp[id] = i
			}
		case e.isRuntime():
			th := thread{string(e.Pid), string(e.Tid)}
			byThread[th] = append(byThread[th], i)
			if c, ok := e.intArg("correlation"); ok {
				if _, dup := corr[c]; !dup {
					corr[c] = i
				}
			}
		}
	}
	// owner[i] for a runtime call or op: the outermost modelled op around
	// it (itself included for an op), or -1
	owner := map[int]int{}
	launcher := map[int]int{} // runtime call -> innermost op around it
	for _, idx := range byThread {
		slices.SortStableFunc(idx, func(a, b int) int {
			x, y := &evs[a], &evs[b]
			if x.ts != y.ts {
				return int(x.ts - y.ts)
			}
			return int(y.end() - x.end())
		})
		var stack []int
		for _, i := range idx {
			e := &evs[i]
			for len(stack) > 0 && (e.ts >= evs[stack[len(stack)-1]].end() || e.end() > evs[stack[len(stack)-1]].end()) {
				stack = stack[:len(stack)-1]
			}
			out := -1
			for _, s := range stack {
				if modelOf(evs[s].Name) != nil {
					out = s
					break
				}
			}
			if e.isRuntime() {
				if len(stack) > 0 {
					launcher[i] = stack[len(stack)-1]
				} else {
					launcher[i] = -1
				}
				continue
			}
			if out < 0 && modelOf(e.Name) != nil {
				out = i
			}
			owner[i] = out
			stack = append(stack, i)
		}
	}
	seen := map[int]bool{}
	for i := range evs {
		e := &evs[i]
		if !e.isDeviceWork() {
			continue
		}
		total += e.dur
		op := -1
		if id, ok := e.intArg("external id"); ok {
			if o, ok := extOp[id]; ok {
				op = o
			}
		} else if c, ok := e.intArg("correlation"); ok {
			if r, ok := corr[c]; ok {
				op = launcher[r]
			}
		}
		if op < 0 || owner[op] < 0 {
			continue
		}
		o := owner[op]
		ns[evs[o].Name] += e.dur
		if !seen[o] {
			seen[o] = true
			calls[evs[o].Name]++
		}
	}
	return ns, calls, total
}

// TestDeviceTimeOnce: on every shared trace with shapes, each device op is
// counted in exactly one row (the rows' device time adds up to the sum of
// every kernel, memcpy and memset duration of the raw JSON), and the
// device time and calls of each modelled op equal an attribution made here
// from the raw events: nothing is counted twice through an op's children.
func TestDeviceTimeOnce(t *testing.T) {
	t.Parallel()
	for _, rt := range sharedWithShapes(t) {
		t.Run(rt.name, func(t *testing.T) {
			ns, calls, total := rawOwners(rt.raw)
			var sum int64
			gotNs, gotCalls := map[string]int64{}, map[string]int64{}
			for _, r := range rt.res.Rows {
				sum += r.DeviceNs
				if !r.DeviceOp && modelOf(r.Name) != nil {
					gotNs[r.Name] += r.DeviceNs
					gotCalls[r.Name] += r.Calls
				}
			}
			if sum != total || rt.res.DeviceNs != total {
				t.Errorf("rows hold %d ns, the result %d ns; the raw device ops last %d ns", sum, rt.res.DeviceNs, total)
			}
			for name, want := range ns {
				if gotNs[name] != want || gotCalls[name] != calls[name] {
					t.Errorf("%s: %d ns in %d calls, want %d ns in %d calls", name, gotNs[name], gotCalls[name], want, calls[name])
				}
			}
			for name := range gotNs {
				if _, ok := ns[name]; !ok {
					t.Errorf("%s has a row with %d ns that the raw events give no time", name, gotNs[name])
				}
			}
			t.Logf("%d modelled op names, %d ns of %d ns", len(ns), rt.res.ModelledNs, total)
		})
	}
}
