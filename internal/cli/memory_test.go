package cli

import (
	"bytes"
	"encoding/json"
	"github.com/tracetab/tracetab/internal/rawjson"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

// runIn is run with the trace on standard input (so goldens name "-").
func runIn(t testing.TB, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, bytes.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// memTrace is the generated trace of the memory goldens: three steps, a
// leak of 1 MiB per step, two pre-trace frees, CPU allocations (one thread
// without ops), freed addresses handed out again.
func memTrace(t testing.TB) []byte {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 3, Layers: 1,
		Memory: gen.Memory{AllocsPerOp: 1, LeakBytes: 1 << 20, PreTrace: 2, CPU: true, Reuse: true}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rawPeaks reads, from the raw JSON, each device's largest Total
// Allocated and Total Reserved and the time (ns from the trace's start)
// of the first record reaching the allocated peak.
func rawPeaks(t *testing.T, evs []rawEvent) map[string][3]int64 {
	out := map[string][3]int64{}
	type rec struct {
		ts, total, resv int64
		idx             int
	}
	byDev := map[string][]rec{}
	var origin int64
	for i, e := range evs {
		if e.Cat == "Trace" {
			origin = e.Ts
		}
		if e.Name != "[memory]" {
			continue
		}
		dt, _ := argInt(e, "Device Type")
		id, _ := argInt(e, "Device Id")
		name := "cpu"
		if dt == 1 {
			name = "cuda:" + strconv.FormatInt(id, 10)
		}
		tot, _ := argInt(e, "Total Allocated")
		res, _ := argInt(e, "Total Reserved")
		byDev[name] = append(byDev[name], rec{e.Ts, tot, res, i})
	}
	for name, rs := range byDev {
		slices.SortStableFunc(rs, func(a, b rec) int { return int(a.ts - b.ts) })
		best := rs[0]
		var resv int64
		for _, r := range rs {
			if r.total > best.total {
				best = r
			}
			resv = max(resv, r.resv)
		}
		out[name] = [3]int64{best.total, resv, best.ts - origin}
	}
	return out
}

// TestMemoryGolden: each view of the generated trace through Main: its
// exit code and notes held to testdata/golden, its stdout to memoryview's
// goldens (its TestGolden makes them on the model), and the peaks it
// prints checked against the raw JSON.
func TestMemoryGolden(t *testing.T) {
	data := memTrace(t)
	evs, err := rawjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	peaks := rawPeaks(t, evs)
	if len(peaks) != 2 {
		t.Fatalf("the generated trace has %d devices, want cpu and cuda:0", len(peaks))
	}
	cases := [][]string{
		{"memory", "-", "--width", "80"},
		{"memory", "-", "--format", "md", "--top", "3"},
		{"memory", "-", "--format", "json"},
		{"memory", "-", "--timeline", "--width", "72"},
		{"memory", "-", "--section", "alive", "--width", "80"},
	}
	for _, s := range []string{"devices", "alive", "steps", "lifetimes", "leak"} {
		cases = append(cases, []string{"memory", "-", "--format", "csv", "--section", s})
	}
	for _, args := range cases {
		name := "memory_gen." + strings.Join(args[2:], "_") + ".golden"
		out, stderr, code := runIn(t, data, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		golden.Check(t, testenv.Root(), name, "exit 0\n-- stderr --\n"+stderr)
		holdToViewGolden(t, "memoryview", name, out)
		switch {
		case slices.Contains(args, "json"):
			var j struct {
				Devices []struct {
					Name   string `json:"device_name"`
					Peak   int64  `json:"peak_allocated_bytes"`
					Resv   int64  `json:"peak_reserved_bytes"`
					PeakNs int64  `json:"peak_ns"`
				} `json:"devices"`
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatal(err)
			}
			for _, d := range j.Devices {
				if w := peaks[d.Name]; [3]int64{d.Peak, d.Resv, d.PeakNs} != w {
					t.Errorf("json %s: peak, reserved, time %v, the raw JSON gives %v", d.Name, [3]int64{d.Peak, d.Resv, d.PeakNs}, w)
				}
			}
		case slices.Contains(args, "csv") && slices.Contains(args, "devices"):
			for name, w := range peaks {
				if !strings.Contains(out, "\n"+name+","+strconv.FormatInt(w[0], 10)+",") {
					t.Errorf("csv lacks %s with peak %d:\n%s", name, w[0], out)
				}
			}
		case len(args) == 4:
			for name, w := range peaks {
				if want := name + ": peak " + units.Bytes(w[0]) + " allocated at " + units.Dur(w[2]); !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
					t.Errorf("text lacks %q", want)
				}
			}
		case slices.Contains(args, "--timeline"):
			checkTimeline(t, out, peaks, 72-10)
		}
	}
}

// checkTimeline: on each device's allocated row, the column holding the
// peak's time shows the row's highest glyph.
func checkTimeline(t *testing.T, out string, peaks map[string][3]int64, cols int) {
	t.Helper()
	ramp := "_.-:=+*#%@"
	blocks := strings.Split(strings.TrimSpace(out), "\n\n")
	var windowEnd int64
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "0.000us" {
			windowEnd = parseDurText(t, f[1])
		}
	}
	for _, b := range blocks {
		lines := strings.Split(b, "\n")
		name := strings.TrimSuffix(strings.Fields(lines[0])[0], ":")
		row := []rune(strings.TrimPrefix(lines[1], "allocated "))
		if len(row) != cols {
			t.Fatalf("%s: %d columns, want %d", name, len(row), cols)
		}
		top := 0
		for _, r := range row {
			top = max(top, strings.IndexRune(ramp, r))
		}
		c := int(peaks[name][2] * int64(cols) / windowEnd)
		if strings.IndexRune(ramp, row[c]) != top {
			t.Errorf("%s: column %d (the peak at %s) shows %q, the row's highest is %q", name, c, units.Dur(peaks[name][2]), row[c], ramp[top])
		}
	}
}

// parseDurText reads what units.Dur printed, to the ns it rounds to.
func parseDurText(t *testing.T, s string) int64 {
	ns, err := units.ParseDur(s)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// TestMemoryNoRecords: a trace without [memory] events says so, naming
// profile_memory=True, and exits 0; its JSON has no devices.
func TestMemoryNoRecords(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	for _, format := range []string{"text", "md", "csv", "json"} {
		out, stderr, code := run(t, "memory", sample, "--format", format)
		if code != 0 || !strings.Contains(stderr, "profile_memory=True") {
			t.Errorf("%s: exit %d, stderr %q", format, code, stderr)
		}
		switch format {
		case "json":
			var j struct {
				Schema  string `json:"schema"`
				Devices []any  `json:"devices"`
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil || j.Schema != "tracetab.memory/1" || j.Devices == nil || len(j.Devices) != 0 {
				t.Errorf("json: %v %+v", err, j)
			}
		case "csv":
			if strings.Count(out, "\n") != 1 {
				t.Errorf("csv: want the header alone, got %q", out)
			}
		default:
			if out != "" {
				t.Errorf("%s: want nothing on stdout, got %q", format, out)
			}
		}
	}
	if _, stderr, code := run(t, "memory", sample, "--timeline"); code != 0 || !strings.Contains(stderr, "profile_memory=True") {
		t.Errorf("--timeline: exit %d, %q", code, stderr)
	}
}

// TestMemoryUsage: bad flags exit 2 with a message naming the flag.
func TestMemoryUsage(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--section", "peaks"}, "--section"},
		{[]string{"--format", "junit"}, "--format"},
		{[]string{"--timeline", "--format", "csv"}, "--timeline"},
		{[]string{"--timeline", "--section", "alive"}, "--timeline"},
		{[]string{"--leak-share", "NaN"}, "--leak-share"},
		{[]string{"--leak-share", "-1"}, "--leak-share"},
		{[]string{"--leak-share", "abc%"}, "--leak-share"},
		{[]string{"--leak-share", "101"}, "--leak-share"},
		{[]string{"--top", "-3"}, "--top"},
		{[]string{"--width", "-5"}, "--width"},
	} {
		_, stderr, code := run(t, append([]string{"memory", sample}, c.args...)...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
	if _, _, code := run(t, "memory"); code != ExitUsage {
		t.Errorf("no trace: exit %d", code)
	}
	if _, stderr, code := run(t, "memory", filepath.Join(t.TempDir(), "missing.json")); code != ExitUnreadable || !strings.Contains(stderr, "missing.json") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
	for _, share := range []string{"0.5", "0.5%", "0"} {
		if _, stderr, code := run(t, "memory", sample, "--leak-share", share); code != 0 {
			t.Errorf("--leak-share %s: exit %d, %q", share, code, stderr)
		}
	}
}

// TestMemoryAllShared: the JSON (with the timeline) of every shared trace
// exits 0 and parses; on the traces with [memory] events its peaks equal
// the raw JSON's largest Total Allocated and Total Reserved per device,
// and text (within 80 columns), Markdown, the timeline and CSV exit 0.
func TestMemoryAllShared(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	if len(files) < 20 {
		t.Fatalf("%d shared traces", len(files))
	}
	withMem := 0
	for _, f := range files {
		out, stderr, code := run(t, "memory", f, "--format", "json", "--timeline")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", filepath.Base(f), code, stderr)
			continue
		}
		var j struct {
			Devices []struct {
				Name     string `json:"device_name"`
				Peak     *int64 `json:"peak_allocated_bytes"`
				Resv     *int64 `json:"peak_reserved_bytes"`
				Timeline []any  `json:"timeline"`
			} `json:"devices"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if len(j.Devices) == 0 {
			continue // the other views print nothing but the note
		}
		{
			withMem++
			raw := readRawFile(t, f)
			maxes := map[string][2]int64{}
			has := map[string]bool{}
			for _, e := range raw {
				if e.Name != "[memory]" {
					continue
				}
				dt, _ := argInt(e, "Device Type")
				id, _ := argInt(e, "Device Id")
				name := map[int64]string{0: "cpu", 1: "cuda", 6: "hip"}[dt]
				if id >= 0 && dt != 0 {
					name += ":" + strconv.FormatInt(id, 10)
				}
				tot, ok := argInt(e, "Total Allocated")
				res, _ := argInt(e, "Total Reserved")
				m, seen := maxes[name]
				if !seen {
					m = [2]int64{tot, res}
				}
				maxes[name] = [2]int64{max(m[0], tot), max(m[1], res)}
				has[name] = ok
			}
			if len(maxes) != len(j.Devices) {
				t.Errorf("%s: %d devices, the raw JSON has %v", filepath.Base(f), len(j.Devices), maxes)
			}
			for _, d := range j.Devices {
				if len(d.Timeline) == 0 {
					t.Errorf("%s %s: no timeline", filepath.Base(f), d.Name)
				}
				if !has[d.Name] {
					if d.Peak != nil {
						t.Errorf("%s %s: peak %d without Total Allocated", filepath.Base(f), d.Name, *d.Peak)
					}
					continue
				}
				if d.Peak == nil || d.Resv == nil || *d.Peak != maxes[d.Name][0] || *d.Resv != maxes[d.Name][1] {
					t.Errorf("%s %s: peaks %v %v, the raw JSON gives %v", filepath.Base(f), d.Name, d.Peak, d.Resv, maxes[d.Name])
				}
			}
		}
		for _, args := range [][]string{{"--width", "80"}, {"--format", "md"}, {"--timeline"}, {"--format", "csv", "--section", "lifetimes"}} {
			out, stderr, code := run(t, append([]string{"memory", f}, args...)...)
			if code != 0 {
				t.Errorf("%s %v: exit %d: %s", filepath.Base(f), args, code, stderr)
			}
			if args[0] == "--width" {
				for _, l := range strings.Split(out, "\n") {
					if n := len([]rune(l)); n > 80 {
						t.Errorf("%s: a line of %d columns at --width 80: %q", filepath.Base(f), n, l)
						break
					}
				}
			}
		}
	}
	if withMem != 5 {
		t.Errorf("%d shared traces with [memory] events, want 5", withMem)
	}
}

// writeTrace writes a hand-made trace into the test's temp dir.
func writeTrace(t *testing.T, name, events string) string {
	p := filepath.Join(t.TempDir(), name)
	doc := `{"traceEvents": [` + events + `]}`
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func memRec(tid int, ts string, dt, id int, addr, bytes, total, resv int64) string {
	return `{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": ` + strconv.Itoa(tid) + `, "ts": ` + ts +
		`, "args": {"Total Reserved": ` + strconv.FormatInt(resv, 10) + `, "Total Allocated": ` + strconv.FormatInt(total, 10) +
		`, "Bytes": ` + strconv.FormatInt(bytes, 10) + `, "Addr": ` + strconv.FormatInt(addr, 10) +
		`, "Device Id": ` + strconv.Itoa(id) + `, "Device Type": ` + strconv.Itoa(dt) + `}}`
}

func op(name string, tid int, ts, dur string) string {
	return `{"ph": "X", "cat": "cpu_op", "name": "` + name + `", "pid": 1, "tid": ` + strconv.Itoa(tid) + `, "ts": ` + ts + `, "dur": ` + dur + `}`
}

// memJSON runs memory --format json on a file and decodes it.
func memJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	out, stderr, code := run(t, "memory", path, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {"--timeline"}, {"--format", "md"}, {"--format", "csv", "--section", "alive"}, {"--format", "csv", "--section", "steps"}} {
		if _, stderr, code := run(t, append([]string{"memory", path}, args...)...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	return j
}

func device(t *testing.T, j map[string]any, name string) map[string]any {
	t.Helper()
	for _, d := range j["devices"].([]any) {
		if dm := d.(map[string]any); dm["device_name"] == name {
			return dm
		}
	}
	t.Fatalf("no device %s in %v", name, j["devices"])
	return nil
}

// TestMemoryEdgeRecords: records outside every op, before the first op,
// between top-level ops, on a thread without ops and on a device with no
// GPU lane, frees of pre-trace memory, an address allocated twice, a zero
// byte record, a zero-duration op, and a trace of records alone: each is
// attributed as the definitions say, and nothing goes negative.
func TestMemoryEdgeRecords(t *testing.T) {
	const gpu = 1
	evs := []string{
		memRec(7, "1", gpu, 0, 900, -512, 4096, 8192),    // before the first op: a free of pre-trace memory
		op("aten::add", 7, "10", "5"),                    // [10, 15)
		memRec(7, "12", gpu, 0, 100, 1024, 5120, 8192),   // in aten::add
		op("aten::zeros", 7, "20", "0"),                  // zero duration: holds nothing
		memRec(7, "20", gpu, 0, 200, 2048, 7168, 8192),   // at the zero-duration op: outside every op
		memRec(7, "17", gpu, 0, 300, 0, 5120, 8192),      // zero bytes, between the two ops
		memRec(9, "30", gpu, 0, 100, 4096, 11264, 16384), // a thread without ops; address 100 again, not freed
		memRec(7, "40", gpu, 0, 100, -4096, 7168, 16384), // frees the latest allocation of 100
		memRec(9, "50", 0, -1, 555, 64, 64, 0),           // the CPU, a device with no lane
		memRec(9, "60", 0, -1, 555, -64, 0, 0),           // freed
	}
	j := memJSON(t, writeTrace(t, "edge.json", strings.Join(evs, ",\n")))
	d := device(t, j, "cuda:0")
	num := func(m map[string]any, k string) float64 {
		t.Helper()
		v, ok := m[k].(float64)
		if !ok {
			t.Fatalf("%s = %v", k, m[k])
		}
		return v
	}
	// levels: 4608 before the first record (4096 + 512), peak 11264 at
	// 30us, 20us after the origin (no Trace span: the first X event, at 10us)
	if num(d, "start_allocated_bytes") != 4608 || num(d, "peak_allocated_bytes") != 11264 || num(d, "peak_ns") != 20000 {
		t.Errorf("start %v, peak %v at %v", d["start_allocated_bytes"], d["peak_allocated_bytes"], d["peak_ns"])
	}
	if d["peak_op"] != nil || num(d, "pre_trace_frees") != 1 || num(d, "allocations") != 3 || num(d, "frees") != 2 {
		t.Errorf("peak op %v, pre-trace frees %v, allocations %v, frees %v", d["peak_op"], d["pre_trace_frees"], d["allocations"], d["frees"])
	}
	a := d["alive_at_peak"].(map[string]any)
	// alive at 30: 1024 (aten::add, at 100, replaced by the allocation at 30 but never freed), 2048 (no op), 4096 (no op)
	if num(a, "in_trace_bytes") != 1024+2048+4096 || num(a, "before_trace_bytes") != 11264-(1024+2048+4096) {
		t.Errorf("alive %v", a)
	}
	groups := map[string]float64{}
	for _, g := range a["groups"].([]any) {
		gm := g.(map[string]any)
		name, _ := gm["op"].(string)
		groups[name] = num(gm, "bytes")
	}
	if groups["aten::add"] != 1024 || groups[""] != 2048+4096 || len(groups) != 2 {
		t.Errorf("groups %v", groups)
	}
	cpu := device(t, j, "cpu")
	if cpu["device_id"] != nil || num(cpu, "peak_allocated_bytes") != 64 || cpu["peak_op"] != nil {
		t.Errorf("cpu %v", cpu)
	}

	// records alone: no X event at all
	j = memJSON(t, writeTrace(t, "records-only.json", memRec(1, "5", gpu, 0, 1, 256, 256, 0)+","+memRec(1, "6", gpu, 0, 1, -256, 0, 0)))
	if d := device(t, j, "cuda:0"); num(d, "peak_allocated_bytes") != 256 || d["peak_op"] != nil {
		t.Errorf("records alone: %v", d)
	}
	// only frees of pre-trace memory
	j = memJSON(t, writeTrace(t, "frees-only.json", op("aten::sum", 1, "0", "100")+","+memRec(1, "5", gpu, 0, 1, -256, 768, 0)+","+memRec(1, "6", gpu, 0, 2, -256, 512, 0)))
	d = device(t, j, "cuda:0")
	a = d["alive_at_peak"].(map[string]any)
	if num(d, "peak_allocated_bytes") != 768 || num(a, "in_trace_bytes") != 0 || num(a, "before_trace_bytes") != 768 || num(a, "before_trace_freed_later") != 1 {
		t.Errorf("frees only: %v %v", d["peak_allocated_bytes"], a)
	}
	// an [OutOfMemory] event alone
	oom := `{"ph": "i", "s": "t", "name": "[OutOfMemory]", "pid": 1, "tid": 1, "ts": 5, "args": {"Bytes": 1073741824, "Total Allocated": 0, "Total Reserved": 0, "Device Id": 0, "Device Type": 1}}`
	out, stderr, code := run(t, "memory", writeTrace(t, "oom.json", op("aten::empty", 1, "0", "10")+","+oom))
	if code != 0 || !strings.Contains(stderr, "OutOfMemory") {
		t.Errorf("oom only: exit %d, %q %q", code, out, stderr)
	}
	// records before the origin: the Trace span starts later
	span := `{"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 100, "dur": 50}`
	out, stderr, code = run(t, "memory", writeTrace(t, "before.json", span+","+memRec(1, "40", gpu, 0, 1, 256, 256, 0)))
	if code != 0 || !strings.Contains(out, "60.000us before the origin") {
		t.Errorf("before the origin: exit %d, %q %q", code, out, stderr)
	}
}

// TestMemoryCheckBudgets: check holds each device to memory budgets; the
// values are the raw JSON's; a trace without records is n/a.
func TestMemoryCheckBudgets(t *testing.T) {
	data := memTrace(t)
	path := filepath.Join(t.TempDir(), "mem.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	evs, err := rawjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	peak := rawPeaks(t, evs)["cuda:0"]
	pb := strconv.FormatInt(peak[0], 10)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"--max", "peak_allocated@^cuda=" + pb}, 0},
		{[]string{"--max", "peak_allocated@^cuda=" + strconv.FormatInt(peak[0]-1, 10)}, 1},
		{[]string{"--max", "peak_reserved=" + strconv.FormatInt(peak[1], 10)}, 0},
		{[]string{"--max", "step_growth@cuda=1MiB"}, 0}, // the median step grows by the 1 MiB leak
		{[]string{"--max", "step_growth@cuda=1048575"}, 1},
		{[]string{"--max", "step_growth@cpu=0"}, 0},
		{[]string{"--max", "peak_allocated@gpu7=1GB"}, 1}, // matches no device: n/a
		{[]string{"--max", "peak_allocated@gpu7=1GB", "--allow-missing"}, 0},
	} {
		out, stderr, code := run(t, append([]string{"check", path, "--format", "json"}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d: %s %s", c.args, code, c.code, out, stderr)
			continue
		}
		var j struct {
			Budgets []map[string]any `json:"budgets"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil || len(j.Budgets) != 1 {
			t.Fatalf("%v: %v %s", c.args, err, out)
		}
		if strings.HasPrefix(c.args[1], "peak_allocated@^cuda") && j.Budgets[0]["value_bytes"] != float64(peak[0]) {
			t.Errorf("%v: value %v, the raw JSON's peak is %d", c.args, j.Budgets[0]["value_bytes"], peak[0])
		}
	}
	budget := filepath.Join(t.TempDir(), "budget.yaml")
	os.WriteFile(budget, []byte("budgets:\n  - metric: peak_allocated\n    match: ^cuda:0$\n    max: 4GiB\n  - metric: step_growth\n    max: 2MiB\n"), 0o644)
	if out, stderr, code := run(t, "check", path, "--budget", budget); code != 0 {
		t.Errorf("budget file: exit %d: %s %s", code, out, stderr)
	}
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	if out, _, code := run(t, "check", sample, "--max", "peak_allocated=1GB"); code != 1 || !strings.Contains(out, "profile_memory=True") {
		t.Errorf("no [memory] events: exit %d, %s", code, out)
	}
	if _, stderr, code := run(t, "check", sample, "--max", "peak_allocatd=1GB"); code != ExitUsage || !strings.Contains(stderr, "peak_allocated") {
		t.Errorf("a misspelt metric: exit %d, %s", code, stderr)
	}
}

// TestMemoryDiff: diff compares the peaks per device (a CUDA and a ROCm
// run of one model: cuda:0 and hip:0 aligned) with the raw JSON's values,
// and memory rules fail on them.
func TestMemoryDiff(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	var files []string
	for _, f := range []string{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz", "TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz"} {
		files = append(files, filepath.Join(dir, f))
	}
	raw := func(f string) (alloc, resv int64) {
		for _, e := range readRawFile(t, f) {
			if dt, _ := argInt(e, "Device Type"); e.Name == "[memory]" && dt != 0 {
				a, _ := argInt(e, "Total Allocated")
				r, _ := argInt(e, "Total Reserved")
				alloc, resv = max(alloc, a), max(resv, r)
			}
		}
		return alloc, resv
	}
	ba, br := raw(files[0])
	na, nr := raw(files[1])
	out, stderr, code := run(t, "diff", files[0], files[1], "--format", "json", "--fail-on", "peak_allocated>10%@^cuda", "--fail-on", "peak_reserved>1000%")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var j struct {
		Schema string `json:"schema"`
		Memory struct {
			Devices []struct {
				Name    string `json:"device_name"`
				Metrics []struct {
					Metric string `json:"metric"`
					Base   *int64 `json:"base_bytes"`
					New    *int64 `json:"new_bytes"`
				} `json:"metrics"`
			} `json:"devices"`
		} `json:"memory"`
		Violations []struct {
			Rule string `json:"rule"`
		} `json:"violations"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range j.Memory.Devices {
		if d.Name != "cuda:0 / hip:0" {
			continue
		}
		found = true
		for _, m := range d.Metrics {
			want := map[string][2]int64{"peak_allocated": {ba, na}, "peak_reserved": {br, nr}}[m.Metric]
			if m.Metric != "step_growth" && (m.Base == nil || m.New == nil || [2]int64{*m.Base, *m.New} != want) {
				t.Errorf("%s: %v %v, the raw JSON gives %v", m.Metric, m.Base, m.New, want)
			}
		}
	}
	if !found || len(j.Violations) != 1 || j.Violations[0].Rule != "peak_allocated>10%@^cuda" {
		t.Errorf("devices %+v, violations %+v", j.Memory.Devices, j.Violations)
	}
	text, _, _ := run(t, "diff", files[0], files[1])
	if !strings.Contains(text, "Memory (per device") || !strings.Contains(text, units.Bytes(ba)) {
		t.Errorf("text lacks the memory section with %s", units.Bytes(ba))
	}
	// a trace against itself: no memory change fails a rule
	if _, stderr, code := run(t, "diff", files[0], files[0], "--fail-on", "peak_allocated>0%", "--fail-on", "step_growth>0"); code != 0 {
		t.Errorf("a trace against itself: exit %d: %s", code, stderr)
	}
}
