package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/testenv"
)

// writeDeep writes a trace whose one CPU thread is nested n deep, with a
// launch call and its kernel at the bottom.
func writeDeep(t testing.TB, n int, same bool) string {
	path := filepath.Join(t.TempDir(), "deep.json")
	var b strings.Builder
	b.WriteString(`{"traceEvents":[` + "\n")
	for i := 0; i < n; i++ {
		name := "level"
		if !same {
			name = "level_" + itoa(i)
		}
		b.WriteString(`{"ph":"X","cat":"cpu_op","name":"` + name + `","pid":1,"tid":1,"ts":` + itoa(i) + `,"dur":` + itoa(2*(n-i)) + "},\n")
	}
	b.WriteString(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":` + itoa(n) + `,"dur":1,"args":{"correlation":7}},` + "\n")
	b.WriteString(`{"ph":"X","cat":"kernel","name":"deep_kernel","pid":0,"tid":7,"ts":` + itoa(n+10) + `,"dur":5,"args":{"correlation":7,"device":0,"stream":7}}` + "\n]}\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestChainExitCodes: a pattern or filter that selects nothing, an
// ambiguous name and contradictory flags are usage errors (exit 2) that
// say why; the closest names are offered.
func TestChainExitCodes(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"chain", sample, "aten::m"}, 2, `closest names: "aten::mm"`},
		{[]string{"chain", sample, "aten::mmm"}, 2, `no event is named "aten::mmm"`},
		{[]string{"chain", sample, "--regex", "^nothing$"}, 2, "no event name matches"},
		{[]string{"chain", sample, "--regex", "("}, 2, "PATTERN"},
		{[]string{"chain", sample, "--regex", "."}, 2, "choose --down (from the CPU events) or --up"},
		{[]string{"chain", sample, "aten::mm", "--step", "99"}, 2, "no ProfilerStep#99 (its steps are 2 to 5)"},
		{[]string{"chain", sample, "aten::mm", "--instance", "9"}, 2, "there are 4 instances in the trace"},
		{[]string{"chain", sample, "aten::mm", "--instance", "2", "--step", "3"}, 2, "--instance 2: there is 1 instance in ProfilerStep#3"},
		{[]string{"chain", sample, "ampere_sgemm_32x32_sliced1x4_nn", "--down"}, 2, "names only device ops"},
		{[]string{"chain", sample, "aten::mm", "--up", "--down"}, 2, "exclude each other"},
		{[]string{"chain", sample, "--summary"}, 2, "need a PATTERN"},
		{[]string{"chain", sample, "aten::mm", "--max-lines", "-1"}, 2, "--max-lines"},
		{[]string{"chain", sample, "aten::mm", "--instance", "0"}, 2, "count from 1"},
		{[]string{"chain", "/nonexistent.json", "aten::mm"}, 3, "cannot open"},
		{[]string{"chain", sample, "aten::mm", "--up"}, 0, ""},
		{[]string{"chain", sample, "ProfilerStep*", "--all"}, 0, ""},
	} {
		t.Run(strings.Join(c.args[2:], " "), func(t *testing.T) {
			_, stderr, code := run(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.err) || strings.Contains(stderr, "Run 'tracetab --help'") {
				t.Fatalf("exit %d stderr %q; want %d and %q", code, stderr, c.code, c.err)
			}
		})
	}
}

// chainTimeKeys are the JSON fields of chain/2 that are not times.
var chainNotTime = map[string]bool{
	"id": true, "parent": true, "depth": true, "pid": true, "tid": true, "device": true, "stream": true, "correlation": true,
	"instance": true, "of": true, "step": true, "steps": true, "instances": true, "instances_in_trace": true, "names_count": true,
	"nested_instances": true, "launched_count": true, "registers_per_thread": true, "shared_memory_bytes": true, "bytes": true,
	"omitted_lines": true, "omitted_instances": true, "hidden_below_depth": true, "max_lines": true, "count": true,
	"calls": true, "unlinked": true, "per_call": true, "grid": true, "block": true,
}

