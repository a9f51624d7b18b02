package cli

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/render/cropview"
	"github.com/tracetab/tracetab/internal/testenv"
)

type cropTableRow struct {
	Name        string `json:"name"`
	Device      bool   `json:"device_op"`
	UserAnn     bool   `json:"user_annotation"`
	Calls       int64  `json:"calls"`
	SelfCPUNs   int64  `json:"self_cpu_ns"`
	CPUTotalNs  int64  `json:"cpu_total_ns"`
	SelfCUDANs  int64  `json:"self_cuda_ns"`
	CUDATotalNs int64  `json:"cuda_total_ns"`
	CPUMem      *int64 `json:"cpu_mem_bytes"`
	SelfCPUMem  *int64 `json:"self_cpu_mem_bytes"`
}

func jsonRun(t *testing.T, v any, args ...string) {
	t.Helper()
	out, stderr, code := run(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("tracetab %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("tracetab %s: %v", strings.Join(args, " "), err)
	}
}

// strictJSONFile reads a file (gzip by its name) with encoding/json, a second
// parser that accepts only valid JSON.
func strictJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	var doc any
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		t.Fatalf("%s is not valid JSON to encoding/json: %v", path, err)
	}
	if evs, ok := doc.([]any); ok { // a bare array of events, as its input was
		return map[string]any{"traceEvents": evs}
	}
	m, _ := doc.(map[string]any)
	return m
}

// checkCropStep crops step n of tr and holds the crop to the original:
// table on the crop equals table --steps n (a GPU annotation span's row
// within its kineto margin: 2 ns per call, judged from the op after it,
// which may lie in another step), gaps' step row equals the original's,
// encoding/json reads the crop, and the crop is smaller than the input.
func checkCropStep(t *testing.T, tr string, n int64, out string) (margins int) {
	t.Helper()
	step := strconv.FormatInt(n, 10)
	var sum cropview.Summary
	cropJSONInto(t, &sum, "crop", tr, "--step", step, "-o", out)
	doc := strictJSONFile(t, out)
	if _, ok := doc["traceEvents"]; !ok {
		t.Fatalf("%s: the crop has no traceEvents", out)
	}
	if sum.JSONOut >= sum.JSONIn {
		t.Errorf("%s step %d: the crop is %d bytes of JSON, the input %d", filepath.Base(tr), n, sum.JSONOut, sum.JSONIn)
	}
	var a, b struct {
		Rows []cropTableRow `json:"rows"`
	}
	jsonRun(t, &a, "table", out, "--limit", "-1")
	jsonRun(t, &b, "table", tr, "--limit", "-1", "--steps", step)
	if len(a.Rows) != len(b.Rows) {
		t.Fatalf("%s step %d: table of the crop has %d rows, table --steps %d", filepath.Base(tr), n, len(a.Rows), len(b.Rows))
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		cuda := x.SelfCUDANs == y.SelfCUDANs && x.CUDATotalNs == y.CUDATotalNs
		if !cuda && x.Device && x.UserAnn && abs64(x.SelfCUDANs-y.SelfCUDANs) <= 2*x.Calls && abs64(x.CUDATotalNs-y.CUDATotalNs) <= 2*x.Calls {
			margins++
			cuda = true
		}
		x.SelfCUDANs, x.CUDATotalNs, y.SelfCUDANs, y.CUDATotalNs = 0, 0, 0, 0
		xm, ym := memText(x.CPUMem, x.SelfCPUMem), memText(y.CPUMem, y.SelfCPUMem)
		x.CPUMem, x.SelfCPUMem, y.CPUMem, y.SelfCPUMem = nil, nil, nil, nil
		if !cuda || x != y || xm != ym {
			t.Errorf("%s step %d row %d: crop %+v %s, table --steps %+v %s", filepath.Base(tr), n, i, a.Rows[i], xm, b.Rows[i], ym)
		}
	}
	var ga, gb struct {
		Steps []map[string]any `json:"steps"`
	}
	jsonRun(t, &ga, "gaps", out)
	// the step alone, as gaps --steps N measures it: its GPU window is not
	// shortened by an earlier step's, and only the work it launched counts
	jsonRun(t, &gb, "gaps", "--steps", strconv.FormatInt(n, 10), tr)
	var want map[string]any
	for _, s := range gb.Steps {
		if s["step"].(float64) == float64(n) {
			want = s
		}
	}
	if len(ga.Steps) != 1 || want == nil {
		t.Fatalf("%s step %d: gaps of the crop has steps %v; the original's row %v", filepath.Base(tr), n, ga.Steps, want)
	}
	for k, v := range want {
		if k != "cold" && ga.Steps[0][k] != v { // cold compares a step with the others
			t.Errorf("%s step %d: gaps of the crop says %s %v, the original's step row %v", filepath.Base(tr), n, k, ga.Steps[0][k], v)
		}
	}
	return margins
}

