package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

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
