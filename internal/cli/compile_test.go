package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

// compileOut is the part of tracetab.compile/1 the tests read.
type cxCompileOut struct {
	Schema     string `json:"schema"`
	HasCompile bool   `json:"has_compile"`
	Regions    []struct {
		Name      string `json:"name"`
		Kind      string `json:"kind"`
		Frame     *int   `json:"frame"`
		Compile   *int   `json:"compile"`
		Calls     int    `json:"calls"`
		Outermost int    `json:"outermost_calls"`
		TotalNs   int64  `json:"cpu_total_ns"`
		PerStep   []struct {
			Step  int64 `json:"step"`
			Count int   `json:"count"`
		} `json:"calls_per_step"`
	} `json:"regions"`
	Frames []struct {
		Frame      int   `json:"frame"`
		Compiles   []int `json:"compiles"`
		Recompiles int   `json:"recompiles"`
	} `json:"frames"`
	Costs []struct {
		Name        string           `json:"name"`
		Calls       int              `json:"calls"`
		Sum         map[string]int64 `json:"sum"`
		LaunchCalls int              `json:"launch_calls"`
	} `json:"costs"`
	Parts []struct {
		Name    string `json:"name"`
		Calls   int    `json:"calls"`
		TotalNs int64  `json:"cpu_total_ns"`
	} `json:"parts"`
	Kernels []struct {
		Name   string  `json:"name"`
		Class  string  `json:"class"`
		Family *string `json:"family"`
		Count  int     `json:"count"`
		Fused  *struct {
			Category *string  `json:"category"`
			Ops      []string `json:"ops"`
			Decoded  bool     `json:"decoded"`
		} `json:"fused"`
	} `json:"kernels"`
	Undecoded []string         `json:"undecoded"`
	Scope     map[string]int64 `json:"scope"`
	Graphs    struct {
		Replays   int `json:"replays"`
		Kernels   int `json:"kernels"`
		Min       int `json:"min_kernels_per_replay"`
		Median    int `json:"median_kernels_per_replay"`
		Max       int `json:"max_kernels_per_replay"`
		Sequences []struct {
			Kernels int `json:"kernels"`
			Replays int `json:"replays"`
		} `json:"sequences"`
	} `json:"graphs"`
	Tax struct {
		Events  int     `json:"events"`
		TotalNs int64   `json:"total_ns"`
		Steps   []int64 `json:"steps"`
	} `json:"compile_tax"`
}

func cxCompileJSON(t *testing.T, args ...string) cxCompileOut {
	t.Helper()
	var c cxCompileOut
	runJSON(t, &c, append([]string{"compile", "--format", "json"}, args...)...)
	if c.Schema != "tracetab.compile/2" {
		t.Fatalf("schema %q", c.Schema)
	}
	return c
}

// rawEv is one X event read straight from the file with encoding/json.
type cxEv struct {
	Cat, Name string
	Pid, Tid  string
	Ts, Dur   int64 // ns, exact from the decimal text
	Corr      int64
	HasCorr   bool
	IsCPU     bool
	IsLaunch  bool
	IsKernel  bool
	IsDevWork bool
}

func (e cxEv) end() int64 { return e.Ts + e.Dur }

// contains: same thread, e's interval holds o's.
func (e cxEv) contains(o cxEv) bool {
	return e.Pid == o.Pid && e.Tid == o.Tid && e.Ts <= o.Ts && o.end() <= e.end()
}

// cxRawEvents is the X events of a trace (plain or gzip, an object or a
// bare array) as rawjson reads them.
func cxRawEvents(t *testing.T, path string) []cxEv {
	t.Helper()
	var out []cxEv
	for _, e := range readRaw(t, path) { // the cache readRaw fills
		if e.Ph != "X" {
			continue
		}
		x := cxEv{Cat: e.Cat, Name: e.Name, Pid: e.Pid, Tid: e.Tid, Ts: e.Ts, Dur: e.Dur}
		if c, err := strconv.ParseInt(e.Corr, 10, 64); err == nil {
			x.Corr, x.HasCorr = c, true
		}
		switch e.Cat {
		case "cpu_op", "user_annotation", "python_function":
			x.IsCPU = true
		case "cuda_runtime", "cuda_driver":
			x.IsCPU, x.IsLaunch = true, true
		case "kernel":
			x.IsKernel, x.IsDevWork = true, true
		case "gpu_memcpy", "gpu_memset":
			x.IsDevWork = true
		}
		out = append(out, x)
	}
	return out
}

var (
	cxRegion   = regexp.MustCompile(`^Torch-Compiled Region: (\d+)/(\d+)$`)
	cxInductor = regexp.MustCompile(`^triton_([a-z]{3})_fused_([A-Za-z0-9_]*[A-Za-z0-9])_(\d+)$`)
)