// checkChainJSON fails on a number that is neither an integer *_ns time
// nor a known count or id, and on any "" or -1 standing for a missing value.
func checkChainJSON(t *testing.T, what string, v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		for k, y := range x {
			checkChainJSON(t, what, y, k)
		}
	case []any:
		for _, y := range x {
			checkChainJSON(t, what, y, key)
		}
	case json.Number:
		s := x.String()
		switch {
		case strings.HasSuffix(key, "_ns"):
			if strings.ContainsAny(s, ".eE") {
				t.Errorf("%s: %s = %s is not integer ns", what, key, s)
			}
		case !chainNotTime[key]:
			t.Errorf("%s: numeric field %q has no unit suffix", what, key)
		case s == "-1" && key != "pid" && key != "tid":
			t.Errorf("%s: %s = -1 (missing values are null)", what, key)
		case key == "per_call" && len(s) > strings.Index(s+".", ".")+3:
			t.Errorf("%s: per_call %s has more than 2 decimals", what, s)
		}
	case string:
		if x == "" && key != "name" {
			t.Errorf("%s: %s is \"\" (missing values are null)", what, key)
		}
	}
}

// TestChainJSONContract: chain/2 on real traces: a schema with a version,
// integer *_ns times, null for what is missing, the same numbers as text.
func TestChainJSONContract(t *testing.T) {
	shared := testenv.Shared(t)
	for _, c := range []struct{ file, args string }{
		{"HTA__triton_example__triton_example.json.gz", ""},
		{"HTA__triton_example__triton_example.json.gz", "triton_poi_fused_add_cos_sin_0 --up"},
		{"HTA__call_stack__backward_thread.json", ""},
		{"TraceLens__torch_compile_triton__trace.json.gz", "--regex triton --up --all"},
		{"TraceLens__torch_compile_triton__trace.json.gz", "--regex triton --up --summary"},
		{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz", "aten::addmm --summary"},
		{"TraceLens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", "--regex . --up --all --max-lines 300"},
	} {
		t.Run(c.file+" "+c.args, func(t *testing.T) {
			args := append([]string{"chain", filepath.Join(shared, "traces", c.file), "--format", "json"}, strings.Fields(c.args)...)
			out, stderr, code := run(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			dec := json.NewDecoder(strings.NewReader(out))
			dec.UseNumber()
			var v map[string]any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("invalid JSON: %v", err)
			}
			if v["schema"] != "tracetab.chain/2" {
				t.Fatalf("schema %v", v["schema"])
			}
			checkChainJSON(t, c.args, v, "")
			if strings.Contains(c.args, "--summary") {
				if s, _ := v["summary"].(map[string]any); s == nil || len(s["rows"].([]any)) == 0 {
					t.Fatalf("summary without rows: %v", v["summary"])
				}
			}
		})
	}
}

// TestChainText: the up-walk is one frame per line at one indentation (no
// staircase), a broad pattern's header names at most 10 names, and a trace
// without steps says what it shows.
func TestChainText(t *testing.T) {
	shared := testenv.Shared(t)
	big := filepath.Join(shared, "traces", "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz")
	out, _, code := run(t, "chain", big, "--regex", "gemm", "--up", "--all", "--max-lines", "400")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	frames := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "child at +") {
			frames++
			if !strings.HasPrefix(l, "  <- ") || strings.HasPrefix(l, "   ") {
				t.Fatalf("frame not at the one indentation: %q", l)
			}
		}
		if strings.HasSuffix(l, " ") {
			t.Fatalf("trailing space: %q", l)
		}
	}
	if frames < 100 {
		t.Fatalf("only %d frames", frames)
	}
	out, _, _ = run(t, "chain", big, "--regex", ".", "--down", "--max-lines", "5")
	head := strings.SplitN(out, "\n", 2)[0]
	if len(strings.Split(head, ", ")) > 10 || !strings.Contains(head, "more)") || len(head) > 2000 {
		t.Fatalf("header: %d bytes: %s", len(head), head)
	}
	out, _, code = run(t, "chain", filepath.Join(shared, "traces", "TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz"))
	if code != 0 || !strings.HasPrefix(out, "# no ProfilerStep in this trace: top-level event 1 of") || strings.Count(out, "\n") < 100 {
		t.Fatalf("exit %d, no-step default:\n%.400s", code, out)
	}
}

