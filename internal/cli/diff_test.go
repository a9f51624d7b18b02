package cli

import (
	"encoding/json"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

func genFile(t *testing.T, name string, cfg gen.Config) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := gen.Write(f, cfg); err != nil {
		t.Fatal(err)
	}
	return p
}

type diffDoc struct {
	Schema  string `json:"schema"`
	PerStep bool   `json:"per_step"`
	Base    struct {
		Steps [][]int64 `json:"steps"`
	} `json:"base"`
	Mismatches []struct{ Field, Base, New string } `json:"mismatches"`
	Totals     map[string]map[string]any           `json:"totals"`
	Outside    *diffRowDoc                         `json:"outside_steps"`
	Rows       []diffRowDoc                        `json:"rows"`
	Violations []struct{ Rule, Row, Metric, Message string }
	NA         []struct{ Rule, Reason string } `json:"not_measured"`
	Failed     bool                            `json:"failed"`
}

type diffRowDoc struct {
	Key       string                    `json:"key"`
	Status    string                    `json:"status"`
	BaseLabel string                    `json:"base_label"`
	NewLabel  string                    `json:"new_label"`
	Kernels   []string                  `json:"kernels"`
	Metrics   map[string]map[string]any `json:"metrics"`
}

func diffJSON(t *testing.T, args ...string) (diffDoc, string, int) {
	t.Helper()
	out, stderr, code := run(t, append([]string{"diff", "--format", "json", "--limit", "-1"}, args...)...)
	var d diffDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("exit %d %s: %v\n%s", code, stderr, err, out)
	}
	return d, stderr, code
}

func (d diffDoc) row(key string) *diffRowDoc {
	for i := range d.Rows {
		if d.Rows[i].Key == key {
			return &d.Rows[i]
		}
	}
	return nil
}

// TestDiffSelf: a trace against itself shows ~ everywhere and passes any rule.
func TestDiffSelf(t *testing.T) {
	p := genFile(t, "a.json", gen.Config{Steps: 6, Layers: 2, Noise: gen.Noise{Seed: 7, Jitter: 0.05}})
	d, stderr, code := diffJSON(t, p, p, "--fail-on", "self_cuda>0%", "--fail-on", "count>0",
		"--fail-on", "total.gpu_idle>0%", "--fail-on", "self_cpu>0us")
	if code != 0 || d.Schema != "tracetab.diff/3" || len(d.Mismatches) != 0 {
		t.Fatalf("exit %d %s %+v", code, stderr, d.Mismatches)
	}
	if len(d.Rows) == 0 || d.Outside == nil {
		t.Fatal("no rows")
	}
	for _, r := range append(d.Rows, *d.Outside) {
		for m, c := range r.Metrics {
			if v := c["verdict"]; v != "~" && v != "same" && !(v == "n/a" && strings.HasSuffix(m, "_mem")) {
				t.Errorf("%s %s: verdict %v", r.Key, m, v)
			}
			for k, x := range c {
				if strings.HasPrefix(k, "delta_") && x != nil && x.(float64) != 0 {
					t.Errorf("%s %s: %s = %v", r.Key, m, k, x)
				}
			}
		}
	}
	out, _, _ := run(t, "diff", p, p)
	if strings.Contains(out, "new") && strings.Contains(out, "added") {
		t.Errorf("self-diff shows added rows:\n%s", out)
	}
}