func cxIsMarker(e cxEv) bool {
	return e.IsCPU && !e.IsLaunch && (cxRegion.MatchString(e.Name) || e.Name == "CompiledFunction" ||
		e.Name == "CompiledFunctionBackward" || strings.HasPrefix(e.Name, "## Call CompiledFxGraph"))
}

func cxIsGraphLaunch(e cxEv) bool {
	return e.IsLaunch && (e.Name == "cudaGraphLaunch" || e.Name == "hipGraphLaunch")
}

// TestCompileSharedTraces: on the shared compiled traces every figure of
// tracetab compile equals a count made here from the raw JSON.
// cxCompiledShared are the shared traces that show torch.compile.
var cxCompiledShared = []string{
	"TraceLens__torch_compile_triton__trace.json.gz",
	"HTA__triton_example__triton_example.json.gz",
	"HTA__negative_queue_length_values_check__rank0.json.gz",
	"TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz",
	"TraceLens__b200__eager_trace.json.gz", // one compiled region, a recompile (0/1)
	"HTA__trace_diff__test__test.json.gz",  // CompiledFunction, CUDA graphs
}

func TestCompileSharedTraces(t *testing.T) {
	shared := testenv.Shared(t)
	for _, name := range cxCompiledShared {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(shared, "traces", name)
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("a listed shared trace is missing (renamed?): %v", err)
			}
			got := cxCompileJSON(t, path)
			evs := cxShared(t, path)
			cxCheckRegions(t, got, evs)
			cxCheckKernels(t, got, evs)
			cxCheckGraphs(t, got, evs)
			cxCheckLaunches(t, got, evs)
			if !got.HasCompile {
				t.Error("a compiled trace reported as not compiled")
			}
			if got.Tax.Events != 0 {
				t.Errorf("compile tax %+v in a trace with no compile event", got.Tax)
			}
		})
	}
}

func cxCheckRegions(t *testing.T, got cxCompileOut, evs []cxEv) {
	t.Helper()
	calls := map[string]int{}
	total := map[string]int64{}
	compiles := map[int]map[int]bool{}
	perStep := map[string]map[int64]int{}
	var steps []cxEv
	for _, e := range evs {
		if strings.HasPrefix(e.Name, "ProfilerStep#") && (e.Cat == "user_annotation" || e.Cat == "cpu_op") {
			steps = append(steps, e)
		}
	}
	for _, e := range evs {
		if !cxIsMarker(e) {
			continue
		}
		for _, s := range steps {
			if s.Ts <= e.Ts && e.Ts < s.end() {
				n, _ := strconv.ParseInt(strings.TrimPrefix(s.Name, "ProfilerStep#"), 10, 64)
				if perStep[e.Name] == nil {
					perStep[e.Name] = map[int64]int{}
				}
				perStep[e.Name][n]++
			}
		}
		calls[e.Name]++
		total[e.Name] += e.Dur
		if m := cxRegion.FindStringSubmatch(e.Name); m != nil {
			f, _ := strconv.Atoi(m[1])
			c, _ := strconv.Atoi(m[2])
			if compiles[f] == nil {
				compiles[f] = map[int]bool{}
			}
			compiles[f][c] = true
		}
	}
	if len(got.Regions) != len(calls) {
		t.Errorf("%d regions, raw %d: %v", len(got.Regions), len(calls), calls)
	}
	for _, r := range got.Regions {
		if r.Calls != calls[r.Name] || r.TotalNs != total[r.Name] {
			t.Errorf("%s: %d calls %d ns, raw %d calls %d ns", r.Name, r.Calls, r.TotalNs, calls[r.Name], total[r.Name])
		}
		got := map[int64]int{}
		for _, p := range r.PerStep {
			got[p.Step] = p.Count
		}
		if len(got) != len(perStep[r.Name]) {
			t.Errorf("%s: calls per step %v, raw %v", r.Name, got, perStep[r.Name])
		}
		for s, n := range perStep[r.Name] {
			if got[s] != n {
				t.Errorf("%s: step %d: %d calls, raw %d", r.Name, s, got[s], n)
			}
		}
	}
	if len(got.Frames) != len(compiles) {
		t.Errorf("%d frames, raw %d", len(got.Frames), len(compiles))
	}
	for _, f := range got.Frames {
		rec := 0
		for c := range compiles[f.Frame] {
			if c > 0 {
				rec++
			}
		}
		if f.Recompiles != rec || len(f.Compiles) != len(compiles[f.Frame]) {
			t.Errorf("frame %d: %d recompiles of %v, raw %d of %v", f.Frame, f.Recompiles, f.Compiles, rec, compiles[f.Frame])
		}
	}
	t.Logf("regions %v, frames %d", calls, len(compiles))
}

