package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/dataset"
	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// withoutPaths is ranks' JSON with the file paths (the "files" list and
// each rank's "file") taken out.
func withoutPaths(t *testing.T, out string) string {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	delete(d, "files")
	for _, r := range d["ranks"].([]any) {
		delete(r.(map[string]any), "file")
	}
	b, _ := json.MarshalIndent(d, "", " ")
	return string(b)
}

// datasetRanksJSON runs ranks --format json with the args; it must exit 0.
func datasetRanksJSON(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, append([]string{"ranks", "--format", "json", "--collectives"}, args...)...)
	if code != 0 {
		t.Fatalf("ranks %v: exit %d: %s", args, code, stderr)
	}
	return out
}

// checkCollectiveRows: the collectives rows of each exported trace are
// its communication kernels as the raw JSON has them: names, starts and
// durations from the trace's origin, launch calls, steps, in start order.
func checkCollectiveRows(t *testing.T, dir string, traces []string) int {
	t.Helper()
	files, err := dataset.Files(dir, export.DatasetCollectives, export.DatasetRanks)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]export.CollectiveRow{}
	ids := map[string]string{}
	for _, p := range files[export.DatasetRanks] {
		rows, err := dataset.ReadRows[export.RankRow](p, export.DatasetRanks)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			ids[r.TraceID] = r.Path
		}
	}
	for _, p := range files[export.DatasetCollectives] {
		rows, err := dataset.ReadRows[export.CollectiveRow](p, export.DatasetCollectives)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			byPath[ids[r.TraceID]] = append(byPath[ids[r.TraceID]], r)
		}
	}
	checked := 0
	for _, path := range traces {
		raw := readRawRank(t, path)
		var want []rawKernel
		for _, k := range raw.kernels {
			if k.comm {
				want = append(want, k)
			}
		}
		// raw kernels are in start order (stable), as ranks keeps them
		got := byPath[path]
		if len(got) != len(want) {
			t.Fatalf("%s: %d collectives rows, raw %d communication kernels", path, len(got), len(want))
		}
		for k, w := range want {
			g := got[k]
			launch := int64(-1)
			if g.LaunchNs != nil {
				launch = *g.LaunchNs + raw.origin
			}
			step := int64(-1)
			if g.Step != nil {
				step = *g.Step
			}
			if g.Name != w.name || g.StartNs != w.start-raw.origin || g.DurNs != w.dur || g.EndNs != g.StartNs+w.dur ||
				launch != w.launch || step != w.step || g.Kernel != int64(k) {
				t.Errorf("%s: row %d %+v; raw %+v (origin %d)", path, k, g, w, raw.origin)
			}
			if (g.Rank == nil) != (raw.rank < 0) || (g.Rank != nil && *g.Rank != raw.rank) {
				t.Errorf("%s: row %d rank %v, raw %d", path, k, g.Rank, raw.rank)
			}
		}
		checked++
	}
	return checked
}

// TestRanksDatasetEqualsTraces: ranks --dataset over an export gives the
// JSON ranks gives over the traces exported, paths aside: on the two
// shared DLRM ranks, on HTA's one-rank NCCL trace, and on generated jobs
// (a straggler inside the step, one before it, process groups with seq,
// a balanced job), each exported whole and, for the generated jobs, one
// export per rank under one tree; and the collectives rows equal the raw
// communication kernels.
func TestRanksDatasetEqualsTraces(t *testing.T) {
	type job struct {
		name   string
		traces []string
		split  bool // one export per trace, the tree of them read at once
	}
	var jobs []job
	shared := filepath.Join(testenv.Shared(t), "traces")
	jobs = append(jobs, job{name: "dlrm", traces: []string{
		filepath.Join(shared, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz"),
		filepath.Join(shared, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz")}},
		job{name: "hta-nccl", traces: []string{filepath.Join(shared, "HTA__nccl_parser_config__nccl_data.json.gz")}})
	gdir := t.TempDir()
	for _, c := range []struct {
		name string
		cfg  gen.Config
	}{
		{"straggler", gen.Config{Steps: 4, World: 4, Straggler: 2, StragglerDelay: 3_000_000}},
		{"late-before-step", gen.Config{Steps: 4, World: 4, Straggler: 1, StragglerDelay: 3_000_000, StragglerBeforeStep: true}},
		{"pg-seq", gen.Config{Steps: 3, World: 4, Straggler: 3, StragglerDelay: 1_000_000, PGSeq: true}},
		{"balanced", gen.Config{Steps: 3, World: 3}},
	} {
		d := filepath.Join(gdir, c.name)
		os.MkdirAll(d, 0o755)
		paths := writeRanks(t, d, c.cfg, seq(c.cfg.World)...)
		jobs = append(jobs, job{name: c.name, traces: paths}, job{name: c.name + "-split", traces: paths, split: true})
	}
	checked := 0
	for _, j := range jobs {
		t.Run(j.name, func(t *testing.T) {
			out := t.TempDir()
			if j.split {
				for k, p := range j.traces {
					runOK(t, "export", p, "--to", filepath.Join(out, "node"+string(rune('a'+k))), "--partition", "rank,trace")
				}
			} else {
				runOK(t, append(append([]string{"export"}, j.traces...), "--to", out, "--partition", "date,trace")...)
			}
			want := withoutPaths(t, datasetRanksJSON(t, j.traces...))
			got := withoutPaths(t, datasetRanksJSON(t, "--dataset", out))
			if got != want {
				t.Fatalf("ranks --dataset differs from ranks over the traces:\n--- traces\n%s\n--- dataset\n%s", want, got)
			}
			if n := checkCollectiveRows(t, out, j.traces); n != len(j.traces) {
				t.Fatalf("checked %d traces' collectives rows of %d", n, len(j.traces))
			}
			checked++
		})
	}
	if checked != len(jobs) {
		t.Fatalf("checked %d jobs of %d", checked, len(jobs))
	}
}

// runOK runs tracetab; it must exit 0.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	return out
}