// TestChainDeep: chain on a thread nested 1e5 deep (one name, or every
// level its own) prints a bounded output in text and JSON, says on stderr
// what it left out, and allocates in proportion to the input: twice the
// depth, at most about twice the bytes.
func TestChainDeep(t *testing.T) {
	for _, same := range []bool{true, false} {
		var alloc [2]uint64
		for k, n := range []int{100_000, 200_000} {
			path := writeDeep(t, n, same)
			pattern := "level"
			if !same {
				pattern = "level_0"
			}
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			for _, args := range [][]string{
				{"chain", path},
				{"chain", path, pattern, "--all"},
				{"chain", path, pattern, "--format", "json"},
				{"chain", path, "deep_kernel"},
				{"chain", path, "deep_kernel", "--format", "json"},
				{"chain", path, pattern, "--summary"},
			} {
				start := time.Now()
				out, stderr, code := run(t, args...)
				if code != 0 || len(out) > 400_000 || time.Since(start) > 30*time.Second {
					t.Fatalf("%v (n=%d): exit %d, %d bytes of output in %v: %s", args[2:], n, code, len(out), time.Since(start), stderr)
				}
				if !strings.Contains(strings.Join(args, " "), "--summary") && !strings.Contains(stderr, "more lines not shown") {
					t.Errorf("%v: no note of the lines left out: %q", args[2:], stderr)
				}
				if args[len(args)-1] == "json" && !json.Valid([]byte(out)) {
					t.Errorf("%v: invalid JSON", args[2:])
				}
			}
			runtime.ReadMemStats(&ms1)
			alloc[k] = ms1.TotalAlloc - ms0.TotalAlloc
		}
		if r := float64(alloc[1]) / float64(alloc[0]); r > 2.6 {
			t.Errorf("same=%v: allocation grew %.2fx for 2x the depth (%d -> %d bytes)", same, r, alloc[0], alloc[1])
		}
		t.Logf("same=%v: allocated %d MB at 1e5 deep, %d MB at 2e5 deep over six commands", same, alloc[0]>>20, alloc[1]>>20)
	}
}

// TestChainHostile: 1e5 threads whose events all lie in one step that has
// no child on its own thread (a hop to every thread), and names with
// invalid UTF-8 and a lone surrogate: bounded output, valid JSON.
func TestChainHostile(t *testing.T) {
	const threads = 100_000
	var b strings.Builder
	b.WriteString(`{"traceEvents":[` + "\n")
	b.WriteString(`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000000},` + "\n")
	b.WriteString("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"bad\xff\\ud800name\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":5},\n")
	for i := 0; i < threads; i++ {
		b.WriteString(`{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":` + itoa(10+i) + `,"ts":` + itoa(10+i) + `,"dur":3},` + "\n")
	}
	b.WriteString(`{"ph":"X","cat":"cpu_op","name":"last","pid":1,"tid":3,"ts":5,"dur":1}` + "\n]}\n")
	path := filepath.Join(t.TempDir(), "threads.json")
	os.WriteFile(path, []byte(b.String()), 0o644)
	start := time.Now()
	out, stderr, code := run(t, "chain", path)
	if code != 0 || len(out) > 200_000 || !strings.Contains(out, "inside this annotation's window") || !strings.Contains(stderr, "more lines not shown") {
		t.Fatalf("exit %d, %d bytes: %.300s %s", code, len(out), out, stderr)
	}
	js, _, code := run(t, "chain", path, "--format", "json", "--max-lines", "0")
	if code != 0 || !json.Valid([]byte(js)) || !utf8.ValidString(js) {
		t.Fatalf("exit %d, JSON valid %v, UTF-8 valid %v", code, json.Valid([]byte(js)), utf8.ValidString(js))
	}
	var v struct {
		Chains []struct {
			Nodes []struct {
				Name        string `json:"name"`
				CrossThread bool   `json:"cross_thread"`
			} `json:"nodes"`
		} `json:"chains"`
	}
	json.Unmarshal([]byte(js), &v)
	hopped := 0
	for _, n := range v.Chains[0].Nodes {
		if n.CrossThread {
			hopped++
		}
	}
	if hopped != threads+2 || time.Since(start) > 30*time.Second {
		t.Fatalf("%d nodes reached across threads, want %d; %v", hopped, threads+2, time.Since(start))
	}
}
