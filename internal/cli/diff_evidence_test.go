package cli

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

type diffEvDoc struct {
	Correction *string `json:"correction"`
	Tested     []struct {
		Metric string `json:"metric"`
		Tests  int    `json:"tests_count"`
	} `json:"tests_per_metric"`
	Forms []struct {
		Base   string `json:"base_row"`
		New    string `json:"new_row"`
		BaseNs int64  `json:"cpu_total_base_ns"`
		NewNs  int64  `json:"cpu_total_new_ns"`
	} `json:"changed_form"`
	Rows []struct {
		Key     string                    `json:"key"`
		Status  string                    `json:"status"`
		Pair    *string                   `json:"paired_with"`
		Metrics map[string]map[string]any `json:"metrics"`
	} `json:"rows"`
	Outside *struct {
		Metrics map[string]map[string]any `json:"metrics"`
	} `json:"outside_steps"`
	Totals     map[string]map[string]any `json:"totals"`
	Violations []struct{ Rule, Row string }
}

func diffEv(t *testing.T, args ...string) (diffEvDoc, int) {
	t.Helper()
	out, stderr, code := run(t, append([]string{"diff", "--format", "json", "--limit", "-1"}, args...)...)
	var d diffEvDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("exit %d %s: %v", code, stderr, err)
	}
	return d, code
}

func fnum(v any) float64 {
	f, _ := v.(float64)
	return f
}

// stepMedianOf is the raw median over the steps of the summed duration of
// the events named name in each step (a CPU event by its start, a device
// op by its launch call's; integer ns, the one median), read with
// encoding/json.
func stepMedianOf(t *testing.T, path, name string) int64 {
	t.Helper()
	evs := cxRawEvents(t, path)
	var steps [][2]int64
	launch := map[int64]int64{}
	for _, e := range evs {
		// a step is a CPU annotation (cpu_op or user_annotation, "Operator" in 2021)
		if strings.HasPrefix(e.Name, "ProfilerStep#") && (e.IsCPU || e.Cat == "Operator") {
			steps = append(steps, [2]int64{e.Ts, e.end()})
		}
		if (e.IsLaunch || e.Cat == "Runtime") && e.HasCorr {
			launch[e.Corr] = e.Ts
		}
	}
	var per []int64
	for _, s := range steps {
		var sum int64
		for _, e := range evs {
			at := e.Ts
			if l, ok := launch[e.Corr]; ok && e.IsDevWork && e.HasCorr {
				at = l
			}
			if e.Name == name && s[0] <= at && at < s[1] {
				sum += e.Dur
			}
		}
		per = append(per, sum)
	}
	return rawMedian(per)
}

// TestDiffChangedForm: a generated run whose DataLoader iterator is the
// single-process one against the same run with the multi-process one: the
// two rows are paired as a changed form, the time that moved equals the
// raw per-step median of each annotation, and the text lists the pair.
func TestDiffChangedForm(t *testing.T) {
	base := genFile(t, "single.json", gen.Config{Steps: 5, Scenario: "dataloader", Noise: gen.Noise{Seed: 1, Jitter: 0.05}})
	raw, _ := os.ReadFile(genFile(t, "x.json", gen.Config{Steps: 5, Scenario: "dataloader", Noise: gen.Noise{Seed: 2, Jitter: 0.05}}))
	const single, multi = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
	nw := filepath.Join(t.TempDir(), "multi.json")
	os.WriteFile(nw, []byte(strings.ReplaceAll(string(raw), single, multi)), 0o644)
	d, code := diffEv(t, base, nw)
	if code != 0 || len(d.Forms) != 1 || d.Forms[0].Base != single || d.Forms[0].New != multi {
		t.Fatalf("exit %d changed form %+v", code, d.Forms)
	}
	if b, n := stepMedianOf(t, base, single), stepMedianOf(t, nw, multi); d.Forms[0].BaseNs != b || d.Forms[0].NewNs != n {
		t.Errorf("moved %d -> %d ns, raw medians %d -> %d", d.Forms[0].BaseNs, d.Forms[0].NewNs, b, n)
	}
	paired := 0
	for _, r := range d.Rows {
		if r.Status == "changed form" {
			paired++
			if r.Pair == nil || (r.Key == single) != (*r.Pair == multi) {
				t.Errorf("%s paired with %v", r.Key, r.Pair)
			}
		}
	}
	if paired != 2 {
		t.Errorf("%d rows in changed form", paired)
	}
	text, _, _ := run(t, "diff", "--width", "80", base, nw)
	if !strings.Contains(text, "Changed form") || !strings.Contains(text, "form") {
		t.Errorf("text:\n%s", text)
	}
	assertFits(t, text, 80)
	// the same rows under names with nothing in common are not paired
	other := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(other, []byte(strings.ReplaceAll(string(raw), single, "fetch_batch")), 0o644)
	if d, _ := diffEv(t, base, other); len(d.Forms) != 0 {
		t.Errorf("unrelated names paired: %+v", d.Forms)
	}
}

