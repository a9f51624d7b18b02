package cli

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

type oracleCase struct {
	Torch       string         `json:"torch"`
	Trace       string         `json:"trace"`
	KeyAverages map[string]any `json:"key_averages"`
	Table       map[string]any `json:"table"`
	Expected    string         `json:"expected"`
}

// run calls Main as a user would and returns stdout, stderr and the code.
func run(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// TestOracleTables runs tracetab table on every case that real torch
// printed (../shared/oracle/*/manifest.json) and compares the text byte for
// byte. Cases whose information is not in the trace (the 1.13.1 legacy
// export has no shapes, stacks or memory events) must say so instead.
func TestOracleTables(t *testing.T) {
	shared := testenv.Shared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "oracle", "torch-*"))
	if len(dirs) == 0 {
		t.Fatal("no oracle folders")
	}
	var exact, reported int
	for _, dir := range dirs {
		version := strings.TrimPrefix(filepath.Base(dir), "torch-")
		raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cases []oracleCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			name := version + "/" + strings.TrimSuffix(c.Expected, ".txt")
			t.Run(name, func(t *testing.T) {
				args := []string{"table", "--torch", version, filepath.Join(dir, c.Trace)}
				shape := c.KeyAverages["group_by_input_shape"] == true
				stackN, _ := c.KeyAverages["group_by_stack_n"].(float64)
				if shape {
					args = append(args, "--group-by-shape")
				}
				if stackN > 0 {
					args = append(args, "--group-by-stack", strconv.Itoa(int(stackN)))
				}
				sortBy, _ := c.Table["sort_by"].(string)
				if sortBy != "" {
					args = append(args, "--sort", sortBy)
				}
				if v, ok := c.Table["row_limit"].(float64); ok {
					args = append(args, "--limit", strconv.Itoa(int(v)))
				}
				if c.Table["top_level_events_only"] == true {
					args = append(args, "--top-level")
				}
				if v, ok := c.Table["max_name_column_width"].(float64); ok {
					args = append(args, "--name-width", strconv.Itoa(int(v)))
				}
				wantB, err := os.ReadFile(filepath.Join(dir, c.Expected))
				if err != nil {
					t.Fatal(err)
				}
				want := string(wantB)
				got, stderr, code := run(t, args...)
				legacy := version == "1.13.1" // legacy exporter: no args at all
				switch {
				case legacy && strings.Contains(sortBy, "memory"):
					if code != ExitUsage || !strings.Contains(stderr, "needs [memory] events") {
						t.Fatalf("sorting by memory without memory events: want exit 2 and a reason, got %d %q", code, stderr)
					}
					reported++
				case legacy && (shape || (stackN > 0 && strings.Contains(want, "Source Location"))):
					if code != 0 || !strings.Contains(stderr, "the trace has no") || strings.Contains(got, "Input Shapes") || strings.Contains(got, "Source Location") {
						t.Fatalf("grouping the trace cannot support: want a note and no such column, got %d %q\n%s", code, stderr, got)
					}
					reported++
				case legacy && strings.Contains(want, "CPU Mem"):
					// The memory columns cannot be rebuilt; everything
					// else must match torch once they are cut out.
					want = dropColumns(want, "CPU Mem", "Self CPU Mem")
					if code != 0 || !strings.Contains(stderr, "no [memory] events") {
						t.Fatalf("want a note about memory, got %d %q", code, stderr)
					}
					compare(t, got, want)
					exact++
				default:
					if code != 0 {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					compare(t, got, want)
					exact++
				}
			})
		}
	}
	t.Logf("oracle: %d tables identical to torch, %d cases correctly reported as not reproducible from the trace", exact, reported)
}

func compare(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("differs from torch at line %d:\n got: %q\nwant: %q\n--- got\n%s--- want\n%s", i+1, g, w, got, want)
		}
	}
}

// dropColumns removes fixed-width columns (found by their header) from a
// torch table.
func dropColumns(table string, headers ...string) string {
	lines := strings.Split(table, "\n")
	hdr := ""
	for _, l := range lines {
		if strings.Contains(l, "Self CPU %") {
			hdr = l
			break
		}
	}
	type span struct{ a, b int }
	var spans []span
	for _, h := range headers {
		// header cells are right-aligned in 12 columns plus 2 spaces
		idx := strings.Index(hdr, " "+h+"  ")
		for idx >= 0 && strings.Contains(h, "CPU Mem") && h == "CPU Mem" && strings.HasSuffix(hdr[:idx+1], "Self") {
			idx = strings.Index(hdr[idx+1:], " "+h+"  ") + idx + 1
		}
		end := idx + 1 + len(h) + 2
		spans = append(spans, span{end - 14, end})
	}
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "=") {
			out = append(out, l[:len(l)-14*len(spans)])
			continue
		}
		if len(l) < 20 || strings.HasPrefix(l, "Self ") || strings.HasPrefix(l, "This report") {
			out = append(out, l)
			continue
		}
		b := []byte(l)
		for k := len(spans) - 1; k >= 0; k-- {
			s := spans[k]
			if s.b <= len(b) {
				b = append(b[:s.a:s.a], b[s.b:]...)
			}
		}
		out = append(out, string(b))
	}
	return strings.Join(out, "\n")
}

