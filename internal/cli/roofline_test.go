package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// rooflineDoc is the part of tracetab.roofline/1 the tests read.
type rooflineDoc struct {
	Schema      string   `json:"schema"`
	HasShapes   bool     `json:"has_shapes"`
	DeviceNs    int64    `json:"device_ns"`
	ModelledNs  int64    `json:"modelled_device_ns"`
	ModelledPct *float64 `json:"modelled_pct"`
	Devices     []struct {
		Name *string         `json:"name"`
		Peak json.RawMessage `json:"peak"`
	} `json:"devices"`
	Families []struct {
		Family     string   `json:"family"`
		DeviceNs   int64    `json:"device_ns"`
		PeakPct    *float64 `json:"peak_pct"`
		MeasuredNs int64    `json:"measured_device_ns"`
	} `json:"families"`
	RowsTotal int `json:"rows_total"`
	Rows      []struct {
		Name       string   `json:"name"`
		Family     *string  `json:"family"`
		Model      *string  `json:"model"`
		DeviceNs   int64    `json:"device_ns"`
		TFLOPs     *float64 `json:"tflops_per_s"`
		ComputePct *float64 `json:"pct_of_compute_peak"`
		PeakPct    *float64 `json:"peak_pct"`
	} `json:"rows"`
	Notes []string `json:"notes"`
}