func cxCheckKernels(t *testing.T, got cxCompileOut, evs []cxEv) {
	t.Helper()
	count := map[string]int{}
	for _, e := range evs {
		if e.IsKernel && strings.HasPrefix(e.Name, "triton_") {
			count[e.Name]++
		}
	}
	seen := 0
	var undecoded []string
	for _, k := range got.Kernels {
		if k.Class != "inductor" {
			if strings.HasPrefix(k.Name, "triton_") {
				t.Errorf("%s not classed as an Inductor kernel", k.Name)
			}
			continue
		}
		seen++
		if k.Count != count[k.Name] {
			t.Errorf("%s: %d, raw %d", k.Name, k.Count, count[k.Name])
		}
		m := cxInductor.FindStringSubmatch(k.Name)
		switch {
		case m == nil:
			undecoded = append(undecoded, k.Name)
			if k.Fused == nil || k.Fused.Decoded {
				t.Errorf("%s: decoded %+v from a name without Inductor's form", k.Name, k.Fused)
			}
		case k.Fused == nil || !k.Fused.Decoded:
			t.Errorf("%s: not decoded", k.Name)
		default:
			// the ops, joined back, are the name's middle, in order
			if j := strings.Join(k.Fused.Ops, "_"); j != m[2] {
				t.Errorf("%s: ops %v do not spell %q", k.Name, k.Fused.Ops, m[2])
			}
		}
	}
	if seen != len(count) {
		t.Errorf("%d Inductor kernel names, raw %d", seen, len(count))
	}
	sort.Strings(undecoded)
	if !slices.Equal(undecoded, got.Undecoded) && !(len(undecoded) == 0 && len(got.Undecoded) == 0) {
		t.Errorf("undecoded %v, want %v", got.Undecoded, undecoded)
	}
	t.Logf("Inductor kernels %v; undecoded %v", count, undecoded)
}

func cxCheckGraphs(t *testing.T, got cxCompileOut, evs []cxEv) {
	t.Helper()
	per := map[int64]int{}
	var replays int
	for _, e := range evs {
		if cxIsGraphLaunch(e) {
			replays++
			per[e.Corr] += 0
		}
	}
	for _, e := range evs {
		if _, ok := per[e.Corr]; ok && e.IsKernel && e.HasCorr {
			per[e.Corr]++
		}
	}
	var counts []int
	total := 0
	for _, n := range per {
		counts = append(counts, n)
		total += n
	}
	sort.Ints(counts)
	g := got.Graphs
	if g.Replays != replays || g.Kernels != total {
		t.Errorf("graphs: %d replays %d kernels, raw %d and %d", g.Replays, g.Kernels, replays, total)
	}
	// the one median: the middle value, the mean of the middle two (half up)
	med := 0
	if n := len(counts); n%2 == 1 {
		med = counts[n/2]
	} else if n > 0 {
		med = counts[n/2-1] + (counts[n/2]-counts[n/2-1]+1)/2
	}
	if len(counts) > 0 && (g.Min != counts[0] || g.Median != med || g.Max != counts[len(counts)-1]) {
		t.Errorf("kernels per replay %d/%d/%d, raw %v", g.Min, g.Median, g.Max, counts)
	}
	var seqReplays, seqKernels int
	for _, s := range g.Sequences {
		seqReplays += s.Replays
		seqKernels += s.Replays * s.Kernels
	}
	if seqReplays != replays || seqKernels != total {
		t.Errorf("sequences hold %d replays %d kernels, raw %d %d", seqReplays, seqKernels, replays, total)
	}
	if got.Scope["graph_kernels"] != int64(total) {
		t.Errorf("scope graph kernels %d, raw %d", got.Scope["graph_kernels"], total)
	}
	t.Logf("graph replays %d, kernels %d, per replay %v", replays, total, counts)
}