type gpuOracleCase struct {
	Trace    string   `json:"trace"`
	Torch    string   `json:"torch"`
	Args     []string `json:"args"`
	Expected string   `json:"expected"`
}

// TestOracleGPUTables runs tracetab table on every case of
// ../shared/oracle-gpu/manifest.json (torch's own profiler_util.py over
// events rebuilt from the real GPU traces) and compares byte for byte.
func TestOracleGPUTables(t *testing.T) {
	shared := testenv.Shared(t)
	dir := filepath.Join(shared, "oracle-gpu")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []gpuOracleCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("empty manifest")
	}
	identical := 0
	for _, c := range cases {
		name := c.Torch + "/" + strings.TrimSuffix(filepath.Base(c.Expected), ".txt")
		want, err := os.ReadFile(filepath.Join(dir, c.Expected))
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"table", "--torch", c.Torch, filepath.Join(shared, "traces", c.Trace)}, c.Args...)
		got, stderr, code := run(t, args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		if d := firstDiff(got, string(want)); d != "" {
			t.Errorf("%s: %s", name, d)
			continue
		}
		identical++
	}
	t.Logf("oracle-gpu: %d of %d tables identical to torch's own table code", identical, len(cases))
	if identical != len(cases) {
		t.Errorf("only %d of %d tables identical to torch's own table code", identical, len(cases))
	}
}

// firstDiff describes the first line where got and want differ, or "".
func firstDiff(got, want string) string {
	if got == want {
		return ""
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, g, w)
		}
	}
	return "differs"
}

// rawEvent is a trace event as written, read independently of the parser.
type rawEvent struct {
	Ph   string                     `json:"ph"`
	Cat  string                     `json:"cat"`
	Name string                     `json:"name"`
	Ts   json.Number                `json:"ts"`
	Dur  json.Number                `json:"dur"`
	Pid  json.RawMessage            `json:"pid"`
	Tid  json.RawMessage            `json:"tid"`
	Args map[string]json.RawMessage `json:"args"`
}

// thread is the event's pid and tid as written.
func (e *rawEvent) thread() (pid, tid string) {
	return strings.Trim(string(e.Pid), `"`), strings.Trim(string(e.Tid), `"`)
}

