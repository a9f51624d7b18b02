package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

func load(path string, bound int64) (*trace.Trace, error) {
	return parse.Open(path, parse.Options{MaxMemory: bound})
}

func sample() string { return filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json") }

func runExport(t *testing.T, dir string, paths []string, o Options) (*Summary, []*Result, error) {
	t.Helper()
	o.Dir, o.Load, o.Version = dir, load, "test"
	var res []*Result
	o.Done = func(r *Result) { res = append(res, r) }
	sum, err := Run(context.Background(), paths, o)
	return sum, res, err
}

// readRows reads every row of a dataset's files under dir.
func readRows[T any](t *testing.T, dir, dataset string) []T {
	t.Helper()
	var out []T
	filepath.Walk(filepath.Join(dir, dataset), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return nil
		}
		rows, err := parquet.ReadFile[T](p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, rows...)
		return nil
	})
	return out
}

// TestLayout: Hive directories in --partition's order, a missing value as
// Hive's null, one file per trace and dataset named by its id, the marker;
// a second export of the same file replaces its files (no new file, no
// doubled row); another partitioning of the same DIR is refused.
func TestLayout(t *testing.T) {
	dir := t.TempDir()
	sum, res, err := runExport(t, dir, []string{sample()}, Options{Partition: []string{"date", "rank", "trace"}})
	if err != nil || sum.Traces != 1 {
		t.Fatalf("export: %v, %+v", err, sum)
	}
	id := res[0].TraceID
	if len(id) != 16 {
		t.Fatalf("trace id %q", id)
	}
	for _, d := range Datasets {
		p := filepath.Join(dir, d, "date=2026-10-01", "rank="+HiveNull, "trace="+id, id+".parquet")
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, MarkerName)); err != nil {
		t.Error(err)
	}
	// the bytes reported are the Parquet files' sizes on disk (counted as
	// they are written through the buffer)
	var onDisk int64
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".parquet") {
			onDisk += info.Size()
		}
		return nil
	})
	if res[0].Bytes != onDisk || sum.Bytes != onDisk || onDisk == 0 {
		t.Errorf("reported %d bytes (summary %d), the files hold %d", res[0].Bytes, sum.Bytes, onDisk)
	}
	count := func() int {
		n := 0
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	before := count()
	if _, _, err := runExport(t, dir, []string{sample()}, Options{Partition: []string{"date", "rank", "trace"}}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != before {
		t.Errorf("a second export of the same file left %d files, the first %d", n, before)
	}
	if ev := readRows[EventRow](t, dir, DatasetEvents); len(ev) != 43 {
		t.Errorf("%d events rows after two exports of the sample (43 events)", len(ev))
	}
	_, _, err = runExport(t, dir, []string{sample()}, Options{Partition: []string{"trace"}})
	var le *LayoutError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "give --partition date,rank,trace") {
		t.Errorf("another partitioning of the same DIR: %v", err)
	}
}

