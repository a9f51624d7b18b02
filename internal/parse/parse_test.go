package parse

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

func warnKeys(t *trace.Trace) map[string]int {
	m := map[string]int{}
	for _, w := range t.Warnings {
		m[w.Key] = w.Count
	}
	return m
}

// TestQuirks: odd-but-real traces load, with a warning for each quirk.
func TestQuirks(t *testing.T) {
	for _, c := range []struct {
		file   string
		events int
		warns  []string
		check  func(t *testing.T, tr *trace.Trace)
	}{
		{"control_na_tsstring.json", 3, []string{"control-char", "bare-word", "ts-string"}, func(t *testing.T, tr *trace.Trace) {
			// "ts":"11.500" is 11500 ns, exactly
			for i := 0; i < tr.NumEvents(); i++ {
				if tr.NameOf(i) == "cudaMemcpyAsync" && (tr.Ev(i).Start != 11500 || tr.Ev(i).Dur != 2250) {
					t.Errorf("ts string read as %d/%d", tr.Ev(i).Start, tr.Ev(i).Dur)
				}
			}
			if tr.Links().LinkedDeviceOps != 1 {
				t.Errorf("memcpy not linked to its runtime call")
			}
		}},
		{"dup_metadata_window_end.json", 2, []string{"dup-meta", "window-end"}, func(t *testing.T, tr *trace.Trace) {
			if tr.HasWindowEnd {
				t.Error("a Record Window End 25 h away must be ignored")
			}
		}},
		{"k1_bare_array.json", 5, nil, func(t *testing.T, tr *trace.Trace) {
			if tr.Container != "array" || tr.Era().Tag != "K1" {
				t.Errorf("container %s era %s", tr.Container, tr.Era().Tag)
			}
			l := tr.Links()
			if l.DeviceOps != 2 || l.LinkedDeviceOps != 1 {
				t.Errorf("device ops %d linked %d, want 2 and 1 (one launched before the window)", l.DeviceOps, l.LinkedDeviceOps)
			}
			for i := 0; i < tr.NumEvents(); i++ {
				if a := tr.AuxOf(i); a != nil && (a.Grid != [3]int32{4, 8, 32} || a.Regs != 80) {
					t.Errorf("launch params %+v", a)
				}
			}
		}},
		{"legacy_cpu_functions.json", 3, nil, func(t *testing.T, tr *trace.Trace) {
			if !tr.LegacyExport || tr.Ev(0).Kind != trace.KindCPUOp {
				t.Error("legacy export not recognised")
			}
		}},
		{"bigint_negative_ids.json", 2, []string{"neg-dur"}, func(t *testing.T, tr *trace.Trace) {
			tk := tr.Tracks[tr.Ev(0).Track]
			if tk.Pid.Int != -7 || tk.Tid.Int != -3 {
				t.Errorf("negative ids read as %+v", tk)
			}
			if tr.Ev(1).Dur != 0 {
				t.Error("negative dur not clamped")
			}
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			tr, err := Open(filepath.Join("..", "..", "testdata", "quirks", c.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tr.NumEvents() != c.events {
				t.Errorf("%d events, want %d", tr.NumEvents(), c.events)
			}
			w := warnKeys(tr)
			for _, k := range c.warns {
				if w[k] == 0 {
					t.Errorf("no %q warning; got %v", k, tr.Warnings)
				}
			}
			if len(c.warns) == 0 && len(tr.Warnings) > 0 {
				t.Errorf("unexpected warnings %v", tr.Warnings)
			}
			c.check(t, tr)
		})
	}
}

// TestTruncated: a cut file fails with its offset, or loads what was read
// when the user allows it.
func TestTruncated(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "quirks", "truncated.json")
	_, err := Open(path, Options{})
	var pe *Error
	if !errors.As(err, &pe) || !pe.Truncated || pe.Offset != 3000 {
		t.Fatalf("want a truncation error at byte 3000, got %v", err)
	}
	tr, err := Open(path, Options{AllowTruncated: true})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Truncated || tr.NumEvents() == 0 || warnKeys(tr)["truncated"] == 0 {
		t.Fatalf("truncated load: %v events, warnings %v", tr.NumEvents(), tr.Warnings)
	}
}

// TestBadInput: never a panic, always an *Error naming the file and offset.
func TestBadInput(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1}]}`))
	zw.Close()
	corrupt := append([]byte{}, gz.Bytes()...)
	corrupt[len(corrupt)/2] ^= 0xff
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty", "", "empty file"},
		{"space", "  \n", "only white space"},
		{"not json", "hello", "not JSON"},
		{"bad json", `{"traceEvents": [{"ph": "X",, }]}`, "expected a string"},
		{"no traceEvents", `{"schema": "1.0.1", "nodes": []}`, "execution trace"},
		{"array of arrays", `[[-1, 1, 37888, 7]]`, "not a Chrome trace"},
		{"no ph", `[{"a": 1}]`, "\"ph\""},
		{"trailing junk", `{"traceEvents": []} x`, "after the end"},
		{"unclosed string", `{"traceEvents": [{"name": "abc`, "truncated"},
		{"mismatch", `{"traceEvents": [{"args": {"a": [1}}]}`, "mismatched"},
		{"corrupt gzip", string(corrupt), "gzip"},
		{"gzip header only", string(gz.Bytes()[:5]), "gzip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), "bad.json", Options{})
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("want *Error, got %v", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "bad.json: ") || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Fatalf("message %q: want one line naming the file and %q", msg, c.want)
			}
		})
	}
}