// noiseTrace writes a trace of steps ProfilerStep#N, each running rows
// distinct ops whose durations are 10 us plus uniform noise of 0-2 us
// (slow: op_000 takes twice as long).
func noiseTrace(t *testing.T, seed uint64, rows, steps int, slow bool) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var ev []string
	ts := int64(1000)
	for s := 0; s < steps; s++ {
		start := ts
		var ops []string
		for k := 0; k < rows; k++ {
			dur := 10_000 + r.Int64N(2_000)
			if slow && k == 0 {
				dur *= 2
			}
			ops = append(ops, fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":"op_%03d","pid":1,"tid":1,"ts":%d.%03d,"dur":%d.%03d}`, k, (ts+10)/1000, (ts+10)%1000, dur/1000, dur%1000))
			ts += dur + 100
		}
		ts += 1000
		ev = append(ev, fmt.Sprintf(`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d.%03d,"dur":%d.%03d}`, s+1, start/1000, start%1000, (ts-start)/1000, (ts-start)%1000))
		ev = append(ev, ops...)
		ts += 1000
	}
	p := filepath.Join(t.TempDir(), fmt.Sprintf("noise%d.json", seed))
	os.WriteFile(p, []byte(`{"traceEvents":[`+strings.Join(ev, ",\n")+`]}`), 0o644)
	return p
}