func memText(a, b *int64) string {
	if a == nil || b == nil {
		return "-"
	}
	return strconv.FormatInt(*a, 10) + "/" + strconv.FormatInt(*b, 10)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func cropJSONInto(t *testing.T, v *cropview.Summary, args ...string) {
	t.Helper()
	jsonRun(t, v, args...)
}

// TestCropStepSample: step 3 of the sample.
func TestCropStepSample(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "step3.json")
	checkCropStep(t, testdata("sample.pt.trace.json"), 3, out)
	// gzip by the output's name
	gz := filepath.Join(t.TempDir(), "step3.json.gz")
	checkCropStep(t, testdata("sample.pt.trace.json"), 3, gz)
}

// TestCropStepReal: the middle step (and step 3 where there is one) of
// every real multi-step trace.
func TestCropStepReal(t *testing.T) {
	t.Parallel()
	dir := testenv.Shared(t)
	traces, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
	crops, margins := 0, 0
	for _, tr := range traces {
		var in struct {
			Steps []struct {
				N int64 `json:"step"`
			} `json:"steps"`
		}
		jsonRun(t, &in, "info", tr)
		if len(in.Steps) < 2 {
			continue
		}
		picks := []int64{in.Steps[len(in.Steps)/2].N}
		for _, s := range in.Steps {
			if s.N == 3 && s.N != picks[0] {
				picks = append(picks, 3)
			}
		}
		for _, n := range picks {
			margins += checkCropStep(t, tr, n, filepath.Join(t.TempDir(), "crop.json.gz"))
			crops++
		}
	}
	if crops < 5 {
		t.Fatalf("only %d real multi-step crops checked", crops)
	}
	t.Logf("%d crops of real traces: table and gaps equal the original's step (%d GPU annotation rows within the margin)", crops, margins)
}

// TestCropWindowFromRawJSON: a window's crop holds exactly the complete
// events the rule selects, found here from the raw JSON: a CPU event whose
// ts lies in the window, a device op whose launch call's (same
// correlation) does, one without a launch call by its own ts, and the
// Trace event.
func TestCropWindowFromRawJSON(t *testing.T) {
	t.Parallel()
	trs := []string{testdata("sample.pt.trace.json")}
	if dir, ok := testenv.SharedDir(); ok {
		trs = append(trs, filepath.Join(dir, "traces", "HTA__trace_diff__control__control.json.gz"),
			filepath.Join(dir, "traces", "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz"))
	}
	for _, tr := range trs {
		var in struct {
			OriginNs int64 `json:"origin_ts_ns"`
			SpanNs   int64 `json:"span_ns"`
		}
		jsonRun(t, &in, "info", tr)
		lo, hi := in.SpanNs/3, in.SpanNs/2 // offsets from the origin
		out := filepath.Join(t.TempDir(), "w.json")
		var sum cropview.Summary
		cropJSONInto(t, &sum, "crop", tr, "--window", strconv.FormatInt(lo, 10)+"ns.."+strconv.FormatInt(hi, 10)+"ns", "-o", out)
		evs := readRaw(t, tr)
		launch := map[int64]int64{} // correlation -> launch call ts
		for _, e := range evs {
			if e.Ph == "X" && (e.Cat == "cuda_runtime" || e.Cat == "cuda_driver" || e.Cat == "Runtime") {
				if c, ok := e.ArgInt("correlation"); ok {
					if _, dup := launch[c]; !dup {
						launch[c] = e.Ts
					}
				}
			}
		}
		in2 := func(ts int64) bool { return in.OriginNs+lo <= ts && ts < in.OriginNs+hi }
		want := 0
		for _, e := range evs {
			if e.Ph != "X" {
				continue
			}
			cat, ts := e.Cat, e.Ts
			switch cat {
			case "Trace":
				want++
			case "kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset", "cuda_sync":
				c, ok := e.ArgInt("correlation")
				if lt, linked := launch[c]; ok && linked {
					ts = lt
				}
				if in2(ts) {
					want++
				}
			default:
				if in2(ts) {
					want++
				}
			}
		}
		got := 0
		for _, e := range strictJSONFile(t, out)["traceEvents"].([]any) {
			if e.(map[string]any)["ph"] == "X" {
				got++
			}
		}
		if got != want || sum.Events != want {
			t.Errorf("%s window %d..%d ns: the crop has %d complete events (summary %d), the raw JSON's rule %d", filepath.Base(tr), lo, hi, got, sum.Events, want)
		}
	}
}

