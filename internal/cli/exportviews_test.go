package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// exportViewTraces are shared traces with module frames (TraceLens'),
// with and without the kernels' efficiency args (MI300: none), with
// several streams' launch queues, and one without device work.
var exportViewTraces = []string{
	"TraceLens__b200__eager_trace.json.gz",
	"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz",
	"TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",
	"TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz",
	"HTA__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	"HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz",
	"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	"param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz",
	"HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
}

// traceIDOf is the export id of the file at path.
func traceIDOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return export.TraceID(hex.EncodeToString(sum[:]))
}

// viewRows reads one trace's file of a dataset (export's default layout:
// DATASET/trace=ID/ID.parquet).
func viewRows[T any](t *testing.T, dir, ds, id string) []T {
	t.Helper()
	rows, err := parquet.ReadFile[T](filepath.Join(dir, ds, "trace="+id, id+".parquet"))
	if err != nil {
		t.Fatalf("%s of %s: %v", ds, id, err)
	}
	return rows
}

// viewJSON runs a command with --format json; exit 2 (the view has
// nothing to show) gives ok false.
func viewJSON(t *testing.T, v any, args ...string) bool {
	t.Helper()
	out, stderr, code := run(t, append(args, "--format", "json")...)
	if code == ExitUsage {
		return false
	}
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return true
}