// checkLaunches: launch calls and their time inside outermost compiled
// calls, and the kernels those calls launched outside graph replays.
func cxCheckLaunches(t *testing.T, got cxCompileOut, evs []cxEv) {
	t.Helper()
	var markers []cxEv
	for _, e := range evs {
		if cxIsMarker(e) {
			markers = append(markers, e)
		}
	}
	var outer []cxEv
	for i, m := range markers {
		inside := false
		for j, o := range markers {
			if i != j && o.contains(m) && (o.Dur > m.Dur || j < i) {
				inside = true
				break
			}
		}
		if !inside {
			outer = append(outer, m)
		}
	}
	cxCheckLibrary(t, got, evs, outer)
	launchIn := map[string]int{}
	launchNs := map[string]int64{}
	corrIn := map[int64]bool{}
	corrGraph := map[int64]bool{}
	for _, e := range evs {
		if !e.IsLaunch {
			continue
		}
		if cxIsGraphLaunch(e) {
			corrGraph[e.Corr] = true
		}
		for _, o := range outer {
			if o.contains(e) {
				launchIn[o.Name]++
				launchNs[o.Name] += e.Dur
				corrIn[e.Corr] = true
				break
			}
		}
	}
	for _, c := range got.Costs {
		if c.LaunchCalls != launchIn[c.Name] || c.Sum["launch_ns"] != launchNs[c.Name] {
			t.Errorf("%s: %d launch calls %d ns, raw %d %d", c.Name, c.LaunchCalls, c.Sum["launch_ns"], launchIn[c.Name], launchNs[c.Name])
		}
		var parts int64
		for _, k := range []string{"cache_lookup_ns", "dynamo_ns", "pregraph_ns", "aot_wrapper_ns", "graph_ns", "launch_ns"} {
			parts += c.Sum[k]
		}
		if parts != c.Sum["total_ns"] {
			t.Errorf("%s: parts add to %d, total %d", c.Name, parts, c.Sum["total_ns"])
		}
	}
	compiled := 0
	for _, e := range evs {
		if e.IsKernel && e.HasCorr && corrIn[e.Corr] && !corrGraph[e.Corr] {
			compiled++
		}
	}
	if sc := got.Scope; sc["compiled_kernels"]+sc["graph_kernels"]+sc["outside_kernels"] != int64(cxKernelsIn(evs)) {
		t.Errorf("scope %v does not add up to the %d kernels", sc, cxKernelsIn(evs))
	}
	if got.Scope["compiled_kernels"] != int64(compiled) {
		t.Errorf("kernels launched in compiled code %d, raw %d", got.Scope["compiled_kernels"], compiled)
	}
	t.Logf("outermost calls %d, launch calls %v, kernels in compiled code %d", len(outer), launchIn, compiled)
}

// checkLibrary: a kernel launched inside compiled code from aten::mm,
// addmm, bmm or baddbmm is a library GEMM; from an op named *attention*, a
// library attention kernel (the innermost cpu_op around the launch call
// launched it).
func cxCheckLibrary(t *testing.T, got cxCompileOut, evs []cxEv, outer []cxEv) {
	t.Helper()
	var ops, launches []cxEv
	for _, e := range evs {
		in := false
		for _, o := range outer {
			if o.contains(e) {
				in = true
				break
			}
		}
		switch {
		case !in:
		case e.Cat == "cpu_op":
			ops = append(ops, e)
		case e.IsLaunch && e.HasCorr:
			launches = append(launches, e)
		}
	}
	// the innermost op holding a launch is the latest-starting one that
	// contains it: walk back from the last op starting before the launch
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Ts < ops[j].Ts })
	byCorr := map[int64]string{}
	for _, l := range launches {
		k := sort.Search(len(ops), func(i int) bool { return ops[i].Ts > l.Ts })
		for k--; k >= 0; k-- {
			if ops[k].contains(l) {
				byCorr[l.Corr] = ops[k].Name
				break
			}
		}
	}
	want := map[string]map[string]bool{}
	for _, e := range evs {
		op, ok := byCorr[e.Corr]
		if !e.IsKernel || !e.HasCorr || !ok || strings.HasPrefix(e.Name, "triton_") {
			continue
		}
		fam := "other"
		switch {
		case op == "aten::mm" || op == "aten::addmm" || op == "aten::bmm" || op == "aten::baddbmm":
			fam = "gemm"
		case strings.Contains(op, "attention"):
			fam = "attention"
		}
		if want[e.Name] == nil {
			want[e.Name] = map[string]bool{}
		}
		want[e.Name][fam] = true
	}
	checked := 0
	for _, k := range got.Kernels {
		w := want[k.Name]
		if len(w) != 1 || w["other"] {
			continue
		}
		checked++
		if k.Class != "library" || k.Family == nil || !w[*k.Family] {
			t.Errorf("%s: %s %v, launched by ops of family %v", k.Name, k.Class, k.Family, w)
		}
	}
	t.Logf("library kernels checked by their launching op: %d", checked)
}

func cxKernelsIn(evs []cxEv) int {
	n := 0
	for _, e := range evs {
		if e.IsKernel {
			n++
		}
	}
	return n
}

// torchRows reads a key_averages table: name -> [CPU total, # of Calls].
func cxTorchRows(t *testing.T, path string) map[string][2]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][2]string{}
	sep := regexp.MustCompile(`\s{2,}`)
	for _, line := range strings.Split(string(raw), "\n") {
		f := sep.Split(strings.TrimSpace(line), -1)
		if len(f) != 7 || f[0] == "Name" {
			continue
		}
		rows[f[0]] = [2]string{f[4], f[6]}
	}
	return rows
}

func cxTorchRow(rows map[string][2]string, name string) ([2]string, bool) {
	if r, ok := rows[name]; ok {
		return r, true
	}
	for k, r := range rows {
		if p, ok := strings.CutSuffix(k, "..."); ok && strings.HasPrefix(name, p) {
			return r, true
		}
	}
	return [2]string{}, false
}

