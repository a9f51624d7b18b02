package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/hostile"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
)

const (
	cpAlexnet = "HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz"
	cpAnn     = "[param|pytorch.model.alex_net|0|0|0|measure|forward]"
)

func critCase(t *testing.T, name string) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.WriteCritCase(&buf, name); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name+".json")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func fits(t *testing.T, what, out string, width int) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > width {
			t.Errorf("%s: a line of %d columns, over %d: %q", what, n, width, l)
			return
		}
		if strings.HasSuffix(l, " ") {
			t.Errorf("%s: trailing space: %q", what, l)
			return
		}
	}
}

// Flags that select nothing or make no sense exit 2 with a message naming
// the flag (and what the trace has).
func TestCritPathUsage(t *testing.T) {
	t.Parallel()
	sample := testdata("sample.pt.trace.json")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--step", "99"}, "steps are 2-5"},
		{[]string{"--step", "x"}, "--step"},
		{[]string{"--steps", "7-9"}, "steps are 2-5"},
		{[]string{"--steps", "5-3"}, "--steps"},
		{[]string{"--step", "3", "--steps", "3-4"}, "give one"},
		{[]string{"--annotation", "no such name"}, "no CPU event's name contains"},
		{[]string{"--annotation", "ProfilerStep", "--instance", "9"}, "instances 0 to 3"},
		{[]string{"--annotation", "ProfilerStep", "--instance", "2-1"}, "--instance"},
		{[]string{"--instance", "1"}, "needs --annotation"},
		{[]string{"--annotation", ""}, "--annotation"},
		{[]string{"--speedup", "0.5"}, "--speedup"},
		{[]string{"--speedup", "NaN"}, "--speedup"},
		{[]string{"--speedup", "-2"}, "--speedup"},
		{[]string{"--speedup", "fast"}, "--speedup"},
		{[]string{"--what-if", "-1"}, "--what-if"},
		{[]string{"--top", "-1"}, "--top"},
		{[]string{"--width", "-5"}, "--width"},
		{[]string{"--format", "csv"}, "format"},
	} {
		_, stderr, code := run(t, append([]string{"critical-path", sample}, c.args...)...)
		if code != ExitUsage || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	if _, stderr, code := run(t, "critical-path", "-", "--overlay", filepath.Join(t.TempDir(), "o.json")); code != ExitUsage || !strings.Contains(stderr, "not standard input") {
		t.Errorf("--overlay with stdin: exit %d %q", code, stderr)
	}
	if _, _, code := run(t, "critical-path", filepath.Join(t.TempDir(), "missing.json")); code != ExitUnreadable {
		t.Errorf("a missing file: exit %d, want 3", code)
	}
	if _, stderr, code := run(t, "critical-path", sample, "--overlay", filepath.Join(t.TempDir(), "no", "such", "dir", "o.json")); code != ExitUnreadable || !strings.Contains(stderr, "--overlay") {
		t.Errorf("an overlay that cannot be written: exit %d %q, want 3", code, stderr)
	}
}

