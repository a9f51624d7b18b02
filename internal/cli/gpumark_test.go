package cli

import (
	"github.com/tracetab/tracetab/internal/layout"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/testenv"
)

// sameNamePairs reads a trace's raw JSON and returns the row names (torch's
// key: ProfilerStep#N is ProfilerStep*) that occur both as a CPU event (an
// op, an annotation, a runtime or driver call) and as a device event (a
// kernel, memcpy, memset or GPU annotation span).
func sameNamePairs(t *testing.T, path string) []string {
	t.Helper()
	evs := readRaw(t, path)
	key := func(n string) string {
		if strings.HasPrefix(n, "ProfilerStep#") {
			return "ProfilerStep*"
		}
		return n
	}
	cpu, dev := map[string]bool{}, map[string]bool{}
	for _, e := range evs {
		switch e.Cat {
		case "cpu_op", "user_annotation", "cuda_runtime", "cuda_driver":
			cpu[key(e.Name)] = true
		case "kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation":
			dev[key(e.Name)] = true
		}
	}
	var pairs []string
	for n := range cpu {
		if dev[n] {
			pairs = append(pairs, n)
		}
	}
	sort.Strings(pairs)
	return pairs
}

// torchNameCells cuts the name cell of every row out of torch's text
// table: the name column is as wide as the first run of dashes of the
// separator lines, and the rows lie between the second and third of them.
func torchNameCells(t *testing.T, out string) []string {
	t.Helper()
	lines := strings.Split(out, "\n")
	var seps []int
	for i, l := range lines {
		if strings.HasPrefix(l, "---") {
			seps = append(seps, i)
		}
	}
	if len(seps) != 3 {
		t.Fatalf("want 3 separator lines, got %d:\n%s", len(seps), out)
	}
	w := strings.Index(lines[seps[0]], " ")
	var cells []string
	for _, l := range lines[seps[1]+1 : seps[2]] {
		r := []rune(l)
		if len(r) < w {
			t.Fatalf("short row %q", l)
		}
		cells = append(cells, strings.TrimLeft(string(r[:w]), " "))
	}
	return cells
}

