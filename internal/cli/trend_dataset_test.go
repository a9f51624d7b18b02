package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/dataset"
	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/hostile"
	"github.com/tracetab/tracetab/internal/testenv"
)

// trendJSON runs trend --format json with the args; it must exit 0.
func trendJSON(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, append([]string{"trend", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("trend %v: exit %d: %s", args, code, stderr)
	}
	return out
}

// TestTrendDatasetEqualsTraces: trend --dataset over the exports gives
// byte for byte the JSON trend gives over the traces exported (export
// keeps each path as given, so the paths agree too): on 12 generated
// nights with the GEMM 30% slower from night 8, one export per night
// under one tree, by wall-clock start and by name; and on five shared
// traces (two DLRM ranks, HTA's diff pair and NCCL trace) in one export,
// by name, every one of them in the series or left out. The trend rows'
// step_time and start are checked against the raw JSON (checkTrendRows).
func TestTrendDatasetEqualsTraces(t *testing.T) {
	nights := writeNights(t, 12, func(k int) bool { return k >= 7 }, nil)
	paths, _ := filepath.Glob(filepath.Join(nights, "*.json"))
	tree := t.TempDir()
	for k, p := range paths {
		runOK(t, "export", p, "--to", filepath.Join(tree, fmt.Sprintf("night%02d", k)))
	}
	for _, order := range []string{"time", "name"} {
		want := trendJSON(t, append([]string{"--order", order}, paths...)...)
		got := trendJSON(t, "--dataset", tree, "--order", order)
		if got != want {
			t.Errorf("--order %s: trend --dataset:\n%s\ntrend over the traces:\n%s", order, got, want)
		}
		if order == "time" && !strings.Contains(want, `"change_points": [`) {
			t.Errorf("no change point field in:\n%s", want)
		}
	}
	if n := checkTrendRows(t, tree, paths); n != len(paths) {
		t.Errorf("checked %d generated nights against the raw JSON, want %d", n, len(paths))
	}
	var d trendDoc
	json.Unmarshal([]byte(trendJSON(t, "--dataset", tree)), &d)
	found := false
	for _, m := range d.Metrics {
		if m.Name == "step_time" && len(m.Values) == 12 && len(m.ChangePoints) > 0 && m.ChangePoints[0].Index == 7 {
			found = true
		}
	}
	if !found {
		t.Errorf("the planted slowdown at night 8 is not step_time's change point: %+v", d.Metrics)
	}

	shared := filepath.Join(testenv.Shared(t), "traces")
	var traces []string
	for _, n := range []string{
		"param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz",
		"param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz",
		"HTA__trace_diff__control__control.json.gz",
		"HTA__trace_diff__test__test.json.gz",
		"HTA__nccl_parser_config__nccl_data.json.gz",
	} {
		p := filepath.Join(shared, n)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("shared trace %s: %v", n, err)
		}
		traces = append(traces, p)
	}
	out := filepath.Join(t.TempDir(), "shared")
	runOK(t, append(append([]string{"export"}, traces...), "--to", out)...)
	want := trendJSON(t, append([]string{"--order", "name"}, traces...)...)
	got := trendJSON(t, "--dataset", out, "--order", "name")
	if got != want {
		t.Errorf("shared traces: trend --dataset:\n%s\ntrend over the traces:\n%s", got, want)
	}
	if n := checkTrendRows(t, out, traces); n < 1 {
		t.Errorf("checked %d shared traces against the raw JSON, want at least 1", n)
	} else {
		t.Logf("%d shared traces checked against the raw JSON", n)
	}
	var s struct {
		Runs    []any `json:"runs"`
		LeftOut []any `json:"left_out"`
	}
	json.Unmarshal([]byte(want), &s)
	if len(s.Runs)+len(s.LeftOut) != len(traces) {
		t.Errorf("shared traces: %d runs and %d left out, want %d in all", len(s.Runs), len(s.LeftOut), len(traces))
	}
}