// HTA's alexnet window through the command: the JSON's figures and the
// text's what-if line; the text fits 80 and 120 columns.
func TestCritPathAlexnet(t *testing.T) {
	t.Parallel()
	tr := filepath.Join(testenv.Shared(t), "traces", cpAlexnet)
	out, stderr, code := run(t, "critical-path", tr, "--annotation", cpAnn, "--instance", "1", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var doc struct {
		Schema  string
		Windows []struct {
			PathNs       *int64 `json:"path_ns"`
			EventsOnPath int    `json:"events_on_path"`
			Annotation   string
			Instance     int
			BreakdownNs  map[string]int64        `json:"breakdown_ns"`
			SyncEdges    []struct{ Kind string } `json:"sync_edges"`
			WhatIf       []struct {
				Name      string
				NewPathNs int64 `json:"new_path_ns"`
			} `json:"what_if"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "tracetab.critical_path/1" || len(doc.Windows) != 1 {
		t.Fatalf("schema %q, %d windows", doc.Schema, len(doc.Windows))
	}
	w := doc.Windows[0]
	// HTA's figures, to the microsecond
	if w.PathNs == nil || *w.PathNs/1000 != 35_834 || w.EventsOnPath != 77 || w.BreakdownNs["cpu"]/1000 != 32_042 ||
		w.BreakdownNs["gpu_compute"]/1000 != 3_712 || w.BreakdownNs["kernel_kernel"]/1000 != 50 || w.BreakdownNs["launch"]/1000 != 30 ||
		len(w.SyncEdges) != 5 || w.Annotation != cpAnn || w.Instance != 1 {
		t.Errorf("window %+v", w)
	}
	if len(w.WhatIf) != 3 || w.WhatIf[0].Name != "cudaMalloc" || (w.WhatIf[0].NewPathNs+500)/1000 != 20_072 {
		t.Errorf("what-if %+v", w.WhatIf)
	}
	for _, width := range []int{80, 120} {
		text, _, code := run(t, "critical-path", tr, "--annotation", cpAnn, "--instance", "1", "--width", itoa(width))
		if code != 0 || !strings.Contains(text, "cudaMalloc 2x faster: 35.834ms -> 20.072ms (-43.99%)") {
			t.Errorf("width %d: exit %d:\n%s", width, code, text)
		}
		fits(t, "alexnet text", text, width)
	}
	// HTA's "" annotation is the whole trace: the default without steps
	text, stderr, _ := run(t, "critical-path", tr, "--width", "100")
	if !strings.Contains(stderr, "no ProfilerStep#N annotations") || !strings.Contains(text, "43.355s") {
		t.Errorf("whole trace:\n%s\n%s", text, stderr)
	}
}

// --overlay writes the input with args.critical on the path's events and
// one flow per launch, sync and dependency edge; gzip when the name says
// so; it reads back with tracetab's parser and encoding/json.
func TestCritPathOverlay(t *testing.T) {
	t.Parallel()
	src := critCase(t, "gpu-chain")
	dir := t.TempDir()
	for _, name := range []string{"o.json", "o.json.gz"} {
		dst := filepath.Join(dir, name)
		out, stderr, code := run(t, "critical-path", src, "--overlay", dst, "--format", "json")
		if code != 0 || !strings.Contains(stderr, "7 marked critical, 3 flow arrows") {
			t.Fatalf("exit %d %s", code, stderr)
		}
		var doc struct {
			Windows []struct {
				EventsOnPath int `json:"events_on_path"`
			}
		}
		json.Unmarshal([]byte(out), &doc)
		b, _ := os.ReadFile(dst)
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			buf.ReadFrom(zr)
			b = buf.Bytes()
		}
		var ov struct {
			TraceEvents []struct {
				Ph, Name, Cat string
				Args          map[string]any
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &ov); err != nil {
			t.Fatal(err)
		}
		marked, s, f := 0, 0, 0
		for _, e := range ov.TraceEvents {
			if e.Ph == "X" && e.Args["critical"] == float64(1) {
				marked++
			}
			if e.Cat == "critical_path" && e.Name == "critical_path" {
				switch e.Ph {
				case "s":
					s++
				case "f":
					f++
				}
			}
		}
		// gpu-chain: 7 path events; launch, sync and dependency edges: 1 + 1 + 1
		if marked != 7 || doc.Windows[0].EventsOnPath != 7 || s != 3 || f != 3 {
			t.Errorf("%s: %d marked, %d on the path, %d/%d flows", name, marked, doc.Windows[0].EventsOnPath, s, f)
		}
		back, err := parse.Open(dst, parse.Options{})
		if err != nil {
			t.Fatalf("tracetab cannot read the overlay: %v", err)
		}
		orig, _ := parse.Open(src, parse.Options{})
		if back.NumEvents() != orig.NumEvents() {
			t.Errorf("%d events in the overlay, %d in the trace", back.NumEvents(), orig.NumEvents())
		}
	}
}

// critical-path budgets in check: the median over the steps of the path
// (the generated gpu-chain case: 1.555 ms, of which 1.5 ms of kernels,
// 96.46%), and on HTA's alexnet trace (no steps: the whole trace, HTA's
// 43,355,486 us).
func TestCritPathBudgets(t *testing.T) {
	t.Parallel()
	tr := critCase(t, "gpu-chain")
	if _, _, code := run(t, "check", tr, "--max", "critical_path.path_time=1.6ms"); code != 0 {
		t.Errorf("path 1.555ms within 1.6ms: exit %d", code)
	}
	out, _, code := run(t, "check", tr, "--max", "critical_path.path_time=1.5ms", "--max", "critical_path.gpu_compute_pct=90", "--format", "json")
	if code != ExitCheck {
		t.Errorf("over budget: exit %d, want 1", code)
	}
	var doc struct {
		Budgets []struct {
			Metric   string
			ValueNs  *float64 `json:"value_ns"`
			ValuePct *float64 `json:"value_pct"`
			Passed   bool
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Budgets) != 2 {
		t.Fatalf("%v %s", err, out)
	}
	if b := doc.Budgets[0]; b.Metric != "critical_path.path_time" || b.ValueNs == nil || *b.ValueNs != 1_555_000 || b.Passed {
		t.Errorf("path_time budget %+v", b)
	}
	if b := doc.Budgets[1]; b.Metric != "critical_path.gpu_compute_pct" || b.ValuePct == nil || *b.ValuePct < 96.45 || *b.ValuePct > 96.47 || b.Passed {
		t.Errorf("gpu_compute_pct budget %+v", b)
	}
	for _, bad := range []string{"critical_path.speed=1", "critical_path.path_time=5", "critical_path.cpu_pct@^x$=5"} {
		if _, stderr, code := run(t, "check", tr, "--max", bad); code != ExitUsage {
			t.Errorf("%s: exit %d %s, want 2", bad, code, stderr)
		}
	}
	shared := testenv.Shared(t)
	out, _, _ = run(t, "check", filepath.Join(shared, "traces", cpAlexnet), "--max", "critical_path.path_time=1s", "--format", "json")
	json.Unmarshal([]byte(out), &doc)
	if v := doc.Budgets[0].ValueNs; v == nil || int64(*v)/1000 != 43_355_486 {
		t.Errorf("alexnet whole-trace path budget value %v, HTA: 43,355,486 us", v)
	}
	// a CPU-only trace whose step holds nothing with a duration: n/a
	cpuOnly := filepath.Join(shared, "traces", "HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
	if out, stderr, code := run(t, "check", cpuOnly, "--max", "critical_path.cpu_pct=50"); code != ExitCheck || !strings.Contains(out, "no window") {
		t.Errorf("nothing measured: exit %d %s, want 1 and the reason", code, stderr)
	}
	if _, _, code := run(t, "check", cpuOnly, "--max", "critical_path.cpu_pct=50", "--allow-missing"); code != 0 {
		t.Errorf("nothing measured, --allow-missing: exit %d", code)
	}
}

// Every shared trace and odd generated inputs: exit 0, text that fits 80
// columns, never a panic; the generated cases' text names their path.
func TestCritPathEveryTrace(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	dir := t.TempDir()
	odd := map[string]string{
		"no-events.json":  `{"traceEvents": []}`,
		"one-event.json":  `{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 5, "dur": 3}]}`,
		"zero-dur.json":   `{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 5, "dur": 0}, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 6, "dur": 0, "args": {"correlation": 1}}]}`,
		"memory.json":     `{"traceEvents": [{"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 5, "args": {"Bytes": 512, "Total Allocated": 512, "Device Type": 1, "Device Id": 0}}]}`,
		"array-form.json": `[{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 5, "dur": 3}]`,
	}
	for name, text := range odd {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		files = append(files, p)
	}
	for _, c := range gen.CritCases {
		files = append(files, critCase(t, c))
	}
	for _, f := range files {
		args := []string{"critical-path", f, "--width", "80"}
		generated := !strings.HasPrefix(f, testenv.Root()) && !strings.Contains(f, "shared")
		if generated { // the shared traces' overlays are checked in internal/critpath
			args = append(args, "--overlay", filepath.Join(dir, "overlay.json"))
		}
		out, stderr, code := run(t, args...)
		if code != 0 {
			t.Errorf("%s: exit %d %s", filepath.Base(f), code, stderr)
			continue
		}
		fits(t, filepath.Base(f), out, 80)
		if !generated {
			continue
		}
		if _, err := parse.Open(filepath.Join(dir, "overlay.json"), parse.Options{}); err != nil && !strings.Contains(f, "no-events") && !strings.Contains(f, "memory") {
			t.Errorf("%s: the overlay does not read back: %v", filepath.Base(f), err)
		}
	}
}

// The JSON of the other window kinds (--steps, --annotation) keeps the
// output contract too (the contract test runs the default windows).
func TestCritPathContractWindows(t *testing.T) {
	t.Parallel()
	sample := testdata("sample.pt.trace.json")
	for _, args := range [][]string{{"--steps", "3-4"}, {"--step", "2"}, {"--annotation", "matmul", "--instance", "0-1"}, {"--what-if", "0"}} {
		out, stderr, code := run(t, append([]string{"critical-path", sample, "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
		if v := contractViolations([]byte(out)); len(v) > 0 {
			t.Errorf("%v breaks the output contract: %v", args, v)
		}
	}
}

// The hostile corpus (internal/hostile, at the sizes of the test run:
// 1e4 streams and syncs, 2e4 names and threads, nesting 5,000 deep,
// reused correlation ids, 1 MB names, unusable times, invalid text): exit
// 0, strict JSON, and text that fits 80 columns.
func TestCritPathHostile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		gen  func(w *bytes.Buffer) error
	}{
		{"streams", func(w *bytes.Buffer) error { return hostile.Streams(w, 10_000) }},
		{"syncs", func(w *bytes.Buffer) error { return hostile.Syncs(w, 10_000) }},
		{"names", func(w *bytes.Buffer) error { return hostile.Names(w, 20_000) }},
		{"threads", func(w *bytes.Buffer) error { return hostile.Threads(w, 20_000) }},
		{"nested", func(w *bytes.Buffer) error { return hostile.Nested(w, 5_000, false) }},
		{"reused-correlation", func(w *bytes.Buffer) error { return hostile.ReusedCorr(w, 10_000) }},
		{"long-names", func(w *bytes.Buffer) error { return hostile.LongNames(w, 4, 1<<20) }},
		{"bad-times", func(w *bytes.Buffer) error { return hostile.BadTimes(w, 1_000) }},
		{"bad-text", func(w *bytes.Buffer) error { return hostile.BadText(w, 50) }},
	} {
		var buf bytes.Buffer
		if err := c.gen(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, c.name+".json")
		os.WriteFile(p, buf.Bytes(), 0o644)
		out, stderr, code := run(t, "critical-path", p, "--format", "json")
		if code != 0 || !json.Valid([]byte(out)) {
			t.Errorf("%s: exit %d, valid JSON %v: %s", c.name, code, json.Valid([]byte(out)), stderr)
		}
		text, _, code := run(t, "critical-path", p, "--width", "80")
		if code != 0 {
			t.Errorf("%s: text exit %d", c.name, code)
		}
		fits(t, c.name, text, 80)
	}
}
