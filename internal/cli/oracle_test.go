package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
				args := []string{"table", "--torch-exact", "--torch", version, filepath.Join(dir, c.Trace)}
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
		args := append([]string{"table", "--torch-exact", "--torch", c.Torch, filepath.Join(shared, "traces", c.Trace)}, c.Args...)
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
			kernNs += e.Dur
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
			lo := e.Ts
			ops = append(ops, op{e.Name, lo, lo + e.Dur})
			want[e.Name] += 0
		}
	}
	records := 0
	for _, e := range ev {
		if e.Name != "[memory]" {
			continue
		}
		records++
		ts := e.Ts
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
