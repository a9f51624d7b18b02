package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestEraRules2021: without --torch, a 2021 trace (torch 1.8/1.9) is
// printed as torch 1.9 printed it, and its events are rebuilt as 1.9 did:
// a runtime call no op launched keeps id 0 and thread 0, so it is a root of
// its own and not a child of the ProfilerStep it lies in. The footer is
// computed from the raw events under both rules; tracetab must give the
// 1.9 one, and the rules must differ on this trace.
func TestEraRules2021(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "kineto__2021-01-13__tb_plugin__samples__resnet50_num_workers_0__worker0.pt.trace.json.gz")
	out, _, code := run(t, "info", path)
	if code != 0 || !strings.Contains(out, "written by torch 1.8 or 1.9, in 2021 (its K1 form)") || !strings.Contains(out, "torch       1.9 assumed") {
		t.Fatalf("info must name the 2021 era and the torch it assumes:\n%s", out)
	}
	evs := readRawFile(t, path)
	filtered := map[string]bool{"aten::is_leaf": true, "aten::output_nr": true, "aten::_version": true,
		"profiler::_record_function_enter": true, "profiler::_record_function_exit": true}
	ops := map[int64]string{} // External id -> tid of the op
	mainTid, pidTid := "", ""
	for i := range evs {
		if evs[i].Cat != "Operator" {
			continue
		}
		pid, tid := evs[i].Pid, evs[i].Tid
		if id, ok := argInt(evs[i], "External id"); ok {
			ops[id] = tid
		}
		if mainTid == "" {
			mainTid = tid
		}
		if pid == tid && pidTid == "" {
			pidTid = tid
		}
	}
	if pidTid != "" {
		mainTid = pidTid
	}
	g19 := map[string][]rawSpan{}
	g113 := map[string][]rawSpan{}
	unlinked := 0
	for i := range evs {
		e := &evs[i]
		if e.Ph != "X" || filtered[e.Name] {
			continue
		}
		lo := e.Ts
		_, tid := e.Pid, e.Tid
		s := rawSpan{e, tid, lo, lo + e.Dur}
		switch e.Cat {
		case "Operator":
			g19[s.tid] = append(g19[s.tid], s)
			g113[s.tid] = append(g113[s.tid], s)
		case "Runtime":
			link, _ := argInt(*e, "external id")
			if th, ok := ops[link]; ok && link != 0 {
				g19[th] = append(g19[th], s)
				g113[th] = append(g113[th], s)
				continue
			}
			unlinked++
			g19["0"] = append(g19["0"], s)
			g113[mainTid] = append(g113[mainTid], s)
		}
	}
	if unlinked == 0 {
		t.Fatal("the trace has no unlinked runtime calls: the test would not tell the rules apart")
	}
	want19, want113 := torchTimeText(rootNs(g19)), torchTimeText(rootNs(g113))
	if want19 == want113 {
		t.Fatalf("both rules give %s: the test would not tell them apart", want19)
	}
	got, stderr, code := run(t, "table", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(got, "Self CPU time total: "+want19+"\n") {
		t.Errorf("want the footer of torch 1.9's rules, Self CPU time total: %s (1.13+ rules give %s); got\n%s", want19, want113, lastLines(got, 3))
	}
	explicit, _, _ := run(t, "table", "--torch", "1.9", path)
	if explicit != got {
		t.Error("table without --torch differs from --torch 1.9 on a 2021 trace")
	}
	// --torch 2.14 prints with 2.14's rules over the same rebuilt events.
	if newer, _, _ := run(t, "table", "--torch", "2.14", path); !strings.Contains(newer, "Self CPU time total: "+want19+"\n") {
		t.Errorf("--torch 2.14 must keep the events torch 1.9 recorded: want Self CPU time total: %s; got\n%s", want19, lastLines(newer, 3))
	}
}

// runtimeSelfCUDA runs table and returns Self CUDA in ns per runtime row.
func runtimeSelfCUDA(t *testing.T, path string, names map[string]bool, args ...string) map[string]int64 {
	rows := jsonRows(t, append(args, path)...)
	got := map[string]int64{}
	for name := range names {
		if r, ok := rows[name]; ok {
			got[name] = int64(r["self_cuda_ns"].(float64))
		}
	}
	return got
}

func compareNs(t *testing.T, what string, got, want map[string]int64, slack map[string]int64) {
	t.Helper()
	for name, w := range want {
		if g := got[name]; g < w-slack[name] || g > w+slack[name] {
			t.Errorf("%s: %s Self CUDA %d ns, the raw events give %d ns", what, name, g, w)
		}
	}
}