func eq[T comparable](a, b *T) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestExportViewsEqualJSON: the modules, categories, sequences and queues
// datasets and the kernels' efficiency columns hold, row for row, what
// table --by module/category/sequence/kernel and gaps give in JSON over
// the same trace (9 shared traces and a generated one with module
// frames); a trace a view refuses (exit 2) has no rows in its dataset.
func TestExportViewsEqualJSON(t *testing.T) {
	shared := filepath.Join(testenv.Shared(t), "traces")
	var paths []string
	for _, n := range exportViewTraces {
		paths = append(paths, filepath.Join(shared, n))
	}
	// and a generated trace with module frames on every step (tracegen -modules)
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 5, Layers: 3, Modules: true}); err != nil {
		t.Fatal(err)
	}
	g := filepath.Join(t.TempDir(), "modules.json")
	if err := os.WriteFile(g, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, g)
	dir := t.TempDir()
	runOK(t, append(append([]string{"export"}, paths...), "--to", dir)...)
	var nMod, nCat, nSeq, nQueue, nEff, nKern int
	for _, p := range paths {
		id := traceIDOf(t, p)
		name := filepath.Base(p)

		var mod struct {
			Modules []struct {
				Name, Path    string
				Parent        *string
				Depth         int32
				Occurrences   int64
				HostTotalNs   int64  `json:"host_total_ns"`
				HostSelfNs    int64  `json:"host_self_ns"`
				DeviceTotalNs *int64 `json:"device_total_ns"`
				DeviceSelfNs  *int64 `json:"device_self_ns"`
				DeviceOps     int64  `json:"device_ops"`
			}
		}
		mrows := viewRows[export.ModuleRow](t, dir, export.DatasetModules, id)
		if viewJSON(t, &mod, "table", "--by", "module", "--limit", "-1", p) {
			if len(mrows) != len(mod.Modules) {
				t.Fatalf("%s: %d module rows, table --by module lists %d", name, len(mrows), len(mod.Modules))
			}
			for i, m := range mod.Modules {
				r := mrows[i]
				if r.Node != int32(i) || r.Name != m.Name || r.Path != m.Path || !eq(r.Parent, m.Parent) || r.Depth != m.Depth ||
					r.Occurrences != m.Occurrences || r.HostTotalNs != m.HostTotalNs || r.HostSelfNs != m.HostSelfNs ||
					!eq(r.DeviceTotalNs, m.DeviceTotalNs) || !eq(r.DeviceSelfNs, m.DeviceSelfNs) || r.DeviceOps != m.DeviceOps {
					t.Errorf("%s: module row %d %+v, JSON %+v", name, i, r, m)
				}
				nMod++
			}
		} else if len(mrows) != 0 {
			t.Errorf("%s: table --by module refuses it, export wrote %d module rows", name, len(mrows))
		}

		type cat struct {
			Category string
			DeviceNs int64 `json:"device_ns"`
			Pct      *float64
			Kernels  int64
		}
		var cd struct {
			Categories []cat
			Steps      []struct {
				Step       int64
				Categories []cat
			}
		}
		crows := viewRows[export.CategoryRow](t, dir, export.DatasetCategories, id)
		if viewJSON(t, &cd, "table", "--by", "category", p) {
			want := []export.CategoryRow{}
			add := func(step *int64, cs []cat) {
				for _, c := range cs {
					want = append(want, export.CategoryRow{TraceID: id, Step: step, Category: c.Category, DeviceNs: c.DeviceNs, Pct: c.Pct, Kernels: c.Kernels})
				}
			}
			add(nil, cd.Categories)
			for _, s := range cd.Steps {
				add(&s.Step, s.Categories)
			}
			if len(crows) != len(want) {
				t.Fatalf("%s: %d category rows, table --by category gives %d", name, len(crows), len(want))
			}
			for i := range want {
				r, w := crows[i], want[i]
				if r.Category != w.Category || !eq(r.Step, w.Step) || r.DeviceNs != w.DeviceNs || !eq(r.Pct, w.Pct) || r.Kernels != w.Kernels {
					t.Errorf("%s: category row %d %+v, JSON %+v", name, i, r, w)
				}
				nCat++
			}
		} else if len(crows) != 0 {
			t.Errorf("%s: table --by category refuses it, export wrote %d category rows", name, len(crows))
		}

		var sd struct {
			Sequences []struct {
				Rank     int32
				Op       string
				Device   int32
				Stream   int64
				Kernels  []string
				Ops      int32
				Count    int64
				DeviceNs int64 `json:"device_ns"`
				MeanNs   int64 `json:"mean_ns"`
				HostNs   int64 `json:"host_ns"`
			}
		}
		srows := viewRows[export.SequenceRow](t, dir, export.DatasetSequences, id)
		if viewJSON(t, &sd, "table", "--by", "sequence", p) {
			if len(srows) != len(sd.Sequences) {
				t.Fatalf("%s: %d sequence rows, table --by sequence lists %d", name, len(srows), len(sd.Sequences))
			}
			for i, s := range sd.Sequences {
				r := srows[i]
				if r.Seq != s.Rank || r.Op != s.Op || r.Device != s.Device || r.Stream != s.Stream || !reflect.DeepEqual(r.Kernels, s.Kernels) ||
					r.Ops != s.Ops || r.Count != s.Count || r.DeviceNs != s.DeviceNs || r.MeanNs != s.MeanNs || r.HostNs != s.HostNs {
					t.Errorf("%s: sequence row %d %+v, JSON %+v", name, i, r, s)
				}
				nSeq++
			}
		} else if len(srows) != 0 {
			t.Errorf("%s: table --by sequence refuses it, export wrote %d sequence rows", name, len(srows))
		}

		var kd struct {
			Kernels []struct {
				Name          string
				Calls         int64
				TotalNs       int64    `json:"total_ns"`
				TensorCores   *bool    `json:"tensor_cores_used"`
				BlocksPerSM   *float64 `json:"mean_blocks_per_sm"`
				Occupancy     *float64 `json:"mean_est_achieved_occupancy_pct"`
				LaunchOpCalls *int64   `json:"launch_op_calls"`
				TCEligible    *int64   `json:"tc_eligible_op_calls"`
			}
		}
		var whole []export.KernelRow
		for _, r := range viewRows[export.KernelRow](t, dir, export.DatasetKernels, id) {
			if r.Step == nil {
				whole = append(whole, r)
			}
		}
		if viewJSON(t, &kd, "table", "--by", "kernel", "--limit", "-1", p) {
			if len(whole) != len(kd.Kernels) {
				t.Fatalf("%s: %d kernel rows of the whole trace, table --by kernel lists %d", name, len(whole), len(kd.Kernels))
			}
			for i, k := range kd.Kernels {
				r := whole[i]
				if r.Name != k.Name || r.Calls != k.Calls || r.TotalNs != k.TotalNs || !eq(r.TensorCores, k.TensorCores) ||
					!eq(r.MeanBlocksPerSM, k.BlocksPerSM) || !eq(r.MeanOccupancyPct, k.Occupancy) ||
					!eq(r.LaunchOpCalls, k.LaunchOpCalls) || !eq(r.TCEligibleOpCalls, k.TCEligible) {
					t.Errorf("%s: kernel row %d %+v, JSON %+v", name, i, r, k)
				}
				nKern++
				if r.MeanBlocksPerSM != nil {
					nEff++
				}
			}
		}

		var gd struct {
			Streams []struct {
				Device int32
				Stream *int64
				Queue  *struct {
					Ops         int64
					StartNs     int64 `json:"start_ns"`
					EndNs       int64 `json:"end_ns"`
					MaxLen      int64 `json:"max_length_ops"`
					MedianLen   int64 `json:"median_length_ops"`
					MinLen      int64 `json:"min_length_ops"`
					TimeAtMaxNs int64 `json:"time_at_max_ns"`
					MaxAtNs     int64 `json:"max_at_ns"`
					Limit       int64 `json:"limit_ops"`
					FullNs      int64 `json:"full_ns"`
					EarlyOps    int64 `json:"early_ops"`
				}
			}
		}
		qrows := viewRows[export.QueueRow](t, dir, export.DatasetQueues, id)
		if viewJSON(t, &gd, "gaps", p) {
			k := 0
			for _, s := range gd.Streams {
				if s.Queue == nil {
					continue
				}
				if k >= len(qrows) {
					t.Fatalf("%s: %d queue rows, gaps measures more queues", name, len(qrows))
				}
				r, q := qrows[k], s.Queue
				got := []int64{int64(r.Device), r.Stream, r.Ops, r.StartNs, r.EndNs, r.MaxLen, r.MedianLen, r.MinLen, r.TimeAtMaxNs, r.MaxAtNs, r.Limit, r.FullNs, r.EarlyOps}
				want := []int64{int64(s.Device), -1, q.Ops, q.StartNs, q.EndNs, q.MaxLen, q.MedianLen, q.MinLen, q.TimeAtMaxNs, q.MaxAtNs, q.Limit, q.FullNs, q.EarlyOps}
				if s.Stream != nil {
					want[1] = *s.Stream
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: queue row %d %v, gaps JSON %v", name, k, got, want)
				}
				k++
				nQueue++
			}
			if k != len(qrows) {
				t.Errorf("%s: %d queue rows, gaps measures %d queues", name, len(qrows), k)
			}
		}
	}
	t.Logf("compared %d module, %d category, %d sequence, %d kernel (%d with blocks per SM) and %d queue rows", nMod, nCat, nSeq, nKern, nEff, nQueue)
	for what, n := range map[string]int{"module": nMod, "category": nCat, "sequence": nSeq, "kernel with efficiency": nEff, "queue": nQueue} {
		if n < 10 {
			t.Errorf("only %d %s rows compared: the traces chosen do not exercise the dataset", n, what)
		}
	}
}