// TestDiffNoiseAndChange: two runs of the same workload with different
// seeds and 5% jitter pass a 10% rule and show ~; the GEMMs made 30%
// slower fail it, naming the op, with p < 0.05.
func TestDiffNoiseAndChange(t *testing.T) {
	cfg := func(seed uint64, slow float64) gen.Config {
		c := gen.Config{Steps: 8, Noise: gen.Noise{Seed: seed, Jitter: 0.05}}
		if slow > 0 {
			s, err := gen.ParseSlow("gemm:1.3")
			if err != nil {
				t.Fatal(err)
			}
			c.Noise.Slow = []gen.Slow{s}
		}
		return c
	}
	a := genFile(t, "a.json", cfg(1, 0))
	b := genFile(t, "b.json", cfg(2, 0))
	slow := genFile(t, "slow.json", cfg(3, 1.3))
	d, stderr, code := diffJSON(t, a, b, "--fail-on", "self_cuda>10%")
	if code != 0 {
		t.Fatalf("jitter alone: exit %d %s %+v", code, stderr, d.Violations)
	}
	mm := d.row("aten::mm")
	if mm == nil || mm.Metrics["self_cuda"]["verdict"] != "~" {
		t.Fatalf("jitter: aten::mm %+v", mm)
	}
	t.Logf("jitter: aten::mm self_cuda p = %v", mm.Metrics["self_cuda"]["p_value"])
	for _, r := range d.Rows {
		c := r.Metrics["self_cuda"]
		if c["verdict"] == "changed" && math.Abs(c["delta_pct"].(float64)) > 10 {
			t.Errorf("jitter: %s changed by %v%%", r.Key, c["delta_pct"])
		}
	}
	d, _, code = diffJSON(t, a, slow, "--fail-on", "self_cuda>10%")
	if code != ExitCheck {
		t.Fatalf("slow gemm: exit %d", code)
	}
	mm = d.row("aten::mm")
	p := mm.Metrics["self_cuda"]["p_value"].(float64)
	if mm.Metrics["self_cuda"]["verdict"] != "changed" || !(p < 0.05) {
		t.Fatalf("slow gemm: aten::mm %+v", mm.Metrics["self_cuda"])
	}
	t.Logf("slow gemm: aten::mm self_cuda p = %v, %v%%", p, mm.Metrics["self_cuda"]["delta_pct"])
	named := false
	for _, v := range d.Violations {
		if v.Row == "aten::mm" && strings.Contains(v.Message, "p=") {
			named = true
		}
		if !regexp.MustCompile(`mm|gemm|ProfilerStep|matmul|outside`).MatchString(v.Row) {
			t.Errorf("slow gemm: unexpected violation %+v", v)
		}
	}
	if !named {
		t.Errorf("slow gemm: aten::mm not named: %+v", d.Violations)
	}
	// the kernel view names the kernel
	out, _, code := run(t, "diff", "--by", "kernel", a, slow, "--fail-on", "self_cuda>10%")
	if code != ExitCheck || !strings.Contains(out, "ampere_sgemm_32x32_sliced1x4_nn: self_cuda grew") || !strings.HasPrefix(out, "FAIL") {
		t.Fatalf("kernel view: exit %d\n%s", code, out)
	}
	// a 50% rule or an unmet absolute part passes
	if _, _, code := run(t, "diff", a, slow, "--fail-on", "self_cuda>50%"); code != 0 {
		t.Errorf("50%% rule: exit %d", code)
	}
	if _, _, code := run(t, "diff", a, slow, "--fail-on", "self_cuda>10%&1ms"); code != 0 {
		t.Errorf("absolute part not met: exit %d", code)
	}
	// several traces per side: diff a b -- slow slow2
	slow2 := genFile(t, "slow2.json", cfg(4, 1.3))
	d, _, code = diffJSON(t, "--fail-on", "self_cuda>10%@^aten::mm$", a, b, "--", slow, slow2)
	if code != ExitCheck || len(d.Violations) != 1 || d.row("aten::mm").Metrics["self_cuda"]["base_samples_count"].(float64) != 16 {
		t.Fatalf("two traces per side: exit %d %+v", code, d.Violations)
	}
}

