package kerneleff_test

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

const pluginTrace = "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"

// pluginLines reads the TensorBoard plugin's expected views for the
// resnet50 trace, one JSON document a line.
func pluginLines(t *testing.T) []json.RawMessage {
	f, err := os.Open(filepath.Join(testenv.Shared(t), "traces", "oracles", "tb_plugin", "resnet50_num_workers_0.result_check.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	var out []json.RawMessage
	for sc.Scan() {
		out = append(out, json.RawMessage(append([]byte(nil), sc.Bytes()...)))
	}
	if len(out) < 4 {
		t.Fatalf("%d lines in the plugin oracle, want >= 4", len(out))
	}
	return out
}

// near: ours rounded to 2 decimals is the plugin's 2-decimal value (half a
// unit of the last place either way).
func near(ours, plugin float64) bool { return math.Abs(ours-plugin) <= 0.005+1e-9 }

// TestPluginKernelTable: every kernel row of the plugin's Kernel view
// (line 4: name, Tensor Cores Used, calls, total/mean/max/min us, mean
// blocks per SM, mean est. achieved occupancy %) has a row of ours with the
// same calls, Tensor Cores verdict and both means.
func TestPluginKernelTable(t *testing.T) {
	lines := pluginLines(t)
	var kv struct {
		Data struct {
			Columns []struct {
				Name string `json:"name"`
			} `json:"columns"`
			Rows [][]any `json:"rows"`
		} `json:"data"`
	}
	if err := json.Unmarshal(lines[3], &kv); err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range kv.Data.Columns {
		col[c.Name] = i
	}
	for _, c := range []string{"Name", "Tensor Cores Used", "Calls", "Mean Blocks Per SM", "Mean Est. Achieved Occupancy (%)"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("plugin kernel view has no column %q: %v", c, kv.Data.Columns)
		}
	}
	tr := open(t, filepath.Join(testenv.Shared(t), "traces", pluginTrace))
	rows, _ := table.KernelView(tr, nil)
	ours := map[string]table.KernelRow{}
	for _, r := range rows {
		if r.Kind == trace.KindKernel {
			ours[r.Name] = r
		}
	}
	if len(kv.Data.Rows) < 50 || len(kv.Data.Rows) != len(ours) {
		t.Fatalf("plugin lists %d kernels, we have %d", len(kv.Data.Rows), len(ours))
	}
	tcYes := 0
	for _, p := range kv.Data.Rows {
		name := p[col["Name"]].(string)
		r, ok := ours[name]
		if !ok {
			t.Errorf("plugin kernel %q: no row of ours", name)
			continue
		}
		tc := p[col["Tensor Cores Used"]].(string) == "Yes"
		if tc {
			tcYes++
		}
		calls := int64(p[col["Calls"]].(float64))
		blocks, occ := p[col["Mean Blocks Per SM"]].(float64), p[col["Mean Est. Achieved Occupancy (%)"]].(float64)
		if r.TensorCores != tc || r.Count != calls || !r.HasBlocksPerSM || !near(r.BlocksPerSM, blocks) || !r.HasOccupancy || !near(r.OccupancyPct, occ) {
			t.Errorf("%q: ours tc %v calls %d blocks %.4f occ %.4f; plugin tc %v calls %d blocks %.2f occ %.2f",
				name, r.TensorCores, r.Count, r.BlocksPerSM, r.OccupancyPct, tc, calls, blocks, occ)
		}
	}
	t.Logf("%d kernels match the plugin's Kernel view (%d use Tensor Cores)", len(kv.Data.Rows), tcYes)
}

// TestPluginOpEligibility: the op rule says Yes for exactly the ops the
// plugin's Operator view (line 3) marks tc_eligible.
func TestPluginOpEligibility(t *testing.T) {
	var ov struct {
		Data []struct {
			Name       string `json:"name"`
			TCEligible string `json:"tc_eligible"`
		} `json:"data"`
	}
	if err := json.Unmarshal(pluginLines(t)[2], &ov); err != nil {
		t.Fatal(err)
	}
	yes := 0
	for _, o := range ov.Data {
		if o.TCEligible == "Yes" {
			yes++
		}
		if kerneleff.TCEligibleOp(o.Name) != (o.TCEligible == "Yes") {
			t.Errorf("op %q: eligible %v, plugin %q", o.Name, kerneleff.TCEligibleOp(o.Name), o.TCEligible)
		}
	}
	if len(ov.Data) < 50 || yes == 0 {
		t.Fatalf("plugin op view: %d ops, %d eligible", len(ov.Data), yes)
	}
	t.Logf("%d ops, %d eligible, as the plugin says", len(ov.Data), yes)
}

// TestPluginGPUSummary: GPU utilization, est. SM efficiency and est.
// achieved occupancy of the one GPU equal the plugin's GPU Summary (line
// 1, printed with 2 decimals).
func TestPluginGPUSummary(t *testing.T) {
	var ov struct {
		GPU struct {
			Data []struct {
				Title string `json:"title"`
				Value string `json:"value"`
			} `json:"data"`
		} `json:"gpu_metrics"`
	}
	if err := json.Unmarshal(pluginLines(t)[0], &ov); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, d := range ov.GPU.Data {
		if v, err := strconv.ParseFloat(strings.TrimSuffix(d.Value, " %"), 64); err == nil && strings.HasSuffix(d.Value, "%") {
			want[d.Title] = v
		}
	}
	tr := open(t, filepath.Join(testenv.Shared(t), "traces", pluginTrace))
	w := gaps.EffWindow(tr, gaps.PluginSteps(tr, nil))
	devs := kerneleff.Devices(tr, w, nil)
	if w.Of != "steps" || len(devs) != 1 {
		t.Fatalf("window %+v, devices %+v", w, devs)
	}
	d := devs[0]
	t.Logf("device %d: window %d ns, utilization %.4f, SM efficiency %.4f, occupancy %.4f; plugin %v", d.Device, d.WindowNs, d.UtilizationPct, d.SMEfficiencyPct, d.OccupancyPct, want)
	for title, got := range map[string]float64{"GPU Utilization": d.UtilizationPct, "Est. SM Efficiency": d.SMEfficiencyPct, "Est. Achieved Occupancy": d.OccupancyPct} {
		p, ok := want[title]
		if !ok {
			t.Fatalf("plugin GPU Summary has no %q: %+v", title, ov.GPU.Data)
		}
		if !near(got, p) {
			t.Errorf("%s: %.4f, plugin %.2f", title, got, p)
		}
	}
	if !d.HasSMEfficiency || !d.HasOccupancy {
		t.Errorf("device %+v lacks a metric", d)
	}
}

// TestTensorCoresRule: kernel names with one of the plugin's fragments
// use Tensor Cores, others do not (the resnet50 oracle has none that do).
func TestTensorCoresRule(t *testing.T) {
	for name, want := range map[string]bool{
		"volta_h884gemm_64x64_ldg8_nn":                          true,
		"sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128": true,
		"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn":       true,
		"volta_sgemm_64x64_nt":                                  false,
		"void at::native::vectorized_elementwise_kernel<4>":     false,
	} {
		if kerneleff.TensorCoresUsed(name) != want {
			t.Errorf("%q: Tensor Cores %v, want %v", name, !want, want)
		}
	}
}
