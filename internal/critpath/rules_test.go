package critpath

import (
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// pathOf analyses a hand-written trace (times in us) as one window over
// everything and returns its window result.
func pathOf(t *testing.T, events ...string) WindowResult {
	t.Helper()
	src := `{"traceEvents": [` + strings.Join(events, ",\n") + `]}`
	tr, err := parse.Read(strings.NewReader(src), "rules", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(tr, []Window{WholeTrace(tr)}, Options{Detail: true})
	if !r.Windows[0].HasPath {
		t.Fatal(r.Windows[0].Reason)
	}
	return r.Windows[0]
}

func onPath(w WindowResult) []string {
	var out []string
	for _, e := range w.Events {
		if e.OnPath {
			out = append(out, e.Name)
		}
	}
	return out
}

func want(t *testing.T, w WindowResult, pathUs int64, names ...string) {
	t.Helper()
	if w.PathNs != pathUs*1000 || !slices.Equal(onPath(w), names) {
		t.Errorf("path %d ns over %q; want %d us over %q", w.PathNs, onPath(w), pathUs, names)
	}
}

// The runtime lock: a cudaLaunchKernel on one thread holds up a
// cudaHostAlloc on another (the lock passes at the launch's end), so the
// launch's thread is on the path of the thread that waited; as in HTA the
// waiting call's own duration is not counted.
func TestRuleRuntimeLock(t *testing.T) {
	t.Parallel()
	w := pathOf(t,
		`{"ph": "X", "cat": "cpu_op", "name": "X", "pid": 1, "tid": 2, "ts": 0, "dur": 35}`,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 20, "dur": 10}`,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaHostAlloc", "pid": 1, "tid": 1, "ts": 25, "dur": 75}`,
		`{"ph": "X", "cat": "cpu_op", "name": "Y", "pid": 1, "tid": 1, "ts": 110, "dur": 90}`)
	want(t, w, 120, "X", "cudaLaunchKernel", "cudaHostAlloc", "Y")
}

// The autograd thread is read as part of the forward thread: the
// backward op follows the forward one on the path.
func TestRuleAutogradThread(t *testing.T) {
	t.Parallel()
	w := pathOf(t,
		`{"ph": "X", "cat": "user_annotation", "name": "## forward ##", "pid": 1, "tid": 1, "ts": 0, "dur": 100}`,
		`{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 80}`,
		`{"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: MmBackward0", "pid": 1, "tid": 2, "ts": 120, "dur": 80}`)
	want(t, w, 160, "aten::mm", "autograd::engine::evaluate_function: MmBackward0")
	// two forward threads: no merge, the longer op alone
	w = pathOf(t,
		`{"ph": "X", "cat": "cpu_op", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 100}`,
		`{"ph": "X", "cat": "cpu_op", "name": "forward", "pid": 1, "tid": 3, "ts": 0, "dur": 50}`,
		`{"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: MmBackward0", "pid": 1, "tid": 2, "ts": 120, "dur": 80}`)
	want(t, w, 100, "forward")
}

// cudaEventSynchronize waits for the op launched last on the recorded
// stream before the cudaEventRecord its Event Sync names.
func TestRuleEventSync(t *testing.T) {
	t.Parallel()
	w := pathOf(t,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 10, "args": {"correlation": 1}}`,
		`{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 25, "dur": 500, "args": {"correlation": 1}}`,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 30, "dur": 10, "args": {"correlation": 2}}`,
		`{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 20, "ts": 45, "dur": 300, "args": {"correlation": 2}}`,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 1, "tid": 1, "ts": 50, "dur": 3, "args": {"correlation": 3}}`,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaEventSynchronize", "pid": 1, "tid": 1, "ts": 60, "dur": 470, "args": {"correlation": 4}}`,
		`{"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": -1, "ts": 526, "dur": 2, "args": {"correlation": 4, "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 3}}`,
		`{"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 540, "dur": 20}`)
	// the event was recorded on stream 7 after k1 and k2 (stream 20) was
	// launched: the path is k1, then the call that waited for it, then the
	// op after it (launch 15 + k1 500 + aten::relu 20 us)
	want(t, w, 535, "cudaLaunchKernel", "k1", "cudaEventSynchronize", "aten::relu")
	if len(w.Syncs) != 1 || w.Syncs[0].Kind != SyncEvent || !w.Syncs[0].OnPath || w.Syncs[0].From.Name != "k1" {
		t.Errorf("sync edges %+v", w.Syncs)
	}
}