// TestDiffStepCounts: identical per-step work, 4 against 5 steps: no
// per-step row changes; the work outside the steps is its own row (there
// the final cudaDeviceSynchronize really is longer with 4 steps: it waits
// for a GPU that lags the CPU by the cold step's 2.5 ms).
func TestDiffStepCounts(t *testing.T) {
	a := genFile(t, "a.json", gen.Config{Steps: 4, Layers: 1})
	b := genFile(t, "b.json", gen.Config{Steps: 5, Layers: 1})
	for _, by := range []string{"op", "kernel"} {
		d, _, code := diffJSON(t, "--by", by, a, b, "--fail-on", "self_cpu>0%", "--fail-on", "self_cuda>0%", "--fail-on", "count>0")
		if code != 0 {
			t.Fatalf("--by %s: exit %d %+v", by, code, d.Violations)
		}
		for _, r := range d.Rows {
			if r.Status != "" {
				t.Errorf("--by %s: %s is %s", by, r.Key, r.Status)
			}
			for m, c := range r.Metrics {
				for k, x := range c {
					if strings.HasPrefix(k, "delta_") && x != nil && x.(float64) != 0 {
						t.Errorf("--by %s: %s %s: %s = %v", by, r.Key, m, k, x)
					}
				}
			}
		}
		if d.Outside == nil {
			t.Errorf("--by %s: no outside-steps row", by)
		}
	}
	if d, _, _ := diffJSON(t, a, b); d.Outside.Metrics["self_cpu"]["base_ns"].(float64) < 1_780_000 {
		t.Errorf("the final cudaDeviceSynchronize (1.78 ms) is not in the outside row: %+v", d.Outside.Metrics["self_cpu"])
	}
}

// TestDiffManySteps: a long trace's op rows are sampled over groups of
// consecutive steps (bounded work), still per step: 60 against 50 steps of
// identical work change no per-step row.
func TestDiffManySteps(t *testing.T) {
	a := genFile(t, "a.json", gen.Config{Steps: 60, Layers: 1})
	b := genFile(t, "b.json", gen.Config{Steps: 50, Layers: 1})
	out, _, code := run(t, "diff", "--format", "json", a, b)
	if code != 0 || !strings.Contains(out, `"steps_per_sample_count": 3`) || !strings.Contains(out, `"samples_count": 20`) {
		t.Fatalf("exit %d\n%.600s", code, out)
	}
	d, _, _ := diffJSON(t, a, b)
	for _, r := range d.Rows {
		for m, c := range r.Metrics {
			if x := c[deltaKeyT(m)]; x != nil && x.(float64) != 0 {
				t.Errorf("%s %s changed by %v", r.Key, m, x)
			}
		}
	}
}

func deltaKeyT(m string) string {
	switch {
	case m == "count":
		return "delta_count"
	case strings.HasSuffix(m, "_mem"):
		return "delta_bytes"
	}
	return "delta_ns"
}

// TestDiffByStep: step rows carry the trace's own step numbers.
func TestDiffByStep(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	d, _, code := diffJSON(t, "--by", "step", p, p)
	if code != 0 || len(d.Rows) != 4 {
		t.Fatalf("exit %d rows %d", code, len(d.Rows))
	}
	for _, r := range d.Rows {
		n := strings.TrimPrefix(r.Key, "step ")
		want := "ProfilerStep#" + string(rune('0'+atoiT(t, n)+1))
		if r.BaseLabel != want || r.NewLabel != want {
			t.Errorf("%s: labels %q %q, want %q", r.Key, r.BaseLabel, r.NewLabel, want)
		}
	}
	out, _, _ := run(t, "diff", "--by", "step", p, p)
	if !strings.Contains(out, "step 1 (ProfilerStep#2)") {
		t.Errorf("text does not label steps:\n%s", out)
	}
}