// TestDiffHolm: 200 rows of noise (the same distribution on both sides,
// 8 steps each): without a correction a rule on every row fails on some of
// them; with --correct holm none fails, the adjusted p-values equal
// Holm's step-down over the raw p-values the JSON reports, and a row made
// twice as slow is still found.
func TestDiffHolm(t *testing.T) {
	const rows, steps = 200, 8
	a, b := noiseTrace(t, 1, rows, steps, false), noiseTrace(t, 2, rows, steps, false)
	rule := "self_cpu>1%"
	plain, code := diffEv(t, a, b, "--fail-on", rule)
	low := 0
	for _, r := range plain.Rows {
		if p, ok := r.Metrics["self_cpu"]["p_value"].(float64); ok && p <= 0.05 {
			low++
		}
	}
	if code != ExitCheck || len(plain.Violations) == 0 || low == 0 {
		t.Errorf("uncorrected: exit %d, %d violations, %d rows at p <= 0.05 (expected about 10 of 200)", code, len(plain.Violations), low)
	}
	holm, code := diffEv(t, a, b, "--fail-on", rule, "--correct", "holm")
	if code != 0 || len(holm.Violations) != 0 || holm.Correction == nil || *holm.Correction != "holm" {
		t.Errorf("holm: exit %d, violations %+v", code, holm.Violations)
	}
	// Holm's step-down from the raw p-values: the i-th smallest of m becomes
	// the running maximum of (m-i)p, at most 1
	var ps []float64
	adj := map[float64]float64{}
	for _, r := range holm.Rows {
		p, ok := r.Metrics["self_cpu"]["p_value"].(float64)
		if !ok {
			continue
		}
		ps = append(ps, p)
	}
	sort.Float64s(ps)
	run := 0.0
	for i, p := range ps {
		run = math.Max(run, math.Min(1, float64(len(ps)-i)*p))
		adj[p] = run
	}
	for _, r := range holm.Rows {
		c := r.Metrics["self_cpu"]
		p, ok := c["p_value"].(float64)
		if !ok {
			continue
		}
		if got := fnum(c["p_value_adjusted"]); math.Abs(got-adj[p]) > 2e-6*float64(len(ps)) {
			t.Errorf("%s: adjusted p %v, Holm %v", r.Key, got, adj[p])
		}
		if c["verdict"] == "changed" {
			t.Errorf("%s called changed under Holm", r.Key)
		}
	}
	tested := 0
	for _, x := range holm.Tested {
		if x.Metric == "self_cpu" {
			tested = x.Tests
		}
	}
	if len(ps) != rows+1 || tested != len(ps) { // the step annotation is a row too
		t.Errorf("%d tests, %v reported", len(ps), holm.Tested)
	}
	// a real change survives the correction
	slow := noiseTrace(t, 3, rows, steps, true)
	d, code := diffEv(t, a, slow, "--fail-on", "self_cpu>50%", "--correct", "holm")
	if code != ExitCheck || len(d.Violations) != 1 || d.Violations[0].Row != "op_000" {
		t.Errorf("a twice-as-slow op under Holm: exit %d %+v", code, d.Violations)
	}
	text, _, _ := runText(t, "diff", a, b)
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "p-values are per row, not corrected for the 201 rows tested") {
		t.Errorf("no note on the many rows:\n%s", text)
	}
}

func runText(t *testing.T, args ...string) (string, string, int) { return run(t, args...) }

// TestDiffSamplesConsistent: a 30-step trace has 15 samples (groups of two
// steps) for op rows and kernel rows alike, and one per step for gpu_busy;
// every row says n, and the text says it.
func TestDiffSamplesConsistent(t *testing.T) {
	p := genFile(t, "long.json", gen.Config{Steps: 30, Layers: 1})
	for _, by := range []string{"op", "kernel"} {
		d, _ := diffEv(t, "--by", by, p, p)
		for _, r := range d.Rows {
			c := r.Metrics["self_cuda"]
			if fnum(c["base_samples_count"]) != 15 || fnum(c["new_samples_count"]) != 15 {
				t.Fatalf("--by %s: %s has n %v+%v, want 15+15", by, r.Key, c["base_samples_count"], c["new_samples_count"])
			}
		}
		if fnum(d.Totals["gpu_busy"]["base_samples_count"]) != 30 {
			t.Errorf("gpu_busy: n %v, want one per step", d.Totals["gpu_busy"]["base_samples_count"])
		}
	}
	text, _, _ := run(t, "diff", "--by", "kernel", p, p)
	if !strings.Contains(text, "n = 15+15 samples per side") || !strings.Contains(strings.Join(strings.Fields(text), " "), "groups of up to 2 consecutive steps") {
		t.Errorf("text:\n%s", text)
	}
}