// The device ops of a graph launch are launched by it: the first takes the
// launch edge, the others follow on the stream.
func TestRuleGraphLaunch(t *testing.T) {
	t.Parallel()
	w := pathOf(t,
		`{"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 1, "tid": 1, "ts": 10, "dur": 10, "args": {"correlation": 5}}`,
		`{"ph": "X", "cat": "kernel", "name": "g1", "pid": 0, "tid": 7, "ts": 30, "dur": 100, "args": {"correlation": 5}}`,
		`{"ph": "X", "cat": "kernel", "name": "g2", "pid": 0, "tid": 7, "ts": 131, "dur": 100, "args": {"correlation": 5}}`,
		`{"ph": "X", "cat": "kernel", "name": "g3", "pid": 0, "tid": 7, "ts": 232, "dur": 100, "args": {"correlation": 5}}`)
	want(t, w, 322, "cudaGraphLaunch", "g1", "g2", "g3")
	var types []string
	for _, e := range w.Edges {
		types = append(types, e.Type.String())
	}
	if !slices.Equal(types, []string{"launch", "operator", "kernel_kernel", "operator", "kernel_kernel", "operator"}) {
		t.Errorf("edges %v", types)
	}
}

// An event that starts inside another and ends after it is not its child
// (the later one follows at depth 0), and the negative link between them
// counts 0.
func TestRuleOutlastingChild(t *testing.T) {
	t.Parallel()
	w := pathOf(t,
		`{"ph": "X", "cat": "cpu_op", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 50}`,
		`{"ph": "X", "cat": "cpu_op", "name": "B", "pid": 1, "tid": 1, "ts": 40, "dur": 30}`)
	want(t, w, 80, "A", "B")
}

// --steps A-B is one window from #A's start to #B's end; an annotation's
// instances I-J run from the I-th's start to the latest end of I..J.
func TestWindows(t *testing.T) {
	t.Parallel()
	tr := load(t, "../../testdata/sample.pt.trace.json")
	steps := tr.StepWindows()
	w, ok := StepRangeWindow(tr, 3, 4)
	if !ok || w.Start != steps[1].Start || w.End != steps[2].End || !w.HasSteps {
		t.Errorf("steps 3-4: %+v, steps %+v", w, steps)
	}
	if _, ok := StepRangeWindow(tr, 7, 9); ok {
		t.Error("steps 7-9 found in a trace of steps 2-5")
	}
	a, err := AnnotationWindow(tr, "ProfilerStep", 1, 2)
	if err != nil || a.Start != steps[1].Start || a.End != steps[2].End {
		t.Errorf("ProfilerStep instances 1-2: %+v %v", a, err)
	}
	if _, err := AnnotationWindow(tr, "ProfilerStep", 4, 4); err == nil {
		t.Error("instance 4 of 4 steps")
	}
}

// Without Detail (the text view) the sums, names, syncs and what-ifs are
// those of the detailed analysis.
func TestDetailSameTotals(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"../../testdata/sample.pt.trace.json", sharedTrace(t, alexnet),
		sharedTrace(t, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz")} {
		tr := load(t, f)
		a := Analyze(tr, StepWindows(tr), Options{WhatIf: 3, Speedup: 2, Detail: true})
		b := Analyze(tr, StepWindows(tr), Options{WhatIf: 3, Speedup: 2})
		if !slices.Equal(a.Names, b.Names) || !slices.Equal(a.PathSyncs, b.PathSyncs) || a.TotalBreakdown != b.TotalBreakdown ||
			!slices.Equal(a.WhatIfMedians, b.WhatIfMedians) || a.MedianPathNs != b.MedianPathNs {
			t.Errorf("%s: totals differ with and without detail", f)
		}
		for k := range a.Windows {
			x, y := a.Windows[k], b.Windows[k]
			if x.PathNs != y.PathNs || x.OnPathEvents != y.OnPathEvents || !slices.Equal(x.WhatIf, y.WhatIf) || len(y.Edges) != 0 {
				t.Errorf("%s %s: windows differ with and without detail", f, x.Label)
			}
		}
	}
}
