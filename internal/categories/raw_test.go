package categories

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/rawjson"
)

// rawOp is a kernel, memcpy or memset as the test reads it from the JSON.
type rawOp struct {
	cat, name, corr string
	ts, dur, launch int64 // launch: its launch call's start, or its own start without one
}

// rawStep is a ProfilerStep#N window as written.
type rawStep struct {
	name       string
	start, end int64
}

// rawTrace is the test's own reading of a trace.
type rawTrace struct {
	ops   []rawOp
	steps []rawStep
}

// The launch and device-work categories of every era the shared traces
// hold (the test's own lists, not the parser's).
var (
	rawLaunchCats = map[string]bool{"cuda_runtime": true, "cuda_driver": true, "Runtime": true, "runtime": true}
	rawDeviceCats = map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true}
	rawKernelCats = map[string]bool{"kernel": true, "Kernel": true}
)

// readRaw is the test's own reading of the trace's JSON (decoded by
// rawjson): every X event named ProfilerStep#N off the GPU lanes is a step
// window, and every kernel, memcpy and memset gets the start of its launch
// call (the first runtime or driver call with the same args.correlation)
// or, without one, its own.
func readRaw(t *testing.T, path string) rawTrace {
	var r rawTrace
	launch := map[string]int64{}
	for _, e := range rawjson.MustRead(t, path) {
		if e.Ph != "X" {
			continue
		}
		cat, name, corr := e.Cat, e.Name, e.Corr
		ts, dur := e.Ts, max(e.Dur, 0)
		switch {
		case strings.HasPrefix(name, "ProfilerStep#") && !strings.HasPrefix(cat, "gpu_"):
			r.steps = append(r.steps, rawStep{name, ts, ts + dur})
		case rawLaunchCats[cat] && corr != "":
			if _, seen := launch[corr]; !seen {
				launch[corr] = ts
			}
		case rawDeviceCats[cat]:
			r.ops = append(r.ops, rawOp{cat: cat, name: name, corr: corr, ts: ts, dur: dur})
		}
	}
	for k := range r.ops {
		o := &r.ops[k]
		o.launch = o.ts
		if l, ok := launch[o.corr]; ok && o.corr != "" {
			o.launch = l
		}
	}
	return r
}

// stepOf is the step window holding ts: of two that hold it, the one that
// started later; "" when none does.
func (r *rawTrace) stepOf(ts int64) string {
	best := -1
	for k, s := range r.steps {
		if s.start <= ts && ts < s.end && (best < 0 || s.start >= r.steps[best].start) {
			best = k
		}
	}
	if best < 0 {
		return ""
	}
	return r.steps[best].name
}