func atoiT(t *testing.T, s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TestDiffKernelRowsRaw: on HTA's control trace, each kernel row's per-step
// median and the outside-steps row equal an independent reading of the raw
// JSON: a kernel belongs to the ProfilerStep window holding the ts of the
// runtime call with its correlation id.
func TestDiffKernelRowsRaw(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "HTA__trace_diff__control__control.json.gz")
	var raw []rawEvent // the X events
	for _, e := range readRaw(t, path) {
		if e.Ph == "X" {
			raw = append(raw, e)
		}
	}
	type win struct{ lo, hi int64 }
	var steps []win
	launch := map[int64]int64{}
	for _, e := range raw {
		if strings.HasPrefix(e.Name, "ProfilerStep#") && e.Cat == "user_annotation" {
			steps = append(steps, win{e.Ts, e.Ts + e.Dur})
		}
		if c, ok := e.ArgInt("correlation"); ok && e.Cat == "cuda_runtime" {
			launch[c] = e.Ts
		}
	}
	per := map[string][]int64{}
	var outside, outsideN int64
	for _, e := range raw {
		if e.Cat != "kernel" && e.Cat != "gpu_memcpy" && e.Cat != "gpu_memset" {
			continue
		}
		c, _ := e.ArgInt("correlation")
		at, ok := launch[c]
		if !ok {
			at = e.Ts
		}
		k := -1
		for j, s := range steps {
			if s.lo <= at && at < s.hi {
				k = j
			}
		}
		if k < 0 {
			outside += e.Dur
			outsideN++
			continue
		}
		if per[e.Name] == nil {
			per[e.Name] = make([]int64, len(steps))
		}
		per[e.Name][k] += e.Dur
	}
	d, stderr, code := diffJSON(t, "--by", "kernel", path, path)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if len(d.Rows) != len(per) {
		t.Errorf("%d kernel rows, raw JSON has %d names inside steps", len(d.Rows), len(per))
	}
	for _, r := range d.Rows {
		want := medianNs(per[r.Key])
		if got := r.Metrics["self_cuda"]["base_ns"].(float64); got != float64(want) {
			t.Errorf("%s: median %v ns, raw %d", r.Key, got, want)
		}
	}
	if got := d.Outside.Metrics["self_cuda"]["base_ns"].(float64); got != float64(outside) || d.Outside.Metrics["count"]["base_count"].(float64) != float64(outsideN) {
		t.Errorf("outside: %v ns / %v, raw %d ns / %d", got, d.Outside.Metrics["count"]["base_count"], outside, outsideN)
	}
	if len(d.Base.Steps) != 1 || len(d.Base.Steps[0]) != 6 || d.Base.Steps[0][0] != 1009 {
		t.Errorf("steps %v", d.Base.Steps)
	}
}