func rooflineJSON(t *testing.T, args ...string) (rooflineDoc, string) {
	t.Helper()
	out, stderr, code := run(t, append([]string{"roofline", "--format", "json", "--limit", "-1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc rooflineDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc, stderr
}

// writeGen writes a generated trace; noShapes strips every Input Dims,
// Input type and Concrete Inputs, as a trace recorded without
// record_shapes has none.
func writeGen(t *testing.T, cfg gen.Config, noShapes bool) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if noShapes {
		var doc map[string]any
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if err := d.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		for _, e := range doc["traceEvents"].([]any) {
			if args, ok := e.(map[string]any)["args"].(map[string]any); ok {
				delete(args, "Input Dims")
				delete(args, "Input type")
				delete(args, "Concrete Inputs")
			}
		}
		var err error
		if b, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), "gen.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRooflineNoShapes: a trace recorded without record_shapes exits 0,
// every row unmodelled, with a note naming record_shapes=True.
func TestRooflineNoShapes(t *testing.T) {
	t.Parallel()
	p := writeGen(t, gen.Config{Steps: 2, Layers: 2, Roofline: true}, true)
	doc, stderr := rooflineJSON(t, p)
	if !strings.Contains(stderr, "record_shapes=True") || doc.HasShapes {
		t.Errorf("no note naming record_shapes=True: %q", stderr)
	}
	if len(doc.Rows) == 0 || doc.ModelledNs != 0 {
		t.Fatalf("%d rows, %d ns modelled", len(doc.Rows), doc.ModelledNs)
	}
	for _, r := range doc.Rows {
		if r.Family != nil || r.Model != nil || r.TFLOPs != nil || r.PeakPct != nil {
			t.Errorf("row %s has a model without shapes", r.Name)
		}
	}
	if out, _, code := run(t, "roofline", p); code != 0 || !strings.Contains(out, "modelled: 0.00%") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
}

// TestRooflineFlags: bad flags exit 2 naming the flag, an unreadable
// trace 3.
func TestRooflineFlags(t *testing.T) {
	t.Parallel()
	sample := testdata("sample.pt.trace.json")
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{sample}, 0, ""},
		{[]string{"--peak", "tflops=NaN", sample}, 2, "--peak"},
		{[]string{"--peak", "tflops=-5", sample}, 2, "positive number"},
		{[]string{"--peak", "tbps=0", sample}, 2, "positive number"},
		{[]string{"--peak", "flops=5", sample}, 2, "unknown key"},
		{[]string{"--peak", "tflops", sample}, 2, "KEY=VALUE"},
		{[]string{"--sort", "fastest", sample}, 2, "unknown --sort"},
		{[]string{"--format", "junit", sample}, 2, "--format"},
		{[]string{"--width", "12", sample}, 2, "--width"},
		{[]string{"/nonexistent/x.json"}, 3, "cannot open"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, stderr, code := run(t, append([]string{"roofline"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.err) {
				t.Fatalf("exit %d stderr %q; want %d and %q", code, stderr, c.code, c.err)
			}
		})
	}
}

// rawDeviceNs sums the durations of every kernel, memcpy and memset of a
// trace, read here from the JSON.
func rawDeviceNs(t *testing.T, path string) int64 {
	var total int64
	for _, e := range readRawFile(t, path) {
		switch e.Cat {
		case "kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset":
			if e.Ph == "X" {
				total += e.Dur
			}
		}
	}
	return total
}

// TestRooflineShare: on real traces with shapes (and a generated one), the
// device time is the raw JSON's sum of device op durations, the modelled
// share is the rows with a model over it, and each family's % of peak is
// its rows' time-weighted mean.
func TestRooflineShare(t *testing.T) {
	t.Parallel()
	traces := []string{writeGen(t, gen.Config{Steps: 3, Layers: 2, Roofline: true}, false)}
	if dir, ok := testenv.SharedDir(); ok {
		for _, n := range []string{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz",
			"TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",
			"TraceLens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
			"TraceLens__torch_compile_triton__trace.json.gz",
			"TraceLens__b200__eager_trace.json.gz"} {
			traces = append(traces, filepath.Join(dir, "traces", n))
		}
	} else {
		t.Log("../shared not found: the generated trace only")
	}
	for _, p := range traces {
		t.Run(filepath.Base(p), func(t *testing.T) {
			doc, _ := rooflineJSON(t, p)
			if raw := rawDeviceNs(t, p); doc.DeviceNs != raw {
				t.Errorf("device_ns %d, the raw device ops last %d ns", doc.DeviceNs, raw)
			}
			var modelled int64
			fam := map[string][2]float64{}
			for _, r := range doc.Rows {
				if r.Family == nil {
					continue
				}
				modelled += r.DeviceNs
				if r.PeakPct != nil {
					f := fam[*r.Family]
					fam[*r.Family] = [2]float64{f[0] + float64(r.DeviceNs)**r.PeakPct, f[1] + float64(r.DeviceNs)}
				}
			}
			want := math.Round(float64(modelled)*1e4/float64(doc.DeviceNs)) / 100
			if doc.ModelledNs != modelled || doc.ModelledPct == nil || *doc.ModelledPct != want {
				t.Errorf("modelled %d ns (%v%%), rows with a model hold %d ns (%.2f%%)", doc.ModelledNs, doc.ModelledPct, modelled, want)
			}
			for _, f := range doc.Families {
				w := fam[f.Family]
				if w[1] == 0 {
					if f.PeakPct != nil {
						t.Errorf("%s: peak_pct %v without measured rows", f.Family, *f.PeakPct)
					}
					continue
				}
				if f.PeakPct == nil || math.Abs(*f.PeakPct-w[0]/w[1]) > 0.01 || float64(f.MeasuredNs) != w[1] {
					t.Errorf("%s: peak_pct %v over %d ns, rows give %.4f over %.0f ns", f.Family, f.PeakPct, f.MeasuredNs, w[0]/w[1], w[1])
				}
			}
		})
	}
}

// TestRooflinePeaks: --peak replaces the table's peaks; a device the table
// does not know gets achieved figures only and a note.
func TestRooflinePeaks(t *testing.T) {
	t.Parallel()
	p := writeGen(t, gen.Config{Steps: 2, Layers: 1, Roofline: true}, false)
	doc, _ := rooflineJSON(t, "--peak", "tflops=100,tbps=1", p)
	n := 0
	for _, r := range doc.Rows {
		if r.TFLOPs == nil || r.ComputePct == nil {
			continue
		}
		// 100 TFLOP/s for every precision: the share is the rate itself
		if math.Abs(*r.ComputePct-*r.TFLOPs) > 0.006 {
			t.Errorf("%s: %v TFLOP/s is %v%% of 100", r.Name, *r.TFLOPs, *r.ComputePct)
		}
		n++
	}
	if n < 5 {
		t.Errorf("%d rows measured against --peak", n)
	}
	unknown := writeGen(t, gen.Config{Steps: 2, Roofline: true}, false)
	b, _ := os.ReadFile(unknown)
	os.WriteFile(unknown, bytes.Replace(b, []byte("NVIDIA A100-SXM4-80GB"), []byte("Acme Tensor 9000"), 1), 0o644)
	doc, stderr := rooflineJSON(t, unknown)
	if !strings.Contains(stderr, `"Acme Tensor 9000" is not in the peak table`) || string(doc.Devices[0].Peak) != "null" {
		t.Errorf("unknown device: %q, peak %s", stderr, doc.Devices[0].Peak)
	}
	for _, r := range doc.Rows {
		if r.PeakPct != nil || (r.Model != nil && r.TFLOPs == nil) {
			t.Errorf("%s: peak_pct %v, tflops %v on an unknown device", r.Name, r.PeakPct, r.TFLOPs)
		}
	}
}

// TestRooflineViews: text fits --width (80 columns too), Markdown puts
// names in code spans, CSV is one table with a row per op.
func TestRooflineViews(t *testing.T) {
	t.Parallel()
	p := writeGen(t, gen.Config{Steps: 2, Layers: 2, Roofline: true}, false)
	for _, w := range []int{80, 100, 140} {
		out, _, code := run(t, "roofline", "--width", itoa(w), p)
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if utf8.RuneCountInString(l) > w || strings.HasSuffix(l, " ") {
				t.Errorf("width %d: line of %d runes (or a trailing space): %q", w, utf8.RuneCountInString(l), l)
			}
		}
	}
	md, _, _ := run(t, "roofline", "--format", "md", p)
	if !strings.Contains(md, "| `aten::convolution`") || !strings.Contains(md, "`8x64x56x56, 64x64x3x3 bf16`") {
		t.Errorf("md names not in code spans:\n%s", md)
	}
	out, _, _ := run(t, "roofline", "--format", "csv", "--limit", "-1", p)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 10 || recs[0][0] != "name" {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	doc, _ := rooflineJSON(t, p)
	if len(recs)-1 != doc.RowsTotal {
		t.Errorf("csv has %d rows, json %d", len(recs)-1, doc.RowsTotal)
	}
}

// TestTableModelColumns: table --columns flops,tflops_s,pct_peak shows,
// for the op that owns a kernel, its calls times the hand-worked FLOPs of
// gen.RooflineOps and their rate over its kernels' time; the composite and
// inner ops of its chain show n/a.
func TestTableModelColumns(t *testing.T) {
	t.Parallel()
	const steps = 3
	p := writeGen(t, gen.Config{Steps: steps, Roofline: true}, false)
	out, stderr, code := run(t, "table", "--columns", "calls,flops,tflops_s,pct_peak", "--width", "200", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cells := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 5 {
			cells[f[0]] = f[1:]
		}
	}
	for _, op := range gen.RooflineOps {
		owner := op.Chain[0].Name
		if owner == "aten::conv2d" || owner == "aten::linear" {
			owner = op.Chain[1].Name // composites: their child owns the kernel
		}
		c := cells[owner]
		flops := float64(steps * op.FLOPs)
		wantFLOPs := ""
		for _, s := range []struct {
			p string
			f float64
		}{{"T", 1e12}, {"G", 1e9}, {"M", 1e6}} {
			if flops >= s.f {
				wantFLOPs = strconv.FormatFloat(flops/s.f, 'f', 3, 64) + s.p
				break
			}
		}
		wantRate := strconv.FormatFloat(float64(op.FLOPs)/float64(op.KernelNs)/1e3, 'f', 2, 64)
		if len(c) != 4 || c[1] != wantFLOPs || c[2] != wantRate || !strings.HasSuffix(c[3], "%") {
			t.Errorf("%s: cells %v, want %s FLOPs at %s TFLOP/s", owner, c, wantFLOPs, wantRate)
		}
		for _, r := range op.Chain {
			if r.Name != owner {
				if c := cells[r.Name]; len(c) != 4 || c[1] != "n/a" || c[2] != "n/a" {
					t.Errorf("%s (inside or around %s): cells %v, want n/a", r.Name, owner, c)
				}
			}
		}
	}
}

// TestCheckPctPeak: a floor on pct_peak holds an op's time-weighted % of
// peak (roofline's peak_pct, the median over the steps); it is n/a without
// shapes; min takes only pct_peak.
func TestCheckPctPeak(t *testing.T) {
	t.Parallel()
	p := writeGen(t, gen.Config{Steps: 4, Layers: 1, Roofline: true}, false)
	doc, _ := rooflineJSON(t, p)
	var sdpa float64
	for _, r := range doc.Rows {
		if r.Name == "aten::scaled_dot_product_attention" {
			sdpa = *r.PeakPct
		}
	}
	if sdpa == 0 {
		t.Fatal("no sdpa row")
	}
	below := strconv.FormatFloat(math.Floor(sdpa), 'f', -1, 64)
	above := strconv.FormatFloat(math.Ceil(sdpa), 'f', -1, 64)
	re := "pct_peak@^aten::scaled_dot_product_attention$="
	if out, stderr, code := run(t, "check", "--min", re+below, "--format", "json", p); code != 0 ||
		!strings.Contains(out, `"value_pct": `+strconv.FormatFloat(sdpa, 'f', -1, 64)) {
		t.Errorf("floor %s under %.2f: exit %d %s\n%s", below, sdpa, code, stderr, out)
	}
	if _, stderr, code := run(t, "check", "--min", re+above, p); code != 1 || !strings.Contains(stderr, "violation") {
		t.Errorf("floor %s over %.2f: exit %d %s", above, sdpa, code, stderr)
	}
	budget := filepath.Join(t.TempDir(), "b.yaml")
	os.WriteFile(budget, []byte("budgets:\n  - metric: pct_peak\n    match: ^aten::scaled\n    min: "+above+"\n"), 0o644)
	if _, _, code := run(t, "check", "--budget", budget, p); code != 1 {
		t.Errorf("budget file floor: exit %d", code)
	}
	os.WriteFile(budget, []byte("budgets:\n  - metric: pct_peak\n    min: 1\n    max: 2\n"), 0o644)
	if _, stderr, code := run(t, "check", "--budget", budget, p); code != 2 || !strings.Contains(stderr, "one of max or min") {
		t.Errorf("min and max: exit %d %s", code, stderr)
	}
	if _, stderr, code := run(t, "check", "--min", "self_cuda=1us", p); code != 2 || !strings.Contains(stderr, "takes max") {
		t.Errorf("min on self_cuda: exit %d %s", code, stderr)
	}
	bare := writeGen(t, gen.Config{Steps: 2, Roofline: true}, true)
	if out, _, code := run(t, "check", "--min", "pct_peak=10", bare); code != 1 || !strings.Contains(out, "record_shapes=True") {
		t.Errorf("no shapes: exit %d\n%s", code, out)
	}
	if _, _, code := run(t, "check", "--min", "pct_peak=10", "--allow-missing", bare); code != 0 {
		t.Errorf("no shapes, --allow-missing: exit %d", code)
	}
}

// TestCheckPctPeakReal: on a real trace, check's pct_peak of aten::addmm
// over the whole trace is the time-weighted peak_pct of roofline's addmm
// rows.
func TestCheckPctPeakReal(t *testing.T) {
	t.Parallel()
	p := filepath.Join(testenv.Shared(t), "traces", "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
	doc, _ := rooflineJSON(t, p)
	var w, ns float64
	for _, r := range doc.Rows {
		if r.Name == "aten::addmm" && r.PeakPct != nil {
			w += float64(r.DeviceNs) * *r.PeakPct
			ns += float64(r.DeviceNs)
		}
	}
	if ns == 0 {
		t.Fatal("no addmm rows with a peak")
	}
	out, stderr, code := run(t, "check", "--no-normalize", "--min", "pct_peak@^aten::addmm$=1", "--format", "json", p)
	var res struct {
		Budgets []struct {
			Value *float64 `json:"value_pct"`
		} `json:"budgets"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || len(res.Budgets) != 1 || res.Budgets[0].Value == nil {
		t.Fatalf("exit %d %s %v\n%s", code, stderr, err, out)
	}
	if got := *res.Budgets[0].Value; math.Abs(got-w/ns) > 0.01 {
		t.Errorf("check pct_peak %.2f, roofline rows give %.4f", got, w/ns)
	}
}
