package cli

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

const peerTol = 0.01 // us: the peers sum float64 durations rebuilt from ~1e12 us timestamps

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q", s)
	}
	return v
}

// runJSON runs a command that must succeed and decodes its JSON into v.
func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, stderr, code := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatal(err)
	}
}

func tableJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var m map[string]any
	runJSON(t, &m, args...)
	return m
}

// TestTraceLensSelfCUDA: Self CUDA per op equals TraceLens's
// total_direct_kernel_time_sum (the GPU time of kernels whose launch call
// lies directly inside the op: torch's definition too).
func TestTraceLensSelfCUDA(t *testing.T) {
	shared := testenv.Shared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "traces", "oracles", "tracelens", "*"))
	checked := 0
	for _, d := range dirs {
		ops := filepath.Join(d, "ops_summary.csv")
		if _, err := os.Stat(ops); err != nil {
			continue
		}
		name := filepath.Base(d)
		t.Run(name, func(t *testing.T) {
			m := tableJSON(t, "table", "--format", "json", "--limit", "-1", filepath.Join(shared, "traces", "TraceLens__"+name+".json.gz"))
			self := map[string]float64{}
			for _, r := range m["rows"].([]any) {
				row := r.(map[string]any)
				if row["device_op"] == false {
					self[row["name"].(string)] += row["self_cuda_ns"].(float64) / 1e3
				}
			}
			for _, want := range readCSV(t, ops) {
				w := num(t, want["total_direct_kernel_time_sum"])
				if g := self[want["name"]]; math.Abs(g-w) > peerTol {
					t.Errorf("%s: Self CUDA %.4f us, TraceLens %.4f us", want["name"], g, w)
				}
				checked++
			}
		})
	}
	if checked == 0 {
		t.Fatal("no TraceLens ops checked")
	}
}

// TestTraceLensKernels: the kernel view equals kernel_summary.csv summed
// per kernel name (TraceLens splits rows by parent op and stream) for
// count, sum, min and max. tracetab also lists memcpy and memset rows,
// which TraceLens keeps out of this file.
func TestTraceLensKernels(t *testing.T) {
	shared := testenv.Shared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "traces", "oracles", "tracelens", "*"))
	if len(dirs) == 0 {
		t.Fatal("no TraceLens oracles")
	}
	for _, d := range dirs {
		name := filepath.Base(d)
		t.Run(name, func(t *testing.T) {
			m := tableJSON(t, "table", "--by", "kernel", "--format", "json", "--limit", "-1", filepath.Join(shared, "traces", "TraceLens__"+name+".json.gz"))
			ours := map[string]map[string]any{}
			for _, r := range m["kernels"].([]any) {
				row := r.(map[string]any)
				ours[row["name"].(string)] = row
			}
			type agg struct{ sum, min, max, count float64 }
			want := map[string]*agg{}
			for _, r := range readCSV(t, filepath.Join(d, "kernel_summary.csv")) {
				a := want[r["Kernel name"]]
				if a == nil {
					a = &agg{min: math.Inf(1), max: math.Inf(-1)}
					want[r["Kernel name"]] = a
				}
				a.sum += num(t, r["Kernel duration (µs)_sum"])
				a.count += num(t, r["Kernel duration (µs)_count"])
				a.min = math.Min(a.min, num(t, r["Kernel duration (µs)_min"]))
				a.max = math.Max(a.max, num(t, r["Kernel duration (µs)_max"]))
			}
			for k, w := range want {
				g := ours[k]
				if g == nil {
					t.Errorf("kernel %q missing", k)
					continue
				}
				for _, c := range []struct {
					what      string
					got, want float64
				}{{"total", g["total_ns"].(float64) / 1e3, w.sum}, {"count", g["calls"].(float64), w.count},
					{"min", g["min_ns"].(float64) / 1e3, w.min}, {"max", g["max_ns"].(float64) / 1e3, w.max}} {
					if math.Abs(c.got-c.want) > peerTol {
						t.Errorf("%s %s: got %.4f, TraceLens %.4f", k, c.what, c.got, c.want)
					}
				}
			}
		})
	}
}

// TestTBPluginOperators: the 2021 resnet50 trace matches the TensorBoard
// plugin's operator view: calls, host self/total and device self/total per
// op, under the 1.9 rules (the torch that wrote it) and the newest ones.
func TestTBPluginOperators(t *testing.T) {
	shared := testenv.Shared(t)
	raw, err := os.ReadFile(filepath.Join(shared, "traces", "oracles", "tb_plugin", "resnet50_num_workers_0.result_check.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var view struct {
		Data []struct {
			Name        string  `json:"name"`
			Calls       float64 `json:"calls"`
			DevSelf     float64 `json:"device_self_duration"`
			DevTotal    float64 `json:"device_total_duration"`
			HostSelf    float64 `json:"host_self_duration"`
			HostTotal   float64 `json:"host_total_duration"`
			HasCallStck bool    `json:"has_call_stack"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(lines[2]), &view); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(shared, "traces", "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz")
	for _, torch := range []string{"1.9", "2.14"} {
		t.Run(torch, func(t *testing.T) {
			m := tableJSON(t, "table", "--torch", torch, "--format", "json", "--limit", "-1", trace)
			ours := map[string]map[string]any{}
			for _, r := range m["rows"].([]any) {
				row := r.(map[string]any)
				if row["device_op"] == false {
					ours[row["name"].(string)] = row
				}
			}
			for _, w := range view.Data {
				g := ours[w.Name]
				if g == nil {
					t.Errorf("op %q missing", w.Name)
					continue
				}
				for _, c := range []struct {
					what      string
					got, want float64
				}{{"calls", g["calls"].(float64), w.Calls}, {"device self", g["self_cuda_ns"].(float64) / 1e3, w.DevSelf},
					{"device total", g["cuda_total_ns"].(float64) / 1e3, w.DevTotal}, {"host self", g["self_cpu_ns"].(float64) / 1e3, w.HostSelf},
					{"host total", g["cpu_total_ns"].(float64) / 1e3, w.HostTotal}} {
					if math.Abs(c.got-c.want) > peerTol {
						t.Errorf("%s %s: got %.3f, plugin %.3f", w.Name, c.what, c.got, c.want)
					}
				}
			}
			if len(view.Data) < 50 {
				t.Fatalf("only %d plugin rows read", len(view.Data))
			}
		})
	}
}