// TestDiffOutsideStepKernel: a kernel launched after the last step counts
// in (outside steps), not in its row's per-step samples: the GEMM row's
// per-step median stays the raw one on both sides, and the outside row
// gains one kernel and its time.
func TestDiffOutsideStepKernel(t *testing.T) {
	base := testdata("sample.pt.trace.json")
	raw, _ := os.ReadFile(base)
	s := string(raw)
	const gemm = "ampere_sgemm_32x32_sliced1x4_nn"
	end := strings.LastIndex(s, "]")
	extra := `,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":4242,"tid":4242,"ts":3990.000,"dur":5.000,"args":{"correlation":99999}}` +
		`,{"ph":"X","cat":"kernel","name":"` + gemm + `","pid":0,"tid":7,"ts":3995.000,"dur":4.000,"args":{"correlation":99999,"stream":7}}`
	nw := filepath.Join(t.TempDir(), "outside.json")
	os.WriteFile(nw, []byte(s[:end]+extra+s[end:]), 0o644)
	d, _ := diffEv(t, "--by", "kernel", base, nw)
	want := stepMedianOf(t, base, gemm)
	for _, r := range d.Rows {
		if r.Key != gemm {
			continue
		}
		c := r.Metrics["self_cuda"]
		if int64(fnum(c["base_ns"])) != want || int64(fnum(c["new_ns"])) != want || fnum(c["delta_ns"]) != 0 {
			t.Errorf("the GEMM row: %v -> %v, raw per-step median %d", c["base_ns"], c["new_ns"], want)
		}
	}
	o := d.Outside.Metrics
	if fnum(o["count"]["delta_count"]) != 1 || fnum(o["self_cuda"]["delta_ns"]) != 4000 {
		t.Errorf("outside steps: count %v self_cuda %v, want +1 and +4000 ns", o["count"]["delta_count"], o["self_cuda"]["delta_ns"])
	}
}

// TestDiffSortedAndWide: rows come largest absolute change first (JSON, by
// the first metric), and the text fits 80 columns on HTA's pair.
func TestDiffSortedAndWide(t *testing.T) {
	shared := testenv.Shared(t)
	base := filepath.Join(shared, "traces", "HTA__trace_diff__control__control.json.gz")
	nw := filepath.Join(shared, "traces", "HTA__trace_diff__test__test.json.gz")
	d, _ := diffEv(t, base, nw)
	prev := math.Inf(1)
	for _, r := range d.Rows {
		x := math.Abs(fnum(r.Metrics["self_cuda"]["delta_ns"]))
		if x > prev {
			t.Fatalf("%s: |delta| %v after %v", r.Key, x, prev)
		}
		prev = x
	}
	text, _, _ := run(t, "diff", "--width", "80", base, nw)
	assertFits(t, text, 80)
	for _, bad := range [][]string{{"--correct", "bonferroni"}, {"--top", "-1"}, {"--alpha", "NaN"}, {"--width", "-3"}} {
		if _, stderr, code := run(t, append([]string{"diff", base, nw}, bad...)...); code != ExitUsage || !strings.Contains(stderr, bad[0]) {
			t.Errorf("%v: exit %d %q", bad, code, stderr)
		}
	}
}

// TestDiffChangedFormReal: DLRM's rank 0 against its rank 1 with the
// DataLoader iterator renamed to the multi-process one (a gzip-less copy,
// names replaced): the two iterator rows are paired, with the raw per-step
// medians of each side's annotation.
func TestDiffChangedFormReal(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	base := filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz")
	src := filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz")
	const single, multi = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	gz, _ := gzip.NewReader(f)
	raw, _ := io.ReadAll(gz)
	f.Close()
	nw := filepath.Join(t.TempDir(), "multi.json")
	os.WriteFile(nw, []byte(strings.ReplaceAll(string(raw), single, multi)), 0o644)
	d, _ := diffEv(t, base, nw)
	if len(d.Forms) != 1 || d.Forms[0].Base != single || d.Forms[0].New != multi {
		t.Fatalf("changed form %+v", d.Forms)
	}
	// cpu_total per step of an annotation that runs once per step is its duration
	if b, n := stepMedianOf(t, base, single), stepMedianOf(t, nw, multi); d.Forms[0].BaseNs != b || d.Forms[0].NewNs != n {
		t.Errorf("moved %d -> %d ns, raw medians %d -> %d", d.Forms[0].BaseNs, d.Forms[0].NewNs, b, n)
	}
}
