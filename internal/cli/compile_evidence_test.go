package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

var cxCache struct {
	sync.Mutex
	m map[string][]cxEv
}

// cxShared reads a shared trace's raw events once per test binary.
func cxShared(t *testing.T, path string) []cxEv {
	t.Helper()
	cxCache.Lock()
	defer cxCache.Unlock()
	if evs, ok := cxCache.m[path]; ok {
		return evs
	}
	evs := cxRawEvents(t, path)
	if cxCache.m == nil {
		cxCache.m = map[string][]cxEv{}
	}
	cxCache.m[path] = evs
	return evs
}

type cxCaptureOut struct {
	Schema    string `json:"schema"`
	GraphOnly bool   `json:"graph_only"`
	Captures  struct {
		Windows []struct {
			From     string `json:"from"`
			StartNs  int64  `json:"start_ns"`
			Launches int    `json:"launch_calls"`
			Captured int    `json:"captured_launches"`
			Ops      []struct {
				Name     string `json:"name"`
				Launches int    `json:"launches"`
			} `json:"ops"`
		} `json:"windows"`
		NoDeviceOp int `json:"launch_calls_without_device_op"`
		InfoCalls  int `json:"capture_info_calls"`
	} `json:"captures"`
	Recompiles []struct {
		Name          string `json:"name"`
		Frame         int    `json:"frame"`
		Compile       int    `json:"compile"`
		Calls         int    `json:"calls"`
		FirstCallNs   int64  `json:"first_call_ns"`
		Step          *int64 `json:"step"`
		CompileWorkNs int64  `json:"compile_work_ns"`
		Reason        *string
	} `json:"recompiles"`
	Kernels []struct {
		Name     string `json:"name"`
		Count    int    `json:"count"`
		MedianNs int64  `json:"median_ns"`
	} `json:"kernels"`
}

var rawCaptureNote = regexp.MustCompile(`(?i)^capture|[_ ]capture`)

// rawCaptures counts from raw events what a capture is: windows from
// cudaStreamBeginCapture to cudaStreamEndCapture on one thread (else
// capture annotations); in each, the kernel launch calls on that thread
// with no device op of their correlation id in the trace; and such launch
// calls in the whole trace.
func rawCaptures(evs []cxEv) (windows, captured []int, noOp int) {
	dev := map[int64]bool{}
	for _, e := range evs {
		switch e.Cat {
		case "kernel", "gpu_memcpy", "gpu_memset", "cuda_sync", "cuda_profiler_range":
			if e.HasCorr {
				dev[e.Corr] = true
			}
		}
	}
	isKernelLaunch := func(e cxEv) bool {
		return e.IsLaunch && (strings.Contains(e.Name, "LaunchKernel") || strings.Contains(e.Name, "LaunchCooperativeKernel")) && !strings.Contains(e.Name, "GraphLaunch")
	}
	type win struct {
		tid    string
		lo, hi int64
	}
	var ws, notes []win
	open := map[string]int64{}
	for _, e := range evs {
		switch {
		case e.IsLaunch && (strings.HasPrefix(e.Name, "cudaStreamBeginCapture") || strings.HasPrefix(e.Name, "hipStreamBeginCapture")):
			open[e.Tid] = e.Ts
		case e.IsLaunch && (strings.HasPrefix(e.Name, "cudaStreamEndCapture") || strings.HasPrefix(e.Name, "hipStreamEndCapture")):
			if lo, ok := open[e.Tid]; ok {
				ws = append(ws, win{e.Tid, lo, e.end()})
				delete(open, e.Tid)
			}
		case e.Cat == "user_annotation" && rawCaptureNote.MatchString(e.Name):
			notes = append(notes, win{e.Tid, e.Ts, e.end()})
		case isKernelLaunch(e) && !dev[e.Corr]:
			noOp++
		}
	}
	if len(ws) == 0 {
		ws = notes
	}
	for _, w := range ws {
		n, c := 0, 0
		for _, e := range evs {
			if e.Tid == w.tid && isKernelLaunch(e) && w.lo <= e.Ts && e.Ts < w.hi {
				n++
				if !e.HasCorr || !dev[e.Corr] {
					c++
				}
			}
		}
		windows, captured = append(windows, n), append(captured, c)
	}
	return windows, captured, noOp
}