// TestParallelEqualsSequential cuts a generated trace into many small
// segments (some cuts land inside strings and args on purpose) and checks
// that the parallel reading equals the sequential one, event for event.
func TestParallelEqualsSequential(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{Steps: 30, Layers: 3}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	seq, err := Open(path, Options{Sequential: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func(a, b int64) { parallelMin, segmentSize = a, b }(parallelMin, segmentSize)
	for _, seg := range []int64{997, 4093, 65536} {
		parallelMin, segmentSize = 1, seg
		par, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		equalTraces(t, fmt.Sprintf("segment %d", seg), seq, par)
		if par.NumEvents() != seq.NumEvents() || len(par.Flows) != len(seq.Flows) || par.LaunchFlows != seq.LaunchFlows {
			t.Fatalf("segment %d: %d events %d flows, sequential %d %d", seg, par.NumEvents(), len(par.Flows), seq.NumEvents(), len(seq.Flows))
		}
		for i := 0; i < seq.NumEvents(); i++ {
			a, b := seq.Ev(i), par.Ev(i)
			if a.Start != b.Start || a.Dur != b.Dur || seq.NameOf(i) != par.NameOf(i) || seq.CorrOf(a) != par.CorrOf(b) || seq.ExtIDOf(a) != par.ExtIDOf(b) ||
				seq.Tracks[a.Track].Tid != par.Tracks[b.Track].Tid || a.Kind != b.Kind {
				t.Fatalf("segment %d: event %d differs: %+v vs %+v", seg, i, a, b)
			}
			xa, xb := seq.ExtraOf(i), par.ExtraOf(i)
			if (xa == nil) != (xb == nil) || xa != nil && seq.Str(xa.InputDims) != par.Str(xb.InputDims) {
				t.Fatalf("segment %d: event %d extras differ", seg, i)
			}
		}
		if par.BytesRead != seq.BytesRead || par.Meta["traceName"] != seq.Meta["traceName"] {
			t.Fatalf("segment %d: tail of the object not read the same", seg)
		}
	}
}

// independentCounts counts X events per category with encoding/json.
func independentCounts(t *testing.T, r io.Reader) map[string]int {
	t.Helper()
	raw, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	type ev struct {
		Ph  string `json:"ph"`
		Cat string `json:"cat"`
	}
	var obj struct {
		TraceEvents []ev `json:"traceEvents"`
	}
	var arr []ev
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		if err := json.Unmarshal(raw, &arr); err != nil {
			t.Fatal(err)
		}
	} else if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	} else {
		arr = obj.TraceEvents
	}
	m := map[string]int{}
	for _, e := range arr {
		if e.Ph == "X" {
			m[e.Cat]++
		}
	}
	return m
}