// TestCompileOracle: on the traces real torch 2.6.0 and 2.14.1 wrote for a
// compiled matmul_add, the compiled region's calls and CPU time, and those
// of torch.compile's other events, equal the rows torch printed.
func TestCompileOracle(t *testing.T) {
	shared := testenv.Shared(t)
	for _, v := range []string{"2.6.0", "2.14.1"} {
		t.Run(v, func(t *testing.T) {
			dir := filepath.Join(shared, "oracle", "torch-"+v)
			rows := cxTorchRows(t, filepath.Join(dir, "compiled_matmul_add.table0.txt"))
			got := cxCompileJSON(t, filepath.Join(dir, "compiled_matmul_add.json"))
			if len(got.Parts) < 2 {
				t.Fatalf("parts %+v", got.Parts)
			}
			for _, p := range got.Parts {
				r, ok := cxTorchRow(rows, p.Name)
				if !ok {
					t.Errorf("%s: no row in torch's table", p.Name)
					continue
				}
				if units.Dur(p.TotalNs) != r[0] || strconv.Itoa(p.Calls) != r[1] {
					t.Errorf("%s: %s in %d calls, torch %s in %s", p.Name, units.Dur(p.TotalNs), p.Calls, r[0], r[1])
				}
			}
			// the region's split adds up to torch's CPU total of the region
			// plus that of the cache lookups before it
			if len(got.Costs) != 1 {
				t.Fatalf("costs %+v", got.Costs)
			}
			c := got.Costs[0]
			reg, ok1 := cxTorchRow(rows, c.Name)
			look, ok2 := cxTorchRow(rows, "TorchDynamo Cache Lookup")
			if !ok1 || !ok2 || strconv.Itoa(c.Calls) != reg[1] {
				t.Fatalf("%s: %d calls, torch %v %v", c.Name, c.Calls, reg, look)
			}
			if units.Dur(c.Sum["total_ns"]-c.Sum["cache_lookup_ns"]) != reg[0] || units.Dur(c.Sum["cache_lookup_ns"]) != look[0] {
				t.Errorf("split %v, torch region %s lookup %s", c.Sum, reg[0], look[0])
			}
			t.Logf("%s: %d calls, %s; split %v", c.Name, c.Calls, reg[0], c.Sum)
		})
	}
}

// TestCompileNone: a trace without torch.compile says so and exits 0.
func TestCompileNone(t *testing.T) {
	out, stderr, code := run(t, "compile", testdata("sample.pt.trace.json"))
	if code != 0 || !strings.Contains(stderr, "no torch.compile activity") || !strings.Contains(out, "no torch.compile activity") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	if c := cxCompileJSON(t, testdata("sample.pt.trace.json")); c.HasCompile || len(c.Regions) != 0 {
		t.Fatalf("%+v", c)
	}
}

// TestCompileTax: compile work recorded inside the window (Dynamo's
// "(dynamo_timed)" phases) is counted once, outermost, in its step.
func TestCompileTax(t *testing.T) {
	p := miniTrace(t,
		"user_annotation ProfilerStep#7 1 1000 9000 0 1",
		"cpu_op TorchDynamo_Cache_Lookup 1 1100 50 0 2",
		"user_annotation _compile.compile_inner_(dynamo_timed) 1 1200 5000 0 3",
		"user_annotation compile_fx_inner_(dynamo_timed) 1 1300 4000 0 4",
		"cpu_op Torch-Compiled_Region:_0/1 1 6300 2000 0 5",
		"cuda_runtime cudaLaunchKernel 1 6400 100 77 5",
		"kernel triton_poi_fused_add_0 7 6600 10 77 5",
	)
	// miniTrace splits on spaces: put them back
	raw, _ := os.ReadFile(p)
	s := strings.NewReplacer("TorchDynamo_Cache_Lookup", "TorchDynamo Cache Lookup", "compile_inner_(", "compile_inner (",
		"inner_(dynamo", "inner (dynamo", "Torch-Compiled_Region:_0/1", "Torch-Compiled Region: 0/1").Replace(string(raw))
	os.WriteFile(p, []byte(s), 0o644)
	c := cxCompileJSON(t, p)
	if c.Tax.Events != 1 || c.Tax.TotalNs != 5_000_000 || !slices.Equal(c.Tax.Steps, []int64{7}) {
		t.Errorf("tax %+v", c.Tax)
	}
	if len(c.Frames) != 1 || c.Frames[0].Recompiles != 1 {
		t.Errorf("frames %+v", c.Frames)
	}
	if len(c.Costs) != 1 || c.Costs[0].Sum["cache_lookup_ns"] != 50_000 || c.Costs[0].Sum["launch_ns"] != 100_000 {
		t.Errorf("costs %+v", c.Costs)
	}
	out, _, _ := run(t, "compile", p)
	if !strings.Contains(out, "compile tax: 5.000ms") {
		t.Errorf("text:\n%s", out)
	}
}