// TestTrendDatasetHostile: a damaged trend dataset gives one line naming
// the file (or the tree) and the documented exit code, as ranks --dataset
// does: 3 for a truncated, foreign or other-version file, 2 for a tree
// with no trend dataset (an export of an older tracetab).
func TestTrendDatasetHostile(t *testing.T) {
	nights := writeNights(t, 2, nil, nil)
	paths, _ := filepath.Glob(filepath.Join(nights, "*.json"))
	good := filepath.Join(t.TempDir(), "good")
	runOK(t, append(append([]string{"export"}, paths...), "--to", good)...)
	var file string
	filepath.Walk(filepath.Join(good, export.DatasetTrend), func(p string, info os.FileInfo, err error) error {
		if err == nil && file == "" && strings.HasSuffix(p, ".parquet") {
			file = p
		}
		return nil
	})
	rel, _ := filepath.Rel(good, file)
	gb, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var foreign bytes.Buffer
	if err := hostile.Foreign(&foreign, 100); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, file string
		data       []byte // nil removes it
		code       int
	}{
		{"truncated", rel, hostile.Truncated(gb, len(gb)/2), ExitUnreadable},
		{"corrupt-footer", rel, hostile.CorruptFooter(gb), ExitUnreadable},
		{"foreign", filepath.Join(export.DatasetTrend, "foreign.parquet"), foreign.Bytes(), ExitUnreadable},
		{"other-version", rel, hostile.Restamped(gb, export.Schema, "tracetab.parquet/1"), ExitUnreadable},
		{"no-trend", export.DatasetTrend, nil, ExitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := filepath.Join(t.TempDir(), "copy")
			if err := os.CopyFS(cp, os.DirFS(good)); err != nil {
				t.Fatal(err)
			}
			named := filepath.Join(cp, c.file)
			if c.data == nil {
				os.RemoveAll(named)
				named = cp
			} else if err := os.WriteFile(named, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r := runChild(t, time.Minute, "", "trend", "--dataset", cp, "--format", "json")
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if r.timedOut || r.code != c.code || len(lines) != 1 || !strings.Contains(lines[0], named) || len(r.stdout) > 0 {
				t.Fatalf("exit %d (want %d), stdout %d bytes, stderr:\n%s\nwant one line naming %s", r.code, c.code, len(r.stdout), r.stderr, named)
			}
		})
	}
}

// checkTrendRows: each exported trend row's step_time is the median of
// the trace's ProfilerStep#N durations as the raw JSON has them (traces
// with an odd number of steps, where the median is one step), and its
// wall-clock start the raw origin (baseTimeNanoseconds plus the Trace
// span's ts). It returns how many traces it checked.
func checkTrendRows(t *testing.T, dir string, traces []string) int {
	t.Helper()
	files, err := dataset.Files(dir, export.DatasetTrend)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]export.TrendRow{}
	for _, p := range files[export.DatasetTrend] {
		rows, err := dataset.ReadRows[export.TrendRow](p, export.DatasetTrend)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			byPath[r.Path] = r
		}
	}
	checked := 0
	for _, path := range traces {
		raw := readRawRank(t, path)
		row, ok := byPath[path]
		if !ok {
			t.Fatalf("%s: no trend row", path)
		}
		if len(raw.steps)%2 == 0 {
			continue
		}
		var durs []int64
		for _, s := range raw.steps {
			durs = append(durs, s[2]-s[1])
		}
		slices.Sort(durs)
		i := slices.Index(row.Metric, "step_time")
		if i < 0 || row.Value[i] != float64(durs[len(durs)/2]) {
			t.Errorf("%s: trend row %v %v; raw median step %d ns", path, row.Metric, row.Value, durs[len(durs)/2])
		}
		if raw.base != 0 && (!row.WallClock || row.StartNs != raw.origin) {
			t.Errorf("%s: start %d (wall clock %v); raw origin %d", path, row.StartNs, row.WallClock, raw.origin)
		}
		checked++
	}
	return checked
}