// TestConformance reads every real trace and torch oracle trace; the count
// of X events per category must equal an independent count.
func TestConformance(t *testing.T) {
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	more, _ := filepath.Glob(filepath.Join(shared, "oracle", "*", "*.json"))
	files = append(files, more...)
	for _, path := range files {
		if strings.HasSuffix(path, "manifest.json") {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			tr, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			f, _ := os.Open(path)
			defer f.Close()
			var r io.Reader = f
			if strings.HasSuffix(path, ".gz") {
				zr, err := gzip.NewReader(f)
				if err != nil {
					t.Fatal(err)
				}
				r = zr
			}
			want := independentCounts(t, r)
			for cat, n := range want {
				if tr.CatCounts[cat] != n {
					t.Errorf("cat %q: %d, independent count %d", cat, tr.CatCounts[cat], n)
				}
			}
			for cat, n := range tr.CatCounts {
				if want[cat] != n {
					t.Errorf("cat %q: %d, independent count %d", cat, n, want[cat])
				}
			}
			l := tr.Links()
			t.Logf("%d events; device ops %d, linked %d, unlinked %d", tr.NumEvents(), l.DeviceOps, l.LinkedDeviceOps, l.DeviceOps-l.LinkedDeviceOps)
		})
	}
}

// TestGzipSameAsPlain: the same text read plain and gzipped is the same trace.
func TestGzipSameAsPlain(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample.pt.trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	a, err := Read(bytes.NewReader(raw), "plain", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Read(&gz, "gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.NumEvents() != b.NumEvents() || a.NumEvents() == 0 {
		t.Fatalf("%d vs %d events", a.NumEvents(), b.NumEvents())
	}
	for i := 0; i < a.NumEvents(); i++ {
		if *a.Ev(i) != *b.Ev(i) {
			t.Fatalf("event %d differs", i)
		}
	}
}

// TestParallelRealTraces: real traces (object and bare-array forms, with
// metadata after traceEvents) read in small parallel segments equal the
// sequential reading.
func TestParallelRealTraces(t *testing.T) {
	shared := testenv.Shared(t)
	defer func(a, b int64) { parallelMin, segmentSize = a, b }(parallelMin, segmentSize)
	for _, name := range []string{
		"kineto__2021-01-13__tb_plugin__samples__resnet50_num_workers_0__worker0.pt.trace.json.gz",
		"HTA__nccl_parser_config__nccl_data.json.gz",
		"TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",
	} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(shared, "traces", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			plain := filepath.Join(t.TempDir(), "plain.json")
			out, _ := os.Create(plain)
			io.Copy(out, zr)
			out.Close()
			parallelMin, segmentSize = 48<<20, 48<<20
			seq, err := Open(plain, Options{Sequential: true})
			if err != nil {
				t.Fatal(err)
			}
			parallelMin, segmentSize = 1, 100_003
			par, err := Open(plain, Options{})
			if err != nil {
				t.Fatal(err)
			}
			equalTraces(t, name, seq, par)
			if par.NumEvents() != seq.NumEvents() || len(par.Flows) != len(seq.Flows) || len(par.Mem) != len(seq.Mem) ||
				par.BytesRead != seq.BytesRead || len(par.Tracks) != len(seq.Tracks) || par.Base != seq.Base {
				t.Fatalf("parallel %d events %d tracks, sequential %d %d", par.NumEvents(), len(par.Tracks), seq.NumEvents(), len(seq.Tracks))
			}
			for i := 0; i < seq.NumEvents(); i++ {
				a, b := seq.Ev(i), par.Ev(i)
				if a.Start != b.Start || a.Dur != b.Dur || seq.NameOf(i) != par.NameOf(i) || seq.CorrOf(a) != par.CorrOf(b) || a.Kind != b.Kind {
					t.Fatalf("event %d differs", i)
				}
			}
			for k, v := range seq.CatCounts {
				if par.CatCounts[k] != v {
					t.Fatalf("cat %s: %d vs %d", k, par.CatCounts[k], v)
				}
			}
		})
	}
}