type cxCompareOut struct {
	Schema        string          `json:"schema"`
	Mode          string          `json:"mode"`
	Paired        []int64         `json:"paired_steps"`
	EagerSteps    []cxCompareStep `json:"eager_steps"`
	CompiledSteps []cxCompareStep `json:"compiled_steps"`
	Disappeared   []struct {
		Kind, Name string
		Count      int
	} `json:"disappeared"`
	Fused []struct {
		Kernel   string   `json:"kernel"`
		Ops      []string `json:"ops"`
		EagerOps []struct {
			Name    string   `json:"name"`
			Calls   int      `json:"calls"`
			Kernels []string `json:"kernels"`
		} `json:"eager_ops"`
	} `json:"fused"`
	Stayed []struct {
		Name             string  `json:"name"`
		Family           *string `json:"family"`
		EagerMedianNs    int64   `json:"eager_median_ns"`
		CompiledMedianNs int64   `json:"compiled_median_ns"`
		EagerCount       int     `json:"eager_count"`
		CompiledCount    int     `json:"compiled_count"`
	} `json:"stayed"`
	Sentence string `json:"sentence"`
}

type cxCompareStep struct {
	Step         *int64 `json:"step"`
	Kernels      int    `json:"kernels"`
	LaunchCalls  int    `json:"launch_calls"`
	RuntimeCalls int    `json:"runtime_calls"`
	Memcpys      int    `json:"memcpys"`
}

func cxGenFacts(t *testing.T, name string, cfg gen.Config) (string, gen.Facts) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	facts, err := gen.Write(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, facts
}

func cxCheckSteps(t *testing.T, side string, got []cxCompareStep, want []gen.StepFacts) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d steps, generator wrote %d", side, len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Step == nil || *g.Step != w.N || g.Kernels != w.Kernels || g.LaunchCalls != w.Launches || g.RuntimeCalls != w.RuntimeCalls || g.Memcpys != w.Memcpys {
			t.Errorf("%s step %d: %+v, generator wrote %+v", side, w.N, g, w)
		}
	}
}

// TestCompileCompareGenerated: the generator's eager matmul_add against its
// compiled variants: kernels, launches and memcpys per step are what the
// generator wrote, the GEMM stays with its time, the eager add disappears,
// and the Inductor kernel maps back to aten::add and its kernel.
func TestCompileCompareGenerated(t *testing.T) {
	eager, ef := cxGenFacts(t, "eager.json", gen.Config{Steps: 4})
	for _, variant := range []string{"triton", "compiled"} {
		t.Run(variant, func(t *testing.T) {
			comp, cf := cxGenFacts(t, variant+".json", gen.Config{Steps: 4, Variant: variant})
			var c cxCompareOut
			runJSON(t, &c, "compile", "--format", "json", eager, comp)
			if c.Schema != "tracetab.compile/2" || c.Mode != "compare" {
				t.Fatalf("schema %q mode %q", c.Schema, c.Mode)
			}
			if !slices.Equal(c.Paired, []int64{2, 3, 4, 5}) {
				t.Errorf("paired steps %v", c.Paired)
			}
			cxCheckSteps(t, "eager", c.EagerSteps, ef.PerStep)
			cxCheckSteps(t, variant, c.CompiledSteps, cf.PerStep)
			if len(c.Stayed) != 1 || c.Stayed[0].Family == nil || *c.Stayed[0].Family != "gemm" ||
				c.Stayed[0].EagerMedianNs != ef.GEMMDurNs || c.Stayed[0].CompiledMedianNs != cf.GEMMDurNs || c.Stayed[0].CompiledCount != cf.Steps {
				t.Errorf("stayed %+v (GEMM %d ns)", c.Stayed, ef.GEMMDurNs)
			}
			gone := map[string]bool{}
			for _, d := range c.Disappeared {
				gone[d.Kind+" "+d.Name] = true
			}
			if !gone["op aten::add"] || !gone["op aten::matmul"] {
				t.Errorf("disappeared %+v", c.Disappeared)
			}
			addKernelGone := false
			for k := range gone {
				if strings.HasPrefix(k, "kernel ") && strings.Contains(k, "add") {
					addKernelGone = true
				}
			}
			if !addKernelGone {
				t.Errorf("the eager add kernel is not listed as gone: %+v", c.Disappeared)
			}
			if variant == "compiled" {
				if len(c.Fused) != 0 {
					t.Errorf("fused %+v in a trace with no Inductor kernel", c.Fused)
				}
				return
			}
			if len(c.Fused) != 1 || !slices.Equal(c.Fused[0].Ops, []string{"add"}) || len(c.Fused[0].EagerOps) != 1 ||
				c.Fused[0].EagerOps[0].Name != "aten::add" || c.Fused[0].EagerOps[0].Calls != ef.Steps ||
				len(c.Fused[0].EagerOps[0].Kernels) != 1 || !strings.Contains(c.Fused[0].EagerOps[0].Kernels[0], "add") {
				t.Errorf("fused %+v", c.Fused)
			}
			if !strings.Contains(c.Sentence, "GEMM is the same kernel") {
				t.Errorf("sentence %q", c.Sentence)
			}
		})
	}
}