func medianNs(x []int64) int64 {
	s := append([]int64{}, x...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	sum := s[n/2-1] + s[n/2]
	if sum%2 != 0 { // round half away from zero, as the JSON does
		return sum/2 + 1
	}
	return sum / 2
}

// TestDiffHTAEnv: the control/test pair come from different machines: the
// warnings name the GPU models and world sizes, JSON carries the
// mismatches, --require-same-env exits 1; --key op turns renamed kernels
// into changes of their ops.
func TestDiffHTAEnv(t *testing.T) {
	shared := testenv.Shared(t)
	base := filepath.Join(shared, "traces", "HTA__trace_diff__control__control.json.gz")
	nw := filepath.Join(shared, "traces", "HTA__trace_diff__test__test.json.gz")
	d, stderr, code := diffJSON(t, base, nw)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	for _, want := range []string{"GPU model differs: NVIDIA A100-PG509-200", "Tesla V100-SXM2-16GB", "world size differs: 8", "vs 2", "rank differs: 3"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	fields := map[string]bool{}
	for _, m := range d.Mismatches {
		fields[m.Field] = true
	}
	if !fields["gpu_model"] || !fields["world_size"] || !fields["rank"] {
		t.Errorf("mismatches %+v", d.Mismatches)
	}
	if _, _, code := run(t, "diff", base, nw, "--require-same-env"); code != ExitCheck {
		t.Errorf("--require-same-env: exit %d", code)
	}
	out, _, _ := run(t, "diff", base, nw, "--require-same-env", "--format", "junit")
	if !strings.Contains(out, "<testsuites") || !strings.Contains(out, `name="environment"`) || !strings.Contains(out, "Tesla V100") {
		t.Errorf("junit:\n%s", out)
	}
	// renamed GEMMs: added and removed by name, one changed row by op
	byName, _, _ := diffJSON(t, "--by", "kernel", base, nw)
	byOp, _, _ := diffJSON(t, "--by", "kernel", "--key", "op", base, nw)
	count := func(d diffDoc, re string) (n int) {
		for _, r := range d.Rows {
			if r.Status != "" && regexp.MustCompile(re).MatchString(r.Key) {
				n++
			}
		}
		return
	}
	if count(byName, "sgemm") == 0 {
		t.Fatal("no renamed sgemm kernels by name")
	}
	mm := byOp.row("aten::mm")
	if mm == nil || mm.Status != "" || len(mm.Kernels) < 2 {
		t.Errorf("--key op: aten::mm %+v", mm)
	}
	ign, _, _ := diffJSON(t, "--by", "kernel", "--ignore-added-removed", base, nw)
	if count(ign, ".") != 0 {
		t.Errorf("--ignore-added-removed left %d rows", count(ign, "."))
	}
}

// TestDiffMarkdownHTA: the Markdown a CI summary shows.
func TestDiffMarkdownHTA(t *testing.T) {
	shared := testenv.Shared(t)
	base := filepath.Join(shared, "traces", "HTA__trace_diff__control__control.json.gz")
	nw := filepath.Join(shared, "traces", "HTA__trace_diff__test__test.json.gz")
	out, _, code := run(t, "diff", base, nw, "--fail-on", "self_cuda>10%&50us", "--fail-on", "total.gpu_idle>5%&1ms",
		"--fail-on", "count>0@^aten::copy_$", "--format", "md", "--top", "20")
	if code != ExitCheck {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "**FAIL**") {
		t.Errorf("first line %q", lines[0])
	}
	if len(out) >= 30_000 {
		t.Errorf("%d bytes", len(out))
	}
	t.Logf("%d bytes, %d lines", len(out), len(lines))
	bullets := 0
	allowed := regexp.MustCompile("^</?(details|summary)>")
	codeSpan := regexp.MustCompile("``[^`]*``|`[^`]*`")
	for i, l := range lines {
		if len(l) > 400 {
			t.Errorf("line %d: %d characters", i+1, len(l))
		}
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %d: trailing space", i+1)
		}
		if strings.HasPrefix(l, "- `self_cuda>10%&50us`") {
			bullets++
		}
		rest := codeSpan.ReplaceAllString(l, "")
		for j := strings.Index(rest, "<"); j >= 0; j = strings.Index(rest, "<") {
			if !allowed.MatchString(rest[j:]) {
				t.Errorf("line %d: unescaped < outside a code span: %q", i+1, rest[j:min(len(rest), j+40)])
				break
			}
			rest = rest[j+1:]
		}
	}
	if bullets == 0 {
		t.Error("violations are not bullets")
	}
	if !strings.Contains(out, "<details>") {
		t.Error("no <details> block")
	}
}

// TestDiffUnmeasured: a rule whose pattern matches no row, or whose metric
// a trace lacks, fails with n/a unless --allow-missing.
func TestDiffUnmeasured(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	for _, rule := range []string{"self_cuda>10%@^aten::nothing$", "self_cuda_mem>0"} {
		out, stderr, code := run(t, "diff", p, p, "--fail-on", rule)
		if code != ExitCheck || !strings.Contains(out, "n/a ["+rule+"]") {
			t.Errorf("%s: exit %d\n%s%s", rule, code, out, stderr)
		}
		_, stderr, code = run(t, "diff", p, p, "--fail-on", rule, "--allow-missing")
		if code != 0 || !strings.Contains(stderr, "warning: n/a") {
			t.Errorf("%s --allow-missing: exit %d %s", rule, code, stderr)
		}
	}
	ns := noSteps(t)
	d, _, code := diffJSON(t, ns, ns, "--fail-on", "total.step_time>10%")
	if code != ExitCheck || len(d.NA) != 1 || !strings.Contains(d.NA[0].Reason, "prof.step()") || d.PerStep {
		t.Errorf("no steps: exit %d %+v", code, d.NA)
	}
}

// noSteps writes the sample with its ProfilerStep annotations renamed.
func noSteps(t *testing.T) string {
	b, err := os.ReadFile(testdata("sample.pt.trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "nosteps.json")
	os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "ProfilerStep#", "Iteration#")), 0o644)
	return p
}