// TestCompileCaptureGenerated: a generated trace that captures a CUDA
// graph of 12 launches and replays it in every step: one capture window
// with 12 captured launches by aten::mm and aten::add (as the generator
// wrote and the raw JSON shows), the replays, and the kernel table titled
// for graph replays.
func TestCompileCaptureGenerated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "capture.json")
	fh, _ := os.Create(path)
	f, err := gen.Write(fh, gen.Config{Steps: 3, Capture: 12})
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	var c cxCaptureOut
	runJSON(t, &c, "compile", "--format", "json", path)
	wins, capt, noOp := rawCaptures(cxRawEvents(t, path))
	if len(c.Captures.Windows) != 1 || len(wins) != 1 || c.Captures.Windows[0].Captured != capt[0] || capt[0] != f.CapturedLaunches || f.CapturedLaunches != 12 ||
		c.Captures.Windows[0].Launches != wins[0] || c.Captures.NoDeviceOp != noOp {
		t.Fatalf("captures %+v; raw windows %v captured %v without device op %d; generator %d", c.Captures, wins, capt, noOp, f.CapturedLaunches)
	}
	ops := map[string]int{}
	for _, o := range c.Captures.Windows[0].Ops {
		ops[o.Name] = o.Launches
	}
	if ops["aten::mm"] != 6 || ops["aten::add"] != 6 || !c.GraphOnly {
		t.Errorf("ops %v, graph only %v", ops, c.GraphOnly)
	}
	text, stderr, code := run(t, "compile", "--width", "80", path)
	flat := strings.Join(strings.Fields(text), " ")
	if code != 0 || !strings.Contains(flat, "Kernels replayed by CUDA graphs") || !strings.Contains(flat, "12 kernel launches captured") || strings.Contains(flat, "Kernels of compiled code") {
		t.Errorf("exit %d\n%s\n%s", code, text, stderr)
	}
	assertFits(t, text, 80)
}

// checkWidth fails on a line wider than w columns.
func assertFits(t *testing.T, text string, w int) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > w {
			t.Errorf("a line of %d columns (> %d): %q", n, w, l)
		}
	}
}