// TestCompileCompareNotes: comparing two eager traces says the second is
// not compiled; text and md carry the closing sentence.
func TestCompileCompareNotes(t *testing.T) {
	eager := genFile(t, "eager.json", gen.Config{Steps: 3})
	out, stderr, code := run(t, "compile", eager, eager)
	if code != 0 || !strings.Contains(stderr, "shows no torch.compile activity") || !strings.Contains(out, "as in eager") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	comp := genFile(t, "triton.json", gen.Config{Steps: 3, Variant: "triton"})
	for _, f := range []string{"text", "md"} {
		out, stderr, code := run(t, "compile", "--format", f, comp)
		if code != 0 || stderr != "" || !strings.Contains(out, "triton_poi_fused_add_0") || !strings.Contains(out, "Torch-Compiled Region: 0/0") {
			t.Errorf("summary %s: exit %d\n%s\n%s", f, code, out, stderr)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasSuffix(l, " ") {
				t.Errorf("summary %s: trailing space in %q", f, l)
			}
		}
		out, stderr, code = run(t, "compile", "--format", f, eager, comp)
		if code != 0 || stderr != "" || !strings.Contains(out, "triton_poi_fused_add_0") || !strings.Contains(out, "the GEMM is the same kernel") {
			t.Errorf("%s: exit %d\n%s\n%s", f, code, out, stderr)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasSuffix(l, " ") {
				t.Errorf("%s: trailing space in %q", f, l)
			}
		}
	}
	if _, _, code := run(t, "compile", "--format", "csv", eager); code != 2 {
		t.Errorf("--format csv: exit %d", code)
	}
	if _, _, code := run(t, "compile", "--top", "-1", eager); code != 2 {
		t.Errorf("--top -1: exit %d", code)
	}
	if _, _, code := run(t, "compile", eager, eager, eager); code != 2 {
		t.Errorf("three traces: exit %d", code)
	}
}

// TestCompileCompareOracle: torch's own eager and compiled matmul_add runs
// (CPU only): each step's CPU time is the ProfilerStep#N duration in the
// raw JSON, the eager ops absent from the compiled steps are listed as
// gone with their counts, and no GPU figure is claimed.
func TestCompileCompareOracle(t *testing.T) {
	shared := testenv.Shared(t)
	for _, v := range []string{"2.6.0", "2.14.1"} {
		t.Run(v, func(t *testing.T) {
			dir := filepath.Join(shared, "oracle", "torch-"+v)
			eager, comp := filepath.Join(dir, "matmul_add.json"), filepath.Join(dir, "compiled_matmul_add.json")
			var c struct {
				EagerSteps    []map[string]any `json:"eager_steps"`
				CompiledSteps []map[string]any `json:"compiled_steps"`
				Metrics       []struct {
					Metric   string `json:"metric"`
					Eager    any    `json:"eager"`
					Compiled any    `json:"compiled"`
				} `json:"metrics"`
				Disappeared []struct {
					Kind, Name string
					Count      int
				} `json:"disappeared"`
			}
			runJSON(t, &c, "compile", "--format", "json", eager, comp)
			type win struct {
				n      int64
				lo, hi int64
			}
			stepsOf := func(evs []cxEv) []win {
				var w []win
				for _, e := range evs {
					if n, ok := strings.CutPrefix(e.Name, "ProfilerStep#"); ok && e.Cat == "user_annotation" {
						k, _ := strconv.ParseInt(n, 10, 64)
						w = append(w, win{k, e.Ts, e.end()})
					}
				}
				sort.Slice(w, func(i, j int) bool { return w[i].lo < w[j].lo })
				return w
			}
			ops := func(evs []cxEv, ws []win) map[string]int {
				m := map[string]int{}
				for _, e := range evs {
					if e.Cat != "cpu_op" {
						continue
					}
					for _, w := range ws {
						if w.lo <= e.Ts && e.Ts < w.hi {
							m[e.Name]++
							break
						}
					}
				}
				return m
			}
			ee, ce := cxRawEvents(t, eager), cxRawEvents(t, comp)
			ew, cw := stepsOf(ee), stepsOf(ce)
			for side, pair := range map[string]struct {
				got  []map[string]any
				want []win
			}{"eager": {c.EagerSteps, ew}, "compiled": {c.CompiledSteps, cw}} {
				if len(pair.got) != len(pair.want) {
					t.Fatalf("%s: %d steps, raw %d", side, len(pair.got), len(pair.want))
				}
				for i, w := range pair.want {
					if pair.got[i]["step"].(float64) != float64(w.n) || pair.got[i]["cpu_ns"].(float64) != float64(w.hi-w.lo) {
						t.Errorf("%s step %d: %v, raw %d ns", side, w.n, pair.got[i], w.hi-w.lo)
					}
				}
			}
			eo, co := ops(ee, ew), ops(ce, cw)
			want := map[string]int{}
			for n, k := range eo {
				if co[n] == 0 {
					want[n] = k
				}
			}
			got := map[string]int{}
			for _, d := range c.Disappeared {
				if d.Kind == "op" {
					got[d.Name] = d.Count
				}
			}
			if len(want) == 0 || len(got) != len(want) {
				t.Errorf("gone %v, raw %v", got, want)
			}
			for n, k := range want {
				if got[n] != k {
					t.Errorf("%s: gone %d times, raw %d", n, got[n], k)
				}
			}
			for _, m := range c.Metrics {
				if strings.HasPrefix(m.Metric, "gpu_") || m.Metric == "median_kernel_ns" {
					if m.Eager != nil || m.Compiled != nil {
						t.Errorf("%s claimed on CPU-only traces: %v %v", m.Metric, m.Eager, m.Compiled)
					}
				}
			}
			t.Logf("gone %v", got)
		})
	}
}