// TestCropRefuses: what crop refuses, with the exit code and the words.
func TestCropRefuses(t *testing.T) {
	t.Parallel()
	s := testdata("sample.pt.trace.json")
	out := filepath.Join(t.TempDir(), "o.json")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"crop", s, "-o", out}, ExitUsage, "needs a selection"},
		{[]string{"crop", s, "--step", "3"}, ExitUsage, "needs -o OUT"},
		{[]string{"crop", s, "--step", "3", "--window", "1ms..2ms", "-o", out}, ExitUsage, "not both"},
		{[]string{"crop", s, "--step", "99", "-o", out}, ExitUsage, "no ProfilerStep#99; steps are 2-5"},
		{[]string{"crop", s, "--window", "2ms..1ms", "-o", out}, ExitUsage, "the end must come after the start"},
		{[]string{"crop", s, "--window", "1..2ms", "-o", out}, ExitUsage, "has no unit"},
		{[]string{"crop", s, "--rank", "5", "-o", out}, ExitUsage, "no device 5; devices are 0"},
		{[]string{"crop", s, "--step", "3", "-o", s}, ExitUsage, "is the input"},
		{[]string{"crop", "-", "--step", "3", "-o", out}, ExitUsage, "reads its input twice"},
		{[]string{"crop", s, "--step", "3", "-o", filepath.Join(t.TempDir(), "missing", "o.json")}, ExitUnreadable, "cannot write"},
		{[]string{"crop", filepath.Join(t.TempDir(), "none.json"), "--step", "3", "-o", out}, ExitUnreadable, "cannot open"},
	} {
		_, stderr, code := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused crop wrote its output")
	}
}

// TestCropLenientInput: a trace with raw control characters, bare words
// and invalid UTF-8 in its strings (tracetab reads them, with warnings)
// crops to strict JSON that tracetab reads with the same table.
func TestCropLenientInput(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(testdata("sample.pt.trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(raw), `"name": "aten::mm"`, "\"name\": \"aten::mm\x01\xff\"", -1)
	text = strings.Replace(text, `"Record function id": 0`, `"Record function id": N/A`, -1)
	in := filepath.Join(t.TempDir(), "lenient.json")
	os.WriteFile(in, []byte(text), 0o644)
	out := filepath.Join(t.TempDir(), "crop.json")
	if _, stderr, code := run(t, "crop", in, "--step", "3", "-o", out); code != 0 {
		t.Fatalf("crop: exit %d: %s", code, stderr)
	}
	strictJSONFile(t, out)
	var a, b struct {
		Rows []cropTableRow `json:"rows"`
	}
	jsonRun(t, &a, "table", out, "--limit", "-1")
	jsonRun(t, &b, "table", in, "--limit", "-1", "--steps", "3")
	if len(a.Rows) == 0 || len(a.Rows) != len(b.Rows) {
		t.Fatalf("%d rows from the crop, %d from table --steps 3", len(a.Rows), len(b.Rows))
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		xm, ym := memText(x.CPUMem, x.SelfCPUMem), memText(y.CPUMem, y.SelfCPUMem)
		x.CPUMem, x.SelfCPUMem, y.CPUMem, y.SelfCPUMem = nil, nil, nil, nil
		if x != y || xm != ym {
			t.Errorf("row %d: crop %+v, original %+v", i, a.Rows[i], b.Rows[i])
		}
	}
}