// TestSkipAndStrict: a file that is no trace is reported and skipped, the
// others exported; with Strict the export stops with its error; the same
// file given twice is exported once.
func TestSkipAndStrict(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"traceEvents": [{"ph": "X", "ts": `), 0o644)
	sum, res, err := runExport(t, t.TempDir(), []string{bad, sample(), sample()}, Options{Jobs: 1})
	if err != nil || sum.Traces != 1 || sum.Failed != 1 || sum.Duplicates != 1 {
		t.Fatalf("export: %v, %+v", err, sum)
	}
	var pe *parse.Error
	if !errors.As(res[0].Err, &pe) || !strings.Contains(res[0].Err.Error(), "bad.json") {
		t.Errorf("the bad file's error: %v", res[0].Err)
	}
	_, _, err = runExport(t, t.TempDir(), []string{bad, sample()}, Options{Jobs: 1, Strict: true})
	if !errors.As(err, &pe) {
		t.Errorf("--strict: %v", err)
	}
}

// TestVariants: traces with no steps, no GPU, one event, zero durations
// and [memory] records export, each dataset with the rows the trace has.
func TestVariants(t *testing.T) {
	cases := map[string]struct {
		json                 string
		events, steps, mem   int
		opOf                 string // the op of the first memory record
		withDevice, withGaps bool
	}{
		"one event": {`{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]}`, 1, 0, 0, "", false, false},
		"zero durations, no steps": {`{"traceEvents": [
			{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 0, "args": {"External id": 1}},
			{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 0, "args": {"correlation": 7}},
			{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 0, "args": {"correlation": 7, "grid": [1, 2, 3], "block": [4, 5, 6]}}]}`, 3, 0, 0, "", true, false},
		"memory, a step, no GPU": {`{"traceEvents": [
			{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
			{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": "1", "ts": 10, "dur": 20},
			{"ph": "X", "cat": "cpu_op", "name": "aten::zeros", "pid": 1, "tid": 1, "ts": 5, "dur": 40},
			{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30, "args": {"Device Type": 0, "Device Id": -1, "Addr": 94, "Bytes": 64, "Total Allocated": 64, "Total Reserved": 128}},
			{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 200, "args": {"Device Type": 1, "Device Id": 0, "Bytes": -64, "Total Allocated": 0}}]}`, 3, 1, 2, "aten::empty", false, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.json")
			os.WriteFile(p, []byte(c.json), 0o644)
			dir := t.TempDir()
			sum, res, err := runExport(t, dir, []string{p}, Options{})
			if err != nil || sum.Traces != 1 {
				t.Fatalf("export: %v %+v %v", err, sum, res[0].Err)
			}
			ev := readRows[EventRow](t, dir, DatasetEvents)
			st := readRows[StepRow](t, dir, DatasetSteps)
			mem := readRows[MemoryRow](t, dir, DatasetMemory)
			tr := readRows[TraceRow](t, dir, DatasetTraces)
			if len(ev) != c.events || len(st) != c.steps || len(mem) != c.mem || len(tr) != 1 {
				t.Fatalf("rows: %d events, %d steps, %d memory, %d traces", len(ev), len(st), len(mem), len(tr))
			}
			if c.withDevice {
				k := ev[2]
				// a zero-length op contains nothing (half-open intervals):
				// the launch call has no op
				if k.Device == nil || *k.Device != 0 || k.Stream == nil || *k.Stream != 7 || k.LaunchCall == nil || *k.LaunchCall != 1 ||
					k.LaunchOp != nil || k.GridY == nil || *k.GridY != 2 || k.BlockZ == nil || *k.BlockZ != 6 {
					t.Errorf("the kernel's row: %+v", k)
				}
			}
			if c.mem > 0 {
				m := mem[0]
				if m.OpName == nil || *m.OpName != c.opOf || m.Addr == nil || *m.Addr != 94 || m.TotalReserved == nil || *m.TotalReserved != 128 ||
					m.Step == nil || *m.Step != 4 || m.DeviceKind != "cpu" {
					t.Errorf("the first record's row: %+v", m)
				}
				if m := mem[1]; m.Op != nil || m.Step != nil || m.DeviceKind != "cuda" || m.Addr != nil || m.TotalReserved != nil || m.Bytes != -64 {
					t.Errorf("the second record's row: %+v", m)
				}
			}
		})
	}
}

// TestEveryCauseHasAColumn: a cause gaps learns later must get its own
// gaps column, or the export would drop its time.
func TestEveryCauseHasAColumn(t *testing.T) {
	for _, c := range gaps.Causes() {
		f := gapShare[c]
		if f == nil {
			t.Fatalf("cause %q has no column in GapRow", c)
		}
		var r GapRow
		*f(&r) = 7
		for _, d := range gaps.Causes() {
			if d != c && gapShare[d] != nil && *gapShare[d](&r) == 7 {
				t.Errorf("causes %q and %q write the same column", c, d)
			}
		}
	}
}

// TestLanesSideBySide exports a generated trace with memory records and
// modules, whose lanes (the events then the side tables; the per-step
// tables then the trend and traces rows) read the trace at once, as the
// gaps report's two writers do (the gap rows; the steps' and queues'):
// the race stage of make test runs it under -race.
func TestLanesSideBySide(t *testing.T) {
	p := filepath.Join(t.TempDir(), "kineto.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	cfg := gen.BenchShapes()[1].Cfg
	cfg.Steps, cfg.Modules = 8, true
	if _, err := gen.Write(f, cfg); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sum, _, err := runExport(t, t.TempDir(), []string{p, sample()}, Options{Jobs: 2})
	if err != nil || sum.Traces != 2 {
		t.Fatalf("export: %v, %+v", err, sum)
	}
	for _, d := range []string{DatasetEvents, DatasetMemory, DatasetTrend, DatasetTraces, DatasetModules} {
		if sum.Rows[d] == 0 {
			t.Errorf("%s: no rows", d)
		}
	}
}