// TestGPUMarkerSharedTraces: where the raw JSON has a CPU event and a
// device event of the same name, the default text table (and md) shows the
// two rows with distinct labels (the device one ends in [gpu]);
// --torch-exact shows them alike, as torch does. Every device row, and only
// those, is marked.
func TestGPUMarkerSharedTraces(t *testing.T) {
	shared := testenv.Shared(t)
	for _, name := range []string{
		"TraceLens__torch_compile_triton__trace.json.gz",                         // Triton ops and kernels, ## Call CompiledFxGraph ## on both lanes
		"HTA__triton_example__triton_example.json.gz",                            // a Triton op and its kernel
		"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz",         // ProfilerStep* CPU and GPU annotation
		"HTA__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", // record_function and its GPU span
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(shared, "traces", name)
			pairs := sameNamePairs(t, path)
			if len(pairs) == 0 {
				t.Fatal("the raw JSON has no name on both a CPU and a device event")
			}
			var doc struct {
				Rows []struct {
					Name   string `json:"name"`
					Device bool   `json:"device_op"`
				} `json:"rows"`
			}
			runJSON(t, &doc, "table", "--format", "json", "--limit", "-1", path)
			def, stderr, code := run(t, "table", "--limit", "-1", path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			exact, stderr, code := run(t, "table", "--torch-exact", "--limit", "-1", path)
			if code != 0 {
				t.Fatalf("--torch-exact: exit %d: %s", code, stderr)
			}
			dc, ec := torchNameCells(t, def), torchNameCells(t, exact)
			if len(dc) != len(doc.Rows) || len(ec) != len(doc.Rows) {
				t.Fatalf("rows: %d in text, %d with --torch-exact, %d in JSON", len(dc), len(ec), len(doc.Rows))
			}
			seen := map[string]string{} // default label -> the name it shows
			for i, r := range doc.Rows {
				if got := strings.HasSuffix(dc[i], " [gpu]"); got != r.Device {
					t.Errorf("row %d %q (device_op %v): default label %q", i, r.Name, r.Device, dc[i])
				}
				if strings.HasSuffix(ec[i], "[gpu]") {
					t.Errorf("row %d: --torch-exact label %q carries the marker", i, ec[i])
				}
				// --torch-exact: the name, or cut at its end by torch's rule
				if c := ec[i]; c != r.Name && !(strings.HasSuffix(c, "...") && strings.HasPrefix(r.Name, strings.TrimSuffix(c, "..."))) {
					t.Errorf("row %d: --torch-exact label %q is not the name %q, whole or cut at the end", i, c, r.Name)
				}
				// default: the name, or its head and tail around "..." (the
				// tail may end in #k where names would still look alike)
				if c := strings.TrimSuffix(dc[i], " [gpu]"); c != r.Name {
					head, tail, ok := strings.Cut(c, "...")
					tail = regexp.MustCompile(`#[0-9]+$`).ReplaceAllString(tail, "")
					if !ok || !strings.HasPrefix(r.Name, head) || !strings.HasSuffix(r.Name, tail) {
						t.Errorf("row %d: default label %q is not the name %q, whole or cut in the middle", i, c, r.Name)
					}
				}
				shown := dc[i]
				if prev, dup := seen[shown]; dup && prev != r.Name {
					t.Errorf("row %d: default label %q shows both %q and %q", i, shown, prev, r.Name)
				}
				seen[shown] = r.Name
				if utf8.RuneCountInString(dc[i]) > 55 || utf8.RuneCountInString(ec[i]) > 55 {
					t.Errorf("row %d: label %q or %q is wider than the 55-rune name column", i, dc[i], ec[i])
				}
			}
			md, stderr, code := run(t, "table", "--format", "md", "--limit", "-1", path)
			if code != 0 {
				t.Fatalf("--format md: exit %d: %s", code, stderr)
			}
			var mc []string
			for _, l := range strings.Split(md, "\n")[2:] {
				if cell, _, ok := strings.Cut(strings.TrimPrefix(l, "| "), " |"); ok && strings.HasPrefix(l, "| ") {
					mc = append(mc, strings.TrimRight(cell, " "))
				}
			}
			if len(mc) != len(doc.Rows) {
				t.Fatalf("%d rows in md, %d in JSON", len(mc), len(doc.Rows))
			}
			for i, r := range doc.Rows {
				// the name cell is a code span (layout.MdCode), the marker inside it
				if want := layout.MdCode(r.Name + map[bool]string{true: " [gpu]"}[r.Device]); mc[i] != want {
					t.Errorf("md row %d: %q, want %q", i, mc[i], want)
				}
			}
			for _, p := range pairs {
				ci, di := -1, -1
				for i, r := range doc.Rows {
					if r.Name == p && !r.Device && ci < 0 {
						ci = i
					}
					if r.Name == p && r.Device && di < 0 {
						di = i
					}
				}
				if ci < 0 || di < 0 {
					t.Errorf("%q is a CPU and a device event in the raw JSON, but rows: CPU %v, device %v", p, ci >= 0, di >= 0)
					continue
				}
				if dc[ci] == dc[di] || mc[ci] == mc[di] {
					t.Errorf("%q: the CPU and device rows print alike: %q, md %q", p, dc[ci], mc[ci])
				}
				if ec[ci] != ec[di] {
					t.Errorf("%q: --torch-exact labels %q and %q differ; torch prints one name for both", p, ec[ci], ec[di])
				}
			}
		})
	}
}

// TestTorchExactOnlyForTheTorchTable: --torch-exact with any other output
// is a usage error, not silently ignored.
func TestTorchExactOnlyForTheTorchTable(t *testing.T) {
	path := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	for _, extra := range [][]string{{"--format", "json"}, {"--format", "md"}, {"--format", "csv"}, {"--by", "kernel"}, {"--by", "step"}, {"--width", "100"}, {"--columns", "calls"}} {
		args := append([]string{"table", "--torch-exact", path}, extra...)
		_, stderr, code := run(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, "--torch-exact") {
			t.Errorf("%v: want exit %d naming --torch-exact, got %d %q", extra, ExitUsage, code, stderr)
		}
	}
	out, _, code := run(t, "table", "--torch-exact", path)
	if code != 0 || strings.Contains(out, "[gpu]") {
		t.Errorf("--torch-exact: exit %d, marker present: %v", code, strings.Contains(out, "[gpu]"))
	}
	out, _, code = run(t, "table", path)
	if code != 0 || !strings.Contains(out, " [gpu]") {
		t.Errorf("default: exit %d, marker present: %v", code, strings.Contains(out, " [gpu]"))
	}
}