func readRaw(t *testing.T, path string) []rawEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []rawEvent `json:"traceEvents"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc.TraceEvents
}

// usToNs turns a decimal microsecond string ("5002.837") into exact ns.
func usToNs(t *testing.T, n json.Number) int64 {
	t.Helper()
	s := string(n)
	if s == "" {
		return 0
	}
	whole, frac, _ := strings.Cut(s, ".")
	frac = (frac + "000")[:3]
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad time %q", s)
	}
	return w*1000 + f
}

func argInt(e rawEvent, key string) (int64, bool) {
	raw, ok := e.Args[key]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	return v, err == nil
}

// jsonRows runs table --format json and returns its rows by name (the
// first row of each name).
func jsonRows(t *testing.T, args ...string) map[string]map[string]any {
	t.Helper()
	out, stderr, code := run(t, append([]string{"table", "--format", "json", "--limit", "-1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]any{}
	for _, r := range doc.Rows {
		name := r["name"].(string)
		if _, ok := rows[name]; !ok {
			rows[name] = r
		}
	}
	return rows
}

// TestReproUnlinkedCollision: a runtime call with no op of its own whose
// correlation id equals an op's External id receives that op's kernels in
// every torch (2.14.1's _parse_kineto_results skips only overhead events).
// The truth is computed from the raw events.
func TestReproUnlinkedCollision(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "oracle-gpu", "repro", "unlinked_collision.json")
	ev := readRaw(t, path)
	ops := map[int64]bool{}
	for _, e := range ev {
		if id, ok := argInt(e, "External id"); ok && e.Cat == "cpu_op" {
			ops[id] = true
		}
	}
	var caller string
	var callerID int64
	for _, e := range ev {
		_, linked := argInt(e, "External id")
		if c, ok := argInt(e, "correlation"); ok && e.Cat == "cuda_runtime" && !linked && ops[c] {
			caller, callerID = e.Name, c
		}
	}
	if caller == "" {
		t.Fatal("the repro has no unlinked runtime call whose correlation id is an op's External id")
	}
	var kernNs int64
	for _, e := range ev {
		if id, ok := argInt(e, "External id"); ok && e.Cat == "kernel" && id == callerID {
			kernNs += usToNs(t, e.Dur)
		}
	}
	if kernNs == 0 {
		t.Fatal("no kernel of the colliding op")
	}
	for _, v := range []string{"2.3", "2.6", "2.14"} {
		rows := jsonRows(t, "--torch", v, path)
		r, ok := rows[caller]
		if !ok {
			t.Fatalf("--torch %s: no %s row", v, caller)
		}
		if got := int64(r["self_cuda_ns"].(float64)); got != kernNs {
			t.Errorf("--torch %s: %s Self CUDA %d ns, torch's own code gives the op's kernel time %d ns", v, caller, got, kernNs)
		}
	}
}

// TestReproMemoryBoundary: a [memory] record belongs to the innermost op
// whose [start, end] holds it in exact nanoseconds, in 2.6 as in 2.14.
func TestReproMemoryBoundary(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "oracle-gpu", "repro", "memory_boundary.json")
	ev := readRaw(t, path)
	type op struct {
		name   string
		lo, hi int64
	}
	var ops []op
	want := map[string]int64{}
	for _, e := range ev {
		if e.Cat == "cpu_op" {
			lo := usToNs(t, e.Ts)
			ops = append(ops, op{e.Name, lo, lo + usToNs(t, e.Dur)})
			want[e.Name] += 0
		}
	}
	records := 0
	for _, e := range ev {
		if e.Name != "[memory]" {
			continue
		}
		records++
		ts := usToNs(t, e.Ts)
		b, _ := argInt(e, "Bytes")
		inner := -1
		for k, o := range ops {
			if o.lo <= ts && ts <= o.hi && (inner < 0 || o.hi-o.lo < ops[inner].hi-ops[inner].lo) {
				inner = k
			}
		}
		if inner < 0 {
			t.Fatal("a record outside every op")
		}
		want[ops[inner].name] += b
	}
	if records == 0 {
		t.Fatal("no [memory] records")
	}
	for _, v := range []string{"2.6", "2.14"} {
		rows := jsonRows(t, "--torch", v, path)
		for name, b := range want {
			r, ok := rows[name]
			if !ok {
				t.Fatalf("--torch %s: no %s row", v, name)
			}
			if got := int64(r["self_cpu_mem_bytes"].(float64)); got != b {
				t.Errorf("--torch %s: %s Self CPU Mem %d B, want %d B", v, name, got, b)
			}
		}
	}
}

// readRawFile reads a trace (gzip or not) as raw events.
func readRawFile(t *testing.T, path string) []rawEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	var evs []rawEvent
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		err = d.Decode(&evs)
	} else {
		var doc struct {
			TraceEvents []rawEvent `json:"traceEvents"`
		}
		err = d.Decode(&doc)
		evs = doc.TraceEvents
	}
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// rawSpan is one X event with its thread and exact ns times.
type rawSpan struct {
	e      *rawEvent
	tid    string
	lo, hi int64
}

func spansOf(t *testing.T, evs []rawEvent, keep func(*rawEvent) bool) []rawSpan {
	var out []rawSpan
	for i := range evs {
		e := &evs[i]
		if e.Ph != "X" || !keep(e) {
			continue
		}
		lo := usToNs(t, e.Ts)
		out = append(out, rawSpan{e, "", lo, lo + usToNs(t, e.Dur)})
	}
	return out
}

// sortSpans orders spans as torch does: start, then longest first.
func sortSpans(s []rawSpan) {
	slices.SortStableFunc(s, func(a, b rawSpan) int {
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		return cmp.Compare(b.hi, a.hi)
	})
}

// rootNs sums the durations of the spans no other span of the same group
// contains (torch's stack rule, half-open): that is "Self CPU time total".
func rootNs(groups map[string][]rawSpan) int64 {
	var sum int64
	for _, s := range groups {
		sortSpans(s)
		rootEnd := int64(-1 << 62)
		for _, x := range s {
			if x.lo >= rootEnd || x.hi > rootEnd {
				sum += x.hi - x.lo
				rootEnd = x.hi
			}
		}
	}
	return sum
}

// torchTimeText is torch's _format_time of integer ns.
func torchTimeText(ns int64) string {
	us := float64(ns) / 1000
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.3fs", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.3fms", us/1e3)
	}
	return fmt.Sprintf("%.3fus", us)
}

// TestEraRules2021: without --torch, a 2021 trace (torch 1.8/1.9) is
// printed as torch 1.9 printed it, and its events are rebuilt as 1.9 did:
// a runtime call no op launched keeps id 0 and thread 0, so it is a root of
// its own and not a child of the ProfilerStep it lies in. The footer is
// computed from the raw events under both rules; tracetab must give the
// 1.9 one, and the rules must differ on this trace.
func TestEraRules2021(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "kineto__2021-01-13__tb_plugin__samples__resnet50_num_workers_0__worker0.pt.trace.json.gz")
	out, _, code := run(t, "info", path)
	if code != 0 || !strings.Contains(out, "K1: written by torch 1.8 or 1.9") || !strings.Contains(out, "torch       1.9 assumed") {
		t.Fatalf("info must name the 2021 era and the torch it assumes:\n%s", out)
	}
	evs := readRawFile(t, path)
	filtered := map[string]bool{"aten::is_leaf": true, "aten::output_nr": true, "aten::_version": true,
		"profiler::_record_function_enter": true, "profiler::_record_function_exit": true}
	ops := map[int64]string{} // External id -> tid of the op
	mainTid, pidTid := "", ""
	for i := range evs {
		if evs[i].Cat != "Operator" {
			continue
		}
		pid, tid := evs[i].thread()
		if id, ok := argInt(evs[i], "External id"); ok {
			ops[id] = tid
		}
		if mainTid == "" {
			mainTid = tid
		}
		if pid == tid && pidTid == "" {
			pidTid = tid
		}
	}
	if pidTid != "" {
		mainTid = pidTid
	}
	g19 := map[string][]rawSpan{}
	g113 := map[string][]rawSpan{}
	unlinked := 0
	for i := range evs {
		e := &evs[i]
		if e.Ph != "X" || filtered[e.Name] {
			continue
		}
		lo := usToNs(t, e.Ts)
		_, tid := e.thread()
		s := rawSpan{e, tid, lo, lo + usToNs(t, e.Dur)}
		switch e.Cat {
		case "Operator":
			g19[s.tid] = append(g19[s.tid], s)
			g113[s.tid] = append(g113[s.tid], s)
		case "Runtime":
			link, _ := argInt(*e, "external id")
			if th, ok := ops[link]; ok && link != 0 {
				g19[th] = append(g19[th], s)
				g113[th] = append(g113[th], s)
				continue
			}
			unlinked++
			g19["0"] = append(g19["0"], s)
			g113[mainTid] = append(g113[mainTid], s)
		}
	}
	if unlinked == 0 {
		t.Fatal("the trace has no unlinked runtime calls: the test would not tell the rules apart")
	}
	want19, want113 := torchTimeText(rootNs(g19)), torchTimeText(rootNs(g113))
	if want19 == want113 {
		t.Fatalf("both rules give %s: the test would not tell them apart", want19)
	}
	got, stderr, code := run(t, "table", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(got, "Self CPU time total: "+want19+"\n") {
		t.Errorf("want the footer of torch 1.9's rules, Self CPU time total: %s (1.13+ rules give %s); got\n%s", want19, want113, lastLines(got, 3))
	}
	explicit, _, _ := run(t, "table", "--torch", "1.9", path)
	if explicit != got {
		t.Error("table without --torch differs from --torch 1.9 on a 2021 trace")
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// deviceCats are the device activities torch hands to the op that
// launched them (gpu_user_annotation spans are never linked).
var deviceCats = map[string]bool{"kernel": true, "gpu_memcpy": true, "gpu_memset": true, "cuda_sync": true}

// innermostOps maps each runtime or driver call to the External id of the
// innermost cpu_op on its thread that contains it (0 when none), by
// torch's stack rule.
func innermostOps(t *testing.T, evs []rawEvent) map[*rawEvent]int64 {
	byTid := map[string][]rawSpan{}
	for i := range evs {
		e := &evs[i]
		if e.Ph != "X" || (e.Cat != "cpu_op" && e.Cat != "cuda_runtime" && e.Cat != "cuda_driver") {
			continue
		}
		pid, tid := e.thread()
		lo := usToNs(t, e.Ts)
		byTid[pid+"/"+tid] = append(byTid[pid+"/"+tid], rawSpan{e, tid, lo, lo + usToNs(t, e.Dur)})
	}
	out := map[*rawEvent]int64{}
	for _, s := range byTid {
		sortSpans(s)
		var stack []rawSpan
		for _, x := range s {
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				if x.lo >= p.hi || x.hi > p.hi {
					stack = stack[:len(stack)-1]
					continue
				}
				break
			}
			if x.e.Cat == "cpu_op" {
				stack = append(stack, x)
				continue
			}
			if len(stack) > 0 {
				out[x.e], _ = argInt(*stack[len(stack)-1].e, "External id")
			} else {
				out[x.e] = 0
			}
		}
	}
	return out
}

// runtimeSelfCUDA runs table and returns Self CUDA in ns per runtime row.
func runtimeSelfCUDA(t *testing.T, path string, names map[string]bool, args ...string) map[string]int64 {
	rows := jsonRows(t, append(args, path)...)
	got := map[string]int64{}
	for name := range names {
		if r, ok := rows[name]; ok {
			got[name] = int64(r["self_cuda_ns"].(float64))
		}
	}
	return got
}

func compareNs(t *testing.T, what string, got, want map[string]int64, slack map[string]int64) {
	t.Helper()
	for name, w := range want {
		if g := got[name]; g < w-slack[name] || g > w+slack[name] {
			t.Errorf("%s: %s Self CUDA %d ns, the raw events give %d ns", what, name, g, w)
		}
	}
}

// TestEraRules2x: without --torch, a trace written by torch 1.13-2.3 gets
// that era's rule (every event whose id equals an op's External id takes
// the op's kernels, linked runtime calls included) and a 2.4+ trace gets
// the 2.4+ rule (only runtime calls no op launched). The Self CUDA of
// every runtime row is computed from the raw events.
func TestEraRules2x(t *testing.T) {
	shared := testenv.Shared(t)
	for _, c := range []struct {
		file, era, assumed string
		linkedToo          bool
	}{
		{"HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz", "K2b: written by torch 1.13 to 2.3", "2.3", true},
		{"TraceLens__b200__eager_trace.json.gz", "K3: written by torch 2.4 or later", "2.14", false},
	} {
		path := filepath.Join(shared, "traces", c.file)
		out, _, code := run(t, "info", path)
		if code != 0 || !strings.Contains(out, c.era) || !strings.Contains(out, "torch       "+c.assumed+" assumed") {
			t.Fatalf("%s: info must say %q and %s assumed:\n%s", c.file, c.era, c.assumed, out)
		}
		evs := readRawFile(t, path)
		inner := innermostOps(t, evs)
		ops := map[int64]bool{}
		for i := range evs {
			if id, ok := argInt(evs[i], "External id"); ok && evs[i].Cat == "cpu_op" {
				ops[id] = true
			}
		}
		// link of a runtime call: its own "External id" when it names an
		// op (kineto from 2024), else the innermost enclosing op.
		link := map[int64]int64{} // correlation -> link
		for i := range evs {
			e := &evs[i]
			if e.Cat != "cuda_runtime" && e.Cat != "cuda_driver" {
				continue
			}
			corr, _ := argInt(*e, "correlation")
			l := inner[e]
			if x, ok := argInt(*e, "External id"); ok && ops[x] && x != corr {
				l = x
			}
			link[corr] = l
		}
		kernNs := map[int64]int64{} // op External id -> device time launched from it
		kernN := map[int64]int64{}
		for i := range evs {
			e := &evs[i]
			if e.Ph != "X" || !deviceCats[e.Cat] {
				continue
			}
			corr, ok := argInt(*e, "correlation")
			if l := link[corr]; ok && l != 0 {
				kernNs[l] += usToNs(t, e.Dur)
				kernN[l]++
			}
		}
		want, slack, names := map[string]int64{}, map[string]int64{}, map[string]bool{}
		linkedGot := int64(0)
		for i := range evs {
			e := &evs[i]
			if e.Cat != "cuda_runtime" && e.Cat != "cuda_driver" {
				continue
			}
			names[e.Name] = true
			corr, _ := argInt(*e, "correlation")
			want[e.Name] += 0
			if !ops[corr] || (!c.linkedToo && link[corr] != 0) {
				continue
			}
			want[e.Name] += kernNs[corr]
			slack[e.Name] += kernN[corr] // float us arithmetic: at most 1 ns per kernel
			if link[corr] != 0 {
				linkedGot += kernNs[corr]
			}
		}
		if c.linkedToo && linkedGot == 0 {
			t.Fatalf("%s: no linked runtime call collides: the test would not tell the rules apart", c.file)
		}
		compareNs(t, c.file+" (no --torch)", runtimeSelfCUDA(t, path, names), want, slack)
		// --torch changes only the printing, not the rebuilt events.
		compareNs(t, c.file+" --torch 2.6", runtimeSelfCUDA(t, path, names, "--torch", "2.6"), want, slack)
	}
}

// TestTorchVersionRefused: --torch outside the known versions is a usage
// error that lists them; --time-unit with an assumed torch that has none
// says the version was assumed.
func TestTorchVersionRefused(t *testing.T) {
	k2b := filepath.Join(testenv.Shared(t), "traces", "zoology__trace.json.gz")
	if _, stderr, code := run(t, "table", "--time-unit", "ms", k2b); code != ExitUsage || !strings.Contains(stderr, "torch 2.3's table() (assumed from the trace's era") {
		t.Errorf("--time-unit on a 1.13-2.3 trace: exit %d %q", code, stderr)
	}
	if _, _, code := run(t, "table", "--time-unit", "ms", "--torch", "2.7", k2b); code != 0 {
		t.Errorf("--time-unit with --torch 2.7: exit %d", code)
	}
	for _, v := range []string{"2.15", "3.0", "1.7", "1.14", "banana"} {
		_, stderr, code := run(t, "table", "--torch", v, filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json"))
		if code != ExitUsage {
			t.Errorf("--torch %s: exit %d, want %d", v, code, ExitUsage)
		}
		if v != "banana" && !strings.Contains(stderr, "1.8, 1.9, 1.10, 1.11, 1.12, 1.13, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9, 2.10, 2.11, 2.12, 2.13, 2.14") {
			t.Errorf("--torch %s: the message must list the known versions: %q", v, stderr)
		}
	}
}

// torchRows splits a torch table into cells by its dash line.
func torchRows(table string) (headers []string, rows [][]string) {
	lines := strings.Split(table, "\n")
	if len(lines) < 4 {
		return nil, nil
	}
	type span struct{ a, b int }
	var spans []span
	dash := lines[0]
	for i := 0; i < len(dash); {
		if dash[i] != '-' {
			i++
			continue
		}
		j := i
		for j < len(dash) && dash[j] == '-' {
			j++
		}
		spans = append(spans, span{i, j})
		i = j
	}
	cells := func(l string) []string {
		var out []string
		for _, s := range spans {
			if s.a >= len(l) {
				out = append(out, "")
				continue
			}
			out = append(out, strings.TrimSpace(l[s.a:min(s.b, len(l))]))
		}
		return out
	}
	headers = cells(lines[1])
	for _, l := range lines[3:] {
		if strings.HasPrefix(l, "-") {
			break
		}
		rows = append(rows, cells(l))
	}
	return headers, rows
}

func column(headers []string, name string) int {
	for i, h := range headers {
		if h == name {
			return i
		}
	}
	return -1
}

// TestRowNotesMatchTorch: the notes that explain strange rows (Self CUDA %
// over 100, negative Self CPU, names with two rows, the GPU-side
// ProfilerStep* row) fire exactly when torch's own table has such rows,
// with torch's counts, on every complete default table of oracle-gpu.
func TestRowNotesMatchTorch(t *testing.T) {
	shared := testenv.Shared(t)
	dir := filepath.Join(shared, "oracle-gpu")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []gpuOracleCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	checked, fired := 0, map[string]int{}
	for _, c := range cases {
		if len(c.Args) != 0 {
			continue
		}
		want, err := os.ReadFile(filepath.Join(dir, c.Expected))
		if err != nil {
			t.Fatal(err)
		}
		headers, rows := torchRows(string(want))
		if len(rows) == 0 || len(rows) >= 100 {
			continue // empty, or cut by row_limit: not every row is there
		}
		name, selfCPU, cpuTotal := column(headers, "Name"), column(headers, "Self CPU"), column(headers, "CPU total")
		cudaPct, selfCUDA := column(headers, "Self CUDA %"), column(headers, "Self CUDA")
		if cudaPct < 0 {
			cudaPct, selfCUDA = column(headers, "Self MTIA %"), column(headers, "Self MTIA")
		}
		over, neg, dup, dupExact, psGPU := 0, 0, 0, 0, false
		seen := map[string]int{}
		for _, r := range rows {
			if strings.HasPrefix(r[selfCPU], "-") {
				neg++
			}
			// Names cut to the column width end in "...": two different
			// names may print alike, so only uncut ones are surely pairs.
			if seen[r[name]]++; seen[r[name]] == 2 {
				dup++
				if !strings.HasSuffix(r[name], "...") {
					dupExact++
				}
			}
			if cudaPct >= 0 {
				if p, err := strconv.ParseFloat(strings.TrimSuffix(r[cudaPct], "%"), 64); err == nil && p > 100 {
					over++
				}
				if r[name] == "ProfilerStep*" && r[cpuTotal] == "0.000us" && r[selfCUDA] != "0.000us" {
					psGPU = true
				}
			}
		}
		args := []string{"table", "--torch", c.Torch, filepath.Join(shared, "traces", c.Trace)}
		_, stderr, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d", c.Expected, code)
		}
		checked++
		expect := func(what string, n int, text string) {
			t.Helper()
			has := strings.Contains(stderr, text)
			if (n > 0) != has {
				t.Errorf("%s: torch's table has %d rows %s; note %q present: %v\n%s", c.Expected, n, what, text, has, stderr)
			}
			if has {
				fired[what]++
			}
		}
		expect("over 100% Self CUDA", over, plainCount(over, "row has", "rows have")+" Self CUDA % over 100%")
		expect("with negative Self CPU", neg, "which leaves "+plainCount(neg, "row", "rows")+" with a negative Self CPU")
		if n := noteCount(stderr, " two rows of the same name"); n < dupExact || n > dup {
			t.Errorf("%s: torch's table has %d to %d names with two rows; the note says %d\n%s", c.Expected, dupExact, dup, n, stderr)
		} else if n > 0 {
			fired["sharing a name"]++
		}
		expect("GPU-side ProfilerStep*", b2n(psGPU), "the ProfilerStep* row with CUDA time and no CPU time")
	}
	if checked < 16 {
		t.Fatalf("only %d complete default tables checked", checked)
	}
	for _, what := range []string{"over 100% Self CUDA", "sharing a name", "GPU-side ProfilerStep*"} {
		if fired[what] == 0 {
			t.Errorf("no table has rows %s: the check proves nothing", what)
		}
	}
	t.Logf("%d tables; notes fired: %v", checked, fired)
}

// noteCount reads N from a note "N names have<suffix>" (0 when absent).
func noteCount(stderr, suffix string) int {
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimPrefix(l, "tracetab: note: ")
		if i := strings.Index(l, suffix); i > 0 {
			n, _ := strconv.Atoi(strings.Fields(l[:i])[0])
			return n
		}
	}
	return 0
}

func plainCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestUnlaunchedDeviceOps: on every real trace, the device ops with no
// correlation id at all and those whose correlation id names no launch call
// are counted from the raw events, and the table's notes give those counts.
func TestUnlaunchedDeviceOps(t *testing.T) {
	shared := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	dev := map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true,
		"cuda_sync": true, "cuda_profiler_range": true, "xpu_kernel": true, "xpu_memcpy": true, "xpu_memset": true, "mtia_ccp_events": true}
	launch := map[string]bool{"cuda_runtime": true, "Runtime": true, "runtime": true, "cuda_driver": true, "xpu_runtime": true,
		"xpu_driver": true, "mtia_runtime": true, "mtia_driver": true, "privateuse1_runtime": true, "privateuse1_driver": true}
	seenNoCorr, seenEarly := false, false
	for _, p := range paths {
		evs := readRawFile(t, p)
		corrs := map[int64]bool{}
		for i := range evs {
			if c, ok := argInt(evs[i], "correlation"); ok && evs[i].Ph == "X" && launch[evs[i].Cat] {
				corrs[c] = true
			}
		}
		total, noCorr, early := 0, 0, 0
		for i := range evs {
			if evs[i].Ph != "X" || !dev[evs[i].Cat] {
				continue
			}
			total++
			c, ok := argInt(evs[i], "correlation")
			switch {
			case !ok || c == 0:
				noCorr++
			case !corrs[c]:
				early++
			}
		}
		_, stderr, code := run(t, "table", p)
		if code != 0 {
			t.Fatalf("%s: exit %d", p, code)
		}
		base := filepath.Base(p)
		check := func(n int, text string) {
			t.Helper()
			if has := strings.Contains(stderr, text); has != (n > 0) {
				t.Errorf("%s: %d device ops; note %q present: %v\n%s", base, n, text, has, stderr)
			}
		}
		check(noCorr, fmt.Sprintf("%d of %d device ops %s no correlation id at all", noCorr, total, map[bool]string{true: "carries", false: "carry"}[noCorr == 1]))
		check(early, fmt.Sprintf("%d of %d device ops %s a correlation id but no launch call", early, total, map[bool]string{true: "has", false: "have"}[early == 1]))
		seenNoCorr = seenNoCorr || noCorr > 0
		seenEarly = seenEarly || early > 0
	}
	if !seenNoCorr || !seenEarly {
		t.Errorf("the real traces should hold both kinds (no id: %v, launched before the window: %v)", seenNoCorr, seenEarly)
	}
}

// TestDeviceClasses: MTIA's dma_request transfers are memory and its
// event_wait a wait, in the kernel view (as HTA's tests for MTIA traces
// expect a MEMORY row); neither carries a correlation id, and the note says so.
func TestDeviceClasses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mtia.json")
	trace := `{"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,"traceEvents":[
{"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":1,"dur":10,"args":{"External id":1}},
{"ph":"X","cat":"mtia_runtime","name":"launch","pid":1,"tid":1,"ts":2,"dur":2,"args":{"External id":1,"correlation":5}},
{"ph":"X","cat":"mtia_ccp_events","name":"add_kernel","pid":0,"tid":1,"ts":20,"dur":4,"args":{"correlation":5,"External id":1}},
{"ph":"X","cat":"mtia_ccp_events","name":"dma_request","pid":0,"tid":2,"ts":30,"dur":3},
{"ph":"X","cat":"mtia_ccp_events","name":"dma_request","pid":0,"tid":2,"ts":40,"dur":5},
{"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":0,"tid":2,"ts":50,"dur":7}]}`
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, "table", "--by", "kernel", "--format", "json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Kernels []struct {
			Name, Class string
			Calls       int64
			TotalNs     int64 `json:"total_ns"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"add_kernel": "compute", "dma_request": "memory", "event_wait": "wait"}
	for _, k := range doc.Kernels {
		if want[k.Name] != k.Class {
			t.Errorf("%s: class %q, want %q", k.Name, k.Class, want[k.Name])
		}
		delete(want, k.Name)
	}
	if len(want) > 0 {
		t.Errorf("missing from the kernel view: %v", want)
	}
	if !strings.Contains(stderr, "3 of 4 device ops carry no correlation id at all (2 memory, 1 wait; e.g. dma_request, event_wait)") {
		t.Errorf("want a note naming the 3 uncorrelated ops by class: %q", stderr)
	}
}