// TestCompileCaptureShared: on the shared compiled traces and those that
// call cudaStreamGetCaptureInfo from eager code (NCCL asks whether a
// stream captures), the capture windows and the kernel launch calls with
// no device op equal the raw count: none holds a cudaStreamBeginCapture or
// a capture annotation, so none is reported as a capture.
func TestCompileCaptureShared(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	for _, name := range append(append([]string(nil), cxCompiledShared...),
		"HTA__nccl_parser_config__nccl_data.json.gz", "HTA__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz") {
		path := filepath.Join(dir, name)
		var c cxCaptureOut
		runJSON(t, &c, "compile", "--format", "json", path)
		wins, capt, noOp := rawCaptures(cxShared(t, path))
		if len(c.Captures.Windows) != len(wins) || c.Captures.NoDeviceOp != noOp {
			t.Errorf("%s: %d windows, %d launch calls without device op; raw %d %v, %d", name, len(c.Captures.Windows), c.Captures.NoDeviceOp, len(wins), capt, noOp)
		}
		t.Logf("%s: %d capture info calls, %d kernel launch calls without device op", name, c.Captures.InfoCalls, noOp)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestCompileRecompiles: the b200 trace's recompile (0/1) and a generated
// one: the recompiled region, its calls and first call from the raw JSON,
// the compile work before it, and no reason claimed (the trace has none).
func TestCompileRecompiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recompile.json")
	fh, _ := os.Create(path)
	f, err := gen.Write(fh, gen.Config{Steps: 4, Variant: "triton", RecompileAt: 4})
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	var c cxCaptureOut
	runJSON(t, &c, "compile", "--format", "json", path)
	if len(c.Recompiles) != 1 || c.Recompiles[0].Compile != 1 || c.Recompiles[0].Calls != 2 || c.Recompiles[0].Step == nil || *c.Recompiles[0].Step != 4 ||
		c.Recompiles[0].CompileWorkNs != f.RecompileNs || c.Recompiles[0].Reason != nil {
		t.Errorf("generated: %+v (compile work %d)", c.Recompiles, f.RecompileNs)
	}
	real := filepath.Join(testenv.Shared(t), "traces", "TraceLens__b200__eager_trace.json.gz")
	runJSON(t, &c, "compile", "--format", "json", real)
	evs := cxShared(t, real)
	origin, first, calls := int64(-1), int64(-1), 0
	for _, e := range evs {
		if e.Cat == "Trace" && origin < 0 {
			origin = e.Ts
		}
		if e.Name == "Torch-Compiled Region: 0/1" {
			calls++
			if first < 0 || e.Ts < first {
				first = e.Ts
			}
		}
	}
	if origin < 0 {
		origin = evs[0].Ts
		for _, e := range evs {
			origin = min(origin, e.Ts)
		}
	}
	if len(c.Recompiles) != 1 || c.Recompiles[0].Name != "Torch-Compiled Region: 0/1" || c.Recompiles[0].Calls != calls || c.Recompiles[0].FirstCallNs != first-origin {
		t.Errorf("b200: %+v; raw %d calls, first at %d", c.Recompiles, calls, first-origin)
	}
}

// TestCompileMedianAgreesWithTable: the median of a kernel in compile is
// the median table --by kernel prints for it (issue 19: 1.875 ms against
// 1.974 ms for the same two calls), on the shared compiled traces.
func TestCompileMedianAgreesWithTable(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	compared := 0
	for _, name := range []string{"TraceLens__torch_compile_triton__trace.json.gz", "TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz"} {
		path := filepath.Join(dir, name)
		var c cxCaptureOut
		runJSON(t, &c, "compile", "--format", "json", path)
		var k struct {
			Kernels []struct {
				Name     string `json:"name"`
				Calls    int    `json:"calls"`
				MedianNs int64  `json:"median_ns"`
			} `json:"kernels"`
		}
		runJSON(t, &k, "table", "--by", "kernel", "--format", "json", "--limit", "-1", path)
		byName := map[string]int{}
		for i, x := range k.Kernels {
			byName[x.Name] = i
		}
		for _, x := range c.Kernels {
			i, ok := byName[x.Name]
			if !ok || k.Kernels[i].Calls != x.Count {
				continue // compile counts only the kernel's instances in compiled code
			}
			compared++
			if k.Kernels[i].MedianNs != x.MedianNs {
				t.Errorf("%s: compile's median %d ns, table's %d ns", x.Name, x.MedianNs, k.Kernels[i].MedianNs)
			}
		}
	}
	if compared < 10 {
		t.Errorf("only %d kernels compared", compared)
	}
	t.Logf("%d kernels: compile's median equals table --by kernel's", compared)
}

// TestCompileHeadlineShared: HTA's control/test pair (eager against
// CompiledFunction with CUDA graphs): "the GEMM" of the closing sentence is
// a GEMM library kernel by its launching op or name, never a split-K
// reduction, epilogue or matrix-vector helper, the one of most eager time
// among those; its medians are the raw medians of its durations in the
// compared steps; no collective is listed as what stayed, and the
// collectives both run are listed under communication with the raw counts.
func TestCompileHeadlineShared(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	eager, comp := filepath.Join(dir, "HTA__trace_diff__control__control.json.gz"), filepath.Join(dir, "HTA__trace_diff__test__test.json.gz")
	type st struct {
		Name             string  `json:"name"`
		Family           *string `json:"family"`
		EagerCount       int     `json:"eager_count"`
		CompiledCount    int     `json:"compiled_count"`
		EagerTotalNs     int64   `json:"eager_total_ns"`
		EagerMedianNs    int64   `json:"eager_median_ns"`
		CompiledMedianNs int64   `json:"compiled_median_ns"`
	}
	var c struct {
		Paired        []int64 `json:"paired_steps"`
		Stayed        []st    `json:"stayed"`
		Communication []st    `json:"communication"`
		Headline      *st     `json:"headline"`
		Sentence      string  `json:"sentence"`
	}
	runJSON(t, &c, "compile", "--format", "json", eager, comp)
	helper := regexp.MustCompile(`(?i)splitk|reduce|reduction|epilogue|gemv`)
	base := func(n string) string {
		n = strings.TrimPrefix(n, "void ")
		if i := strings.IndexAny(n, "<("); i > 0 {
			n = n[:i]
		}
		return n
	}
	h := c.Headline
	if h == nil || h.Family == nil || *h.Family != "gemm" || helper.MatchString(base(h.Name)) {
		t.Fatalf("headline %+v", h)
	}
	for _, s := range c.Stayed {
		if rawComm.MatchString(s.Name) {
			t.Errorf("a collective under what stayed: %s", s.Name)
		}
		if s.Family != nil && *s.Family == "gemm" && !helper.MatchString(base(s.Name)) && s.EagerTotalNs > h.EagerTotalNs {
			t.Errorf("%s (%d ns eager) is a GEMM with more time than the headline %s", s.Name, s.EagerTotalNs, h.Name)
		}
	}
	// the raw medians of the headline kernel in the paired steps, by the
	// step of its launch call
	rawDurs := func(path string) (durs []int64, comm map[string]int) {
		evs := cxShared(t, path)
		type win struct{ lo, hi int64 }
		var steps []win
		launch := map[int64]int64{}
		for _, e := range evs {
			if n, ok := strings.CutPrefix(e.Name, "ProfilerStep#"); ok && e.IsCPU {
				for _, p := range c.Paired {
					if n == strconv.FormatInt(p, 10) {
						steps = append(steps, win{e.Ts, e.end()})
					}
				}
			}
			if e.IsLaunch && e.HasCorr {
				if _, ok := launch[e.Corr]; !ok {
					launch[e.Corr] = e.Ts
				}
			}
		}
		comm = map[string]int{}
		for _, e := range evs {
			if !e.IsKernel {
				continue
			}
			at := e.Ts
			if l, ok := launch[e.Corr]; ok && e.HasCorr {
				at = l
			}
			in := false
			for _, w := range steps {
				in = in || (w.lo <= at && at < w.hi)
			}
			if !in {
				continue
			}
			if e.Name == h.Name {
				durs = append(durs, e.Dur)
			}
			if rawComm.MatchString(e.Name) {
				comm[e.Name]++
			}
		}
		return durs, comm
	}
	ed, ec := rawDurs(eager)
	cd, cc := rawDurs(comp)
	if h.EagerMedianNs != rawMedian(ed) || h.CompiledMedianNs != rawMedian(cd) {
		t.Errorf("headline medians %d/%d, raw %d/%d", h.EagerMedianNs, h.CompiledMedianNs, rawMedian(ed), rawMedian(cd))
	}
	var both []string
	for n := range ec {
		if cc[n] > 0 {
			both = append(both, n)
		}
	}
	sort.Strings(both)
	if len(c.Communication) != len(both) || len(both) == 0 {
		t.Fatalf("communication %+v, raw %v", c.Communication, both)
	}
	for _, s := range c.Communication {
		if s.EagerCount != ec[s.Name] || s.CompiledCount != cc[s.Name] {
			t.Errorf("%s: %d/%d, raw %d/%d", s.Name, s.EagerCount, s.CompiledCount, ec[s.Name], cc[s.Name])
		}
	}
	if !strings.Contains(c.Sentence, "the GEMM is the same kernel") {
		t.Errorf("sentence %q", c.Sentence)
	}
	t.Logf("the GEMM: %s", h.Name)
}

// TestCompileWidth: the default text of compile and of the comparison fits
// 80 columns with --width 80 on shared traces.
func TestCompileWidth(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	for _, args := range [][]string{
		{filepath.Join(dir, "TraceLens__b200__eager_trace.json.gz")},
		{filepath.Join(dir, "TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz")},
		{filepath.Join(dir, "HTA__negative_queue_length_values_check__rank0.json.gz")},
		{filepath.Join(dir, "HTA__trace_diff__control__control.json.gz"), filepath.Join(dir, "HTA__trace_diff__test__test.json.gz")},
	} {
		text, _, code := run(t, append([]string{"compile", "--width", "80"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		assertFits(t, text, 80)
	}
}