// TestInfoCompileBlock: info's compile block counts what the raw JSON holds.
func TestInfoCompileBlock(t *testing.T) {
	shared := testenv.Shared(t)
	for _, name := range []string{"TraceLens__b200__eager_trace.json.gz", "TraceLens__torch_compile_triton__trace.json.gz", "HTA__triton_example__triton_example.json.gz"} {
		path := filepath.Join(shared, "traces", name)
		var in struct {
			Compile map[string]int `json:"compile"`
		}
		runJSON(t, &in, "info", "--format", "json", path)
		want := map[string]int{}
		regions := map[string]bool{}
		frames := map[string]bool{}
		for _, e := range cxRawEvents(t, path) {
			switch {
			case e.IsKernel && strings.HasPrefix(e.Name, "triton_"):
				want["inductor_kernels"]++
			case !cxIsMarker(e):
			case cxRegion.MatchString(e.Name):
				want["region_calls"]++
				m := cxRegion.FindStringSubmatch(e.Name)
				frames[m[1]] = true
				if !regions[e.Name] && m[2] != "0" {
					want["recompiles"]++
				}
				regions[e.Name] = true
			case strings.HasPrefix(e.Name, "## Call"):
				want["graph_calls"]++
			default:
				want["aot_calls"]++
			}
		}
		want["regions"], want["frames"] = len(regions), len(frames)
		for k, v := range want {
			if in.Compile[k] != v {
				t.Errorf("%s: %s %d, raw %d", name, k, in.Compile[k], v)
			}
		}
		if len(in.Compile) != 7 {
			t.Errorf("%s: compile block %v", name, in.Compile)
		}
	}
	out, _, _ := run(t, "info", testdata("sample.pt.trace.json"))
	if strings.Contains(out, "compile ") {
		t.Errorf("a trace without torch.compile has a compile line:\n%s", out)
	}
}

// TestCompileGeneratedSummary: on the generator's Inductor variant every
// runtime call of a step runs inside the compiled region, one of them
// launches the Triton kernel, and the GEMM stays a library kernel.
func TestCompileGeneratedSummary(t *testing.T) {
	p, f := cxGenFacts(t, "triton.json", gen.Config{Steps: 3, Variant: "triton"})
	c := cxCompileJSON(t, p)
	runtime := 0
	for _, s := range f.PerStep {
		runtime += s.RuntimeCalls
	}
	if len(c.Costs) != 1 || c.Costs[0].Calls != f.Steps || c.Costs[0].LaunchCalls != runtime {
		t.Fatalf("costs %+v, generator: %d steps, %d runtime calls", c.Costs, f.Steps, runtime)
	}
	var ind, lib int
	for _, k := range c.Kernels {
		switch {
		case k.Class == "inductor" && k.Fused != nil && slices.Equal(k.Fused.Ops, []string{"add"}):
			ind += k.Count
		case k.Class == "library" && k.Family != nil && *k.Family == "gemm":
			lib += k.Count
		}
	}
	if ind != f.Steps || lib != f.Steps || c.Scope["compiled_kernels"] != int64(f.Kernels) {
		t.Errorf("inductor %d, gemm %d, in compiled code %d; generator wrote %d kernels in %d steps", ind, lib, c.Scope["compiled_kernels"], f.Kernels, f.Steps)
	}
	for _, r := range c.Regions {
		if len(r.PerStep) != f.Steps {
			t.Errorf("%s: calls per step %+v", r.Name, r.PerStep)
		}
	}
}