// TestTableJSONContract: every JSON document of table (op, kernel and step
// views) follows the output contract: a versioned schema, integer *_ns,
// *_pct with at most 2 decimals, no *_us, calls rather than count, sort_by
// named, steps null without --steps and a number pair with it.
func TestTableJSONContract(t *testing.T) {
	shared := testenv.Shared(t)
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	b200 := filepath.Join(shared, "traces", "TraceLens__b200__eager_trace.json.gz")
	mem := filepath.Join(shared, "traces", "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
	for _, args := range [][]string{
		{"table", sample}, {"table", "--steps", "3-4", sample}, {"table", "--by", "kernel", sample}, {"table", "--by", "step", sample},
		{"table", "--by", "step", "--steps", "3", sample}, {"table", "--group-by-shape", "--sort", "self_cuda_time_total", b200},
		{"table", mem}, {"table", "--by", "kernel", b200},
	} {
		out, stderr, code := run(t, append(args, "--format", "json", "--limit", "-1")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		d := json.NewDecoder(strings.NewReader(out))
		d.UseNumber()
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if s, _ := doc["schema"].(string); !strings.HasPrefix(s, "tracetab.") || !strings.Contains(s, "/") {
			t.Errorf("%v: schema %q", args, s)
		}
		steps := "steps"
		if slices.Contains(args, "step") {
			steps = "steps_selected"
		}
		sel, present := doc[steps]
		if !present {
			t.Errorf("%v: no %q field", args, steps)
		} else if withSteps := slices.Contains(args, "--steps"); withSteps == (sel == nil) {
			t.Errorf("%v: %s = %v", args, steps, sel)
		}
		if !slices.Contains(args, "step") {
			if s, _ := doc["sort_by"].(string); s == "" {
				t.Errorf("%v: sort_by not named", args)
			}
		}
		nsFields := 0
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for k, c := range x {
					switch {
					case strings.HasSuffix(k, "_us") || k == "count":
						t.Errorf("%v: field %s.%s breaks the contract", args, path, k)
					case strings.HasSuffix(k, "_ns") || k == "calls" || strings.HasSuffix(k, "_bytes"):
						nsFields++
						if n, ok := c.(json.Number); c != nil && (!ok || strings.ContainsAny(string(n), ".eE")) {
							t.Errorf("%v: %s.%s = %v is not an integer", args, path, k, c)
						}
					case strings.HasSuffix(k, "_pct"):
						if n, ok := c.(json.Number); c != nil {
							_, frac, _ := strings.Cut(string(n), ".")
							if !ok || len(frac) > 2 || strings.ContainsAny(string(n), "eE") {
								t.Errorf("%v: %s.%s = %v: want at most 2 decimals", args, path, k, c)
							}
						}
					}
					walk(path+"."+k, c)
				}
			case []any:
				for _, c := range x {
					walk(path+"[]", c)
				}
			}
		}
		walk("", doc)
		if nsFields == 0 {
			t.Errorf("%v: no *_ns field seen", args)
		}
	}
}