func TestDiffFormats(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	out, _, code := run(t, "diff", p, p, "--format", "csv")
	if code != 0 || !strings.HasPrefix(out, "row,status,paired_with,metric,unit,base,new,delta,delta_pct,p_value,p_value_adjusted,verdict") ||
		!strings.Contains(out, "aten::mm,,,self_cuda,ns,11328,11328,0,0,1,,~,4,4") {
		t.Errorf("csv: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, "diff", p, p, "--fail-on", "self_cuda>10%", "--format", "junit")
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 2 {
		t.Errorf("junit %v: %+v\n%s", err, doc, out)
	}
	out, _, _ = run(t, "diff", p, p)
	if strings.Contains(out, "-0.000") || strings.Contains(out, "-0.0%") {
		t.Errorf("-0 printed:\n%s", out)
	}
}

func TestDiffRulesRefused(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	for _, r := range []string{"speed>10%", "self_cuda>abc", "self_cuda>10%@(", "total.bogus>1", "self_cuda", "self_cuda>10%&20%"} {
		if _, stderr, code := run(t, "diff", p, p, "--fail-on", r); code != ExitUsage || !strings.Contains(stderr, "rule") {
			t.Errorf("%q: exit %d %q", r, code, stderr)
		}
	}
	for _, args := range [][]string{{p}, {p, p, p}, {"--key", "op", p, p}, {"--alpha", "2", p, p}, {"--by", "step", p, p, "--", p}} {
		if _, _, code := run(t, append([]string{"diff"}, args...)...); code != ExitUsage {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

func TestCheck(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	out, _, code := run(t, "check", p, "--max-gpu-idle", "99", "--max", "self_cuda_per_call@^aten::mm$=20us", "--no-unlinked")
	if code != 0 || !strings.HasPrefix(out, "PASS: 3 budgets") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, code = run(t, "check", p, "--max-gpu-idle", "10", "--max", "self_cuda_per_call@^aten::mm$=5us")
	if code != ExitCheck || !strings.HasPrefix(out, "FAIL: 2 budgets, 2 violations") || !strings.Contains(out, "aten::mm: self_cuda_per_call is 11.328us, over the budget of 5us") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "budget.yaml")
	os.WriteFile(good, []byte("budgets:\n  - metric: total.step_time\n    max: 1ms\n  - metric: count\n    match: ^aten::add$\n    max: 1\n"), 0o644)
	if out, stderr, code := run(t, "check", p, "--budget", good, "--format", "json"); code != 0 || !strings.Contains(out, `"passed": true`) || !strings.Contains(out, `"max_ns": 1000000`) {
		t.Fatalf("yaml budget: exit %d %s\n%s", code, stderr, out)
	}
	jsonBudget := filepath.Join(dir, "budget.json")
	os.WriteFile(jsonBudget, []byte(`{"budgets": [{"metric": "total.step_time", "max": "100us"}]}`), 0o644)
	if out, _, code := run(t, "check", p, "--budget", jsonBudget); code != ExitCheck || !strings.Contains(out, "over the budget of 100us") {
		t.Fatalf("json budget over: exit %d\n%s", code, out)
	}
}

// TestCheckUnmeasured: a trace without steps against --max-step-time, a
// budget matching no row and a memory budget on a trace without memory
// events each exit 1 with n/a and the reason; --allow-missing makes them
// warnings.
func TestCheckUnmeasured(t *testing.T) {
	ns := noSteps(t)
	p := testdata("sample.pt.trace.json")
	for _, c := range []struct {
		file string
		args []string
		want string
	}{
		{ns, []string{"--max-step-time", "1ms"}, "the trace has no ProfilerStep#N: call prof.step()"},
		{p, []string{"--max", "self_cuda@^aten::nothing$=50us"}, "no row matches ^aten::nothing$"},
		{p, []string{"--max", "self_cuda_mem=1MB"}, "no [memory] events: profile with profile_memory=True"},
	} {
		out, _, code := run(t, append([]string{"check", c.file}, c.args...)...)
		if code != ExitCheck || !strings.HasPrefix(out, "FAIL") || !strings.Contains(out, "n/a") || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d\n%s", c.args, code, out)
		}
		out, stderr, code := run(t, append([]string{"check", c.file, "--allow-missing"}, c.args...)...)
		if code != 0 || !strings.HasPrefix(out, "PASS") || !strings.Contains(stderr, "warning: n/a") {
			t.Errorf("%v --allow-missing: exit %d\n%s%s", c.args, code, out, stderr)
		}
	}
	out, _, _ := run(t, "check", ns, "--max-step-time", "1ms", "--format", "json")
	if !strings.Contains(out, `"value_ns": null`) || !strings.Contains(out, `"result": "n/a"`) || strings.Contains(out, `"change"`) {
		t.Errorf("json:\n%s", out)
	}
}

// TestBudgetErrors: a wrong budget file is refused with exit 2 and its line.
func TestBudgetErrors(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	dir := t.TempDir()
	for _, c := range []struct {
		name, body, want string
	}{
		{"metric", "budgets:\n  - metric: total.step_time\n    max: 1ms\n  - metric: speed\n    max: 3\n", ":4: unknown metric"},
		{"number", "budgets:\n  - metric: total.gpu_idle_pct\n    max: forty\n", ":2: bad max"},
		{"regex", "budgets:\n  - metric: count\n    match: \"(\"\n    max: 1\n", ":2: bad match"},
		{"key", "budgets:\n  - metric: count\n    limit: 1\n", ":3: unknown key"},
		{"yaml", "budgets: [\n", "not YAML or JSON"},
	} {
		path := filepath.Join(dir, c.name+".yaml")
		os.WriteFile(path, []byte(c.body), 0o644)
		_, stderr, code := run(t, "check", p, "--budget", path)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d %q, want 2 and %q", c.name, code, stderr, c.want)
		}
	}
}

// TestDiffJSONContract: every number in diff and check JSON is named with
// its unit; times, counts and sizes are integers.
func TestDiffJSONContract(t *testing.T) {
	shared := testenv.Shared(t)
	base := filepath.Join(shared, "traces", "HTA__trace_diff__control__control.json.gz")
	nw := filepath.Join(shared, "traces", "HTA__trace_diff__test__test.json.gz")
	docs := map[string][]string{
		"diff":  {"diff", base, nw, "--format", "json", "--limit", "-1", "--fail-on", "self_cuda>10%"},
		"holm":  {"diff", base, nw, "--format", "json", "--limit", "-1", "--correct", "holm"},
		"check": {"check", base, "--max-gpu-idle", "10", "--max-step-time", "25ms", "--max", "count@^aten::mm$=3", "--format", "json"},
	}
	for name, args := range docs {
		out, _, _ := run(t, args...)
		var v any
		dec := json.NewDecoder(strings.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var walk func(key string, v any)
		walk = func(key string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for k, y := range x {
					walk(k, y)
				}
			case []any:
				for _, y := range x {
					walk(key, y)
				}
			case json.Number:
				switch {
				case strings.HasSuffix(key, "_ns"), strings.HasSuffix(key, "_count"), strings.HasSuffix(key, "_bytes"), key == "steps", key == "line":
					if strings.ContainsAny(string(x), ".eE") {
						t.Errorf("%s: %s = %s is not an integer", name, key, x)
					}
				case strings.HasSuffix(key, "_pct"), strings.HasSuffix(key, "_pp"):
					if i := strings.Index(string(x), "."); i >= 0 && len(x)-i-1 > 2 {
						t.Errorf("%s: %s = %s has more than 2 decimals", name, key, x)
					}
				case key == "p_value", key == "p_value_adjusted", key == "alpha":
				default:
					t.Errorf("%s: number field %q has no unit", name, key)
				}
			}
		}
		walk("", v)
	}
}

// TestDiffTooFewSamples: 3 against 3 steps cannot reach p < 0.05 (the
// smallest two-sided p is 0.1): the output says so and the thresholds alone
// decide.
func TestDiffTooFewSamples(t *testing.T) {
	slow, _ := gen.ParseSlow("gemm:1.3")
	a := genFile(t, "a.json", gen.Config{Steps: 3})
	b := genFile(t, "b.json", gen.Config{Steps: 3, Noise: gen.Noise{Slow: []gen.Slow{slow}}})
	out, _, code := run(t, "diff", a, b, "--fail-on", "self_cuda>10%@^aten::mm$")
	if code != ExitCheck || !strings.Contains(out, "aten::mm: self_cuda grew from 11.328us to 14.726us (+30.0%, too few samples to test, n=3+3)") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	d, _, _ := diffJSON(t, a, b)
	if c := d.row("aten::mm").Metrics["self_cuda"]; c["verdict"] != "too few" || c["p_value"] != nil {
		t.Errorf("%+v", c)
	}
	if _, _, code := run(t, "diff", a, b, "--fail-on", "self_cuda>50%@^aten::mm$"); code != 0 {
		t.Errorf("50%% rule: exit %d", code)
	}
}

// TestDiffOpRowsAreStepTables: on HTA's control trace each op row's median
// is the median over its six steps of `tracetab table --steps N`, and the
// outside-steps row is the whole table minus the steps.
func TestDiffOpRowsAreStepTables(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "HTA__trace_diff__control__control.json.gz")
	perStep := map[string][]int64{}
	var stepSum, whole int64
	tableRows := func(args ...string) map[string][2]int64 {
		m := tableJSON(t, append([]string{"table", "--format", "json", "--limit", "-1", path}, args...)...)
		out := map[string][2]int64{}
		for _, r := range m["rows"].([]any) {
			row := r.(map[string]any)
			key := row["name"].(string)
			if row["device_op"] == true {
				key = "[device] " + key
			}
			v := out[key]
			v[0] += int64(row["self_cuda_ns"].(float64))
			v[1] += int64(row["self_cpu_ns"].(float64))
			out[key] = v
		}
		return out
	}
	for k, n := range []string{"1009", "1010", "1011", "1012", "1013", "1014"} {
		for key, v := range tableRows("--steps", n) {
			if perStep[key] == nil {
				perStep[key] = make([]int64, 6)
			}
			perStep[key][k] = v[0]
			stepSum += v[1]
		}
	}
	for _, v := range tableRows() {
		whole += v[1]
	}
	d, _, code := diffJSON(t, path, path)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if len(d.Rows) != len(perStep) {
		t.Errorf("%d rows, the step tables have %d", len(d.Rows), len(perStep))
	}
	for _, r := range d.Rows {
		if got, want := r.Metrics["self_cuda"]["base_ns"].(float64), medianNs(perStep[r.Key]); got != float64(want) {
			t.Errorf("%s: self_cuda median %v, table --steps %d", r.Key, got, want)
		}
	}
	if got := d.Outside.Metrics["self_cpu"]["base_ns"].(float64); math.Abs(got-float64(whole-stepSum)) > 6 {
		t.Errorf("outside self_cpu %v, table minus steps %d", got, whole-stepSum)
	}
}