// TestEraRules2x: without --torch, a trace written by torch 1.13-2.3 gets
// that era's rule (every event whose id equals an op's External id takes
// the op's kernels, linked runtime calls included) and a 2.4+ trace gets
// the 2.4+ rule (only runtime calls no op launched). The Self CUDA of
// every runtime row is computed from the raw events.
func TestEraRules2x(t *testing.T) {
	shared := testenv.Shared(t)
	for _, c := range []struct {
		file, era, assumed string
		linkedToo          bool
	}{
		{"HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz", "written by torch 1.13 to 2.3 (its K2b form)", "2.3", true},
		{"TraceLens__b200__eager_trace.json.gz", "written by torch 2.4 or later (its K3 form)", "2.14", false},
	} {
		path := filepath.Join(shared, "traces", c.file)
		out, _, code := run(t, "info", path)
		if code != 0 || !strings.Contains(out, c.era) || !strings.Contains(out, "torch       "+c.assumed+" assumed") {
			t.Fatalf("%s: info must say %q and %s assumed:\n%s", c.file, c.era, c.assumed, out)
		}
		evs := readRawFile(t, path)
		inner := innermostOps(t, evs)
		ops := map[int64]bool{}
		for i := range evs {
			if id, ok := argInt(evs[i], "External id"); ok && evs[i].Cat == "cpu_op" {
				ops[id] = true
			}
		}
		// link of a runtime call: its own "External id" when it names an
		// op (kineto from 2024), else the innermost enclosing op.
		link := map[int64]int64{} // correlation -> link
		for i := range evs {
			e := &evs[i]
			if e.Cat != "cuda_runtime" && e.Cat != "cuda_driver" {
				continue
			}
			corr, _ := argInt(*e, "correlation")
			l := inner[e]
			if x, ok := argInt(*e, "External id"); ok && ops[x] && x != corr {
				l = x
			}
			link[corr] = l
		}
		kernNs := map[int64]int64{} // op External id -> device time launched from it
		kernN := map[int64]int64{}
		for i := range evs {
			e := &evs[i]
			if e.Ph != "X" || !deviceCats[e.Cat] {
				continue
			}
			corr, ok := argInt(*e, "correlation")
			if l := link[corr]; ok && l != 0 {
				kernNs[l] += e.Dur
				kernN[l]++
			}
		}
		want, slack, names := map[string]int64{}, map[string]int64{}, map[string]bool{}
		linkedGot := int64(0)
		for i := range evs {
			e := &evs[i]
			if e.Cat != "cuda_runtime" && e.Cat != "cuda_driver" {
				continue
			}
			names[e.Name] = true
			corr, _ := argInt(*e, "correlation")
			want[e.Name] += 0
			if !ops[corr] || (!c.linkedToo && link[corr] != 0) {
				continue
			}
			want[e.Name] += kernNs[corr]
			slack[e.Name] += kernN[corr] // float us arithmetic: at most 1 ns per kernel
			if link[corr] != 0 {
				linkedGot += kernNs[corr]
			}
		}
		if c.linkedToo && linkedGot == 0 {
			t.Fatalf("%s: no linked runtime call collides: the test would not tell the rules apart", c.file)
		}
		compareNs(t, c.file+" (no --torch)", runtimeSelfCUDA(t, path, names), want, slack)
		// --torch changes only the printing, not the rebuilt events.
		compareNs(t, c.file+" --torch 2.6", runtimeSelfCUDA(t, path, names, "--torch", "2.6"), want, slack)
	}
}

// TestTorchVersionRefused: --torch outside the known versions is a usage
// error that lists them; --time-unit with an assumed torch that has none
// says the version was assumed.
func TestTorchVersionRefused(t *testing.T) {
	k2b := filepath.Join(testenv.Shared(t), "traces", "zoology__trace.json.gz")
	if _, stderr, code := run(t, "table", "--time-unit", "ms", k2b); code != ExitUsage || !strings.Contains(stderr, "torch 2.3's table() (assumed from the trace's era") {
		t.Errorf("--time-unit on a 1.13-2.3 trace: exit %d %q", code, stderr)
	}
	if _, _, code := run(t, "table", "--time-unit", "ms", "--torch", "2.7", k2b); code != 0 {
		t.Errorf("--time-unit with --torch 2.7: exit %d", code)
	}
	for _, v := range []string{"2.15", "3.0", "1.7", "1.14", "banana"} {
		_, stderr, code := run(t, "table", "--torch", v, filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json"))
		if code != ExitUsage {
			t.Errorf("--torch %s: exit %d, want %d", v, code, ExitUsage)
		}
		if v != "banana" && !strings.Contains(stderr, "1.8, 1.9, 1.10, 1.11, 1.12, 1.13, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9, 2.10, 2.11, 2.12, 2.13, 2.14") {
			t.Errorf("--torch %s: the message must list the known versions: %q", v, stderr)
		}
	}
}

// TestEraOfRealTraces: the era info names follows from the raw file on
// every real trace: ns timestamps (a baseTimeNanoseconds key or a ts with
// decimals) are torch 2.4 or later; capitalised categories without cpu_op
// are 2021's torch 1.8/1.9; integer-us traces whose ops carry "Ev Idx" are
// torch 1.13 to 2.3; other integer-us traces are 1.10 to 2.3 at most.
func TestEraOfRealTraces(t *testing.T) {
	shared := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	if len(paths) < 20 {
		t.Fatalf("only %d traces", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		evs := readRawFile(t, p)
		ns := bytes.Contains(b, []byte(`"baseTimeNanoseconds"`))
		cats := map[string]bool{}
		evIdx := false
		for i := range evs {
			cats[evs[i].Cat] = true
			ns = ns || evs[i].TsPoint
			if evs[i].Cat == "cpu_op" {
				_, a := evs[i].Arg("Ev Idx")
				_, c := evs[i].Arg("Profiler Event Index")
				evIdx = evIdx || a || c
			}
		}
		var want, assumed string
		switch {
		case ns:
			want, assumed = "written by torch 2.4 or later", "2.14"
		case cats["Operator"] && !cats["cpu_op"]:
			want, assumed = "written by torch 1.8 or 1.9", "1.9"
		case evIdx:
			want, assumed = "written by torch 1.13 to 2.3", "2.3"
		case cats["cpu_op"]:
			want, assumed = "written by torch 1.10 to 1.12", "1.12"
		default:
			want, assumed = "written by torch 1.10 to 2.3", "2.3"
		}
		out, _, code := run(t, "info", p)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "torch       "+assumed+" assumed") {
			t.Errorf("%s: want %q and %s assumed:\n%s", filepath.Base(p), want, assumed, lastLines(strings.Join(strings.SplitN(out, "\n", 4)[:3], "\n"), 2))
		}
	}
}