// TestEraOfRealTraces: the era info names follows from the raw file on
// every real trace: ns timestamps (a baseTimeNanoseconds key or a ts with
// decimals) are torch 2.4 or later; capitalised categories without cpu_op
// are 2021's torch 1.8/1.9; integer-us traces whose ops carry "Ev Idx" are
// torch 1.13 to 2.3; other integer-us traces are 1.10 to 2.3 at most.
func TestEraOfRealTraces(t *testing.T) {
	shared := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	if len(paths) < 20 {
		t.Fatalf("only %d traces", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		evs := readRawFile(t, p)
		ns := bytes.Contains(b, []byte(`"baseTimeNanoseconds"`))
		cats := map[string]bool{}
		evIdx := false
		for i := range evs {
			cats[evs[i].Cat] = true
			ns = ns || strings.Contains(string(evs[i].Ts), ".")
			if evs[i].Cat == "cpu_op" {
				_, a := evs[i].Args["Ev Idx"]
				_, c := evs[i].Args["Profiler Event Index"]
				evIdx = evIdx || a || c
			}
		}
		var want, assumed string
		switch {
		case ns:
			want, assumed = "written by torch 2.4 or later", "2.14"
		case cats["Operator"] && !cats["cpu_op"]:
			want, assumed = "written by torch 1.8 or 1.9", "1.9"
		case evIdx:
			want, assumed = "written by torch 1.13 to 2.3", "2.3"
		case cats["cpu_op"]:
			want, assumed = "written by torch 1.10 to 1.12", "1.12"
		default:
			want, assumed = "written by torch 1.10 to 2.3", "2.3"
		}
		out, _, code := run(t, "info", p)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "torch       "+assumed+" assumed") {
			t.Errorf("%s: want %q and %s assumed:\n%s", filepath.Base(p), want, assumed, lastLines(strings.Join(strings.SplitN(out, "\n", 4)[:3], "\n"), 2))
		}
	}
}
