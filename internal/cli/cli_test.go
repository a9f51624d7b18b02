package cli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

func testdata(p ...string) string {
	return filepath.Join(append([]string{testenv.Root(), "testdata"}, p...)...)
}

// TestExitCodes: 0 ok, 2 usage, 3 unreadable input, everywhere.
func TestExitCodes(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	empty := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(empty, nil, 0o644)
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"info", sample}, 0, ""},
		{[]string{"table", sample}, 0, ""},
		{[]string{"info"}, 2, "takes 1 argument"},
		{[]string{"info", "--bogus", sample}, 2, "unknown flag"},
		{[]string{"table", "--sort", "fastest", sample}, 2, "unknown --sort"},
		{[]string{"table", "--torch", "banana", sample}, 2, "--torch"},
		{[]string{"table", "--time-unit", "ms", "--torch", "2.6", sample}, 2, "time_unit"},
		{[]string{"table", "--match", "(", sample}, 2, "--match"},
		{[]string{"table", "--format", "xml", sample}, 2, "--format"},
		{[]string{"table", "--sort", "cpu_memory_usage", sample}, 2, "needs [memory] events"},
		{[]string{"nosuchcommand"}, 2, "unknown command"},
		{[]string{"info", "--max-memory", "lots", sample}, 2, "bad size"},
		{[]string{"info", "--max-memory", "1KiB", sample}, 3, "too large for the memory bound"},
		{[]string{"info", empty}, 3, "empty file"},
		{[]string{"info", "/nonexistent/x.json"}, 3, "cannot open"},
		{[]string{"table", testdata("quirks", "truncated.json")}, 3, "truncated"},
		{[]string{"table", "--allow-truncated", testdata("quirks", "truncated.json")}, 0, "truncated at byte"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, stderr, code := run(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.err) {
				t.Fatalf("exit %d stderr %q; want %d and %q", code, stderr, c.code, c.err)
			}
		})
	}
}

// TestNotTraces: files that are JSON but not Chrome traces are refused
// with exit 3 and a message that says what they are.
func TestNotTraces(t *testing.T) {
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "not-traces", "*"))
	if len(files) < 2 {
		t.Fatalf("want the two not-traces, found %d", len(files))
	}
	for _, f := range files {
		_, stderr, code := run(t, "info", f)
		if code != ExitUnreadable || !strings.Contains(stderr, "not a Chrome trace") || !strings.Contains(stderr, filepath.Base(f)) {
			t.Errorf("%s: exit %d %q", f, code, stderr)
		}
	}
}

// TestStdin reads a trace from standard input.
func TestStdin(t *testing.T) {
	raw, _ := os.ReadFile(testdata("sample.pt.trace.json"))
	var out, errb bytes.Buffer
	if code := Main([]string{"info", "-"}, bytes.NewReader(raw), &out, &errb); code != 0 || !strings.Contains(out.String(), "steps       4") {
		t.Fatalf("exit %d %s %s", code, out.String(), errb.String())
	}
}

// TestSampleIsGenerated: testdata's sample is what the generator makes.
func TestSampleIsGenerated(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 4}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(testdata("sample.pt.trace.json"))
	if !bytes.Equal(raw, b.Bytes()) {
		t.Fatal("testdata/sample.pt.trace.json is stale: run make sample")
	}
}

// TestGeneratedTable checks the table against what the generator wrote.
func TestGeneratedTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.json")
	f, _ := os.Create(path)
	facts, err := gen.Write(f, gen.Config{Steps: 7, Layers: 2})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := tableJSON(t, "table", "--format", "json", "--limit", "-1", path)
	rows := map[string]map[string]any{}
	for _, r := range m["rows"].([]any) {
		row := r.(map[string]any)
		if row["device_op"] == false {
			rows[row["name"].(string)] = row
		}
	}
	if got := rows["ProfilerStep*"]["calls"].(float64); int(got) != facts.Steps {
		t.Errorf("ProfilerStep* calls %v, want %d", got, facts.Steps)
	}
	// aten::matmul launches nothing itself; its aten::mm child launches
	// the GEMM: Self CUDA goes to aten::mm, CUDA total to both.
	mm := rows["aten::mm"]
	if mm["calls"].(float64) != float64(facts.Steps*(1+2)) {
		t.Errorf("aten::mm calls %v", mm["calls"])
	}
	matmul := rows["aten::matmul"]
	wantGEMM := float64(facts.Steps) * float64(facts.GEMMDurNs)
	near := func(a any, b float64) bool { return math.Abs(a.(float64)-b) < 1e-6 }
	if matmul["self_cuda_ns"].(float64) != 0 || !near(matmul["cuda_total_ns"], wantGEMM) {
		t.Errorf("aten::matmul self %v total %v, want 0 and %v", matmul["self_cuda_ns"], matmul["cuda_total_ns"], wantGEMM)
	}
	wantAdd := float64(facts.Steps) * float64(facts.AddDurNs)
	if add := rows["aten::add"]; !near(add["self_cuda_ns"], wantAdd) {
		t.Errorf("aten::add self CUDA %v, want %v", add["self_cuda_ns"], wantAdd)
	}
	if m["self_cuda_total_ns"].(float64) <= 0 || !m["has_device_time"].(bool) {
		t.Error("no device time")
	}
}

// TestTableSteps: --steps keeps the events of the chosen profiler steps.
func TestTableSteps(t *testing.T) {
	m := tableJSON(t, "table", "--format", "json", "--steps", "3-4", testdata("sample.pt.trace.json"))
	calls := map[string]float64{}
	for _, r := range m["rows"].([]any) {
		row := r.(map[string]any)
		calls[row["name"].(string)] = row["calls"].(float64)
	}
	if calls["ProfilerStep*"] != 2 || calls["aten::mm"] != 2 || calls["ampere_sgemm_32x32_sliced1x4_nn"] != 2 {
		t.Fatalf("steps 3-4: %v", calls)
	}
	if _, ok := calls["cudaDeviceSynchronize"]; ok {
		t.Error("the sync after the last step is outside steps 3-4")
	}
}

// TestTableNotes: overlapping kernels on one stream are reported.
func TestTableNotes(t *testing.T) {
	shared := testenv.Shared(t)
	_, stderr, code := run(t, "table", filepath.Join(shared, "traces", "TraceLens__b200__eager_trace.json.gz"))
	if code != 0 || !strings.Contains(stderr, "74 device ops start before the previous op on their stream ended") {
		t.Fatalf("exit %d %q", code, stderr)
	}
}
