package cli

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

type gapsOut struct {
	Schema  string `json:"schema"`
	GPU     bool   `json:"has_gpu_lane"`
	Verdict struct {
		Class       string           `json:"class"`
		Headline    string           `json:"headline"`
		SpanNs      int64            `json:"span_ns"`
		IdleNs      int64            `json:"gpu_idle_ns"`
		CPUActiveNs int64            `json:"cpu_active_ns"`
		Activity    *string          `json:"activity"`
		ByCause     map[string]int64 `json:"idle_by_cause_ns"`
	} `json:"verdict"`
	Devices []struct {
		Device   int   `json:"device"`
		WindowNs int64 `json:"window_ns"`
		BusyNs   int64 `json:"busy_ns"`
		IdleNs   int64 `json:"idle_ns"`
		Ops      int   `json:"ops"`
	} `json:"devices"`
	Streams []struct {
		Stream *int64 `json:"stream"`
		BusyNs int64  `json:"busy_ns"`
	} `json:"streams"`
	Idle *struct {
		Total struct {
			HostWaitNs   int64   `json:"host_wait_ns"`
			KernelWaitNs int64   `json:"kernel_wait_ns"`
			OtherWaitNs  int64   `json:"other_wait_ns"`
			HostWaitUs   float64 `json:"host_wait_us"`
		} `json:"total"`
	} `json:"idle"`
	Gaps []struct {
		LenNs    int64   `json:"length_ns"`
		Where    string  `json:"where"`
		Kind     *string `json:"idle_kind"`
		Cause    string  `json:"cause"`
		Activity *string `json:"activity"`
		Note     *string `json:"note"`
		Steps    string  `json:"steps"`
	} `json:"gaps"`
	LaneOffsetNs *int64 `json:"lane_offset_ns"`
	Dead         []struct {
		Inside *string `json:"inside"`
		LenNs  int64   `json:"length_ns"`
		Step   *int64  `json:"step"`
	} `json:"cpu_dead_windows"`
	Steps []struct {
		Step int64 `json:"step"`
		Cold bool  `json:"cold"`
	} `json:"steps"`
	Syncs []struct {
		Name  string `json:"name"`
		DurNs int64  `json:"dur_ns"`
	} `json:"blocking_calls"`
	Latency *struct {
		Count int `json:"count"`
	} `json:"launch_latency"`
}

func gapsJSON(t *testing.T, args ...string) gapsOut {
	t.Helper()
	var g gapsOut
	runJSON(t, &g, append([]string{"gaps", "--format", "json", "--top", "0"}, args...)...)
	return g
}

// TestTraceLensTimeline: busy, idle and total per GPU equal TraceLens's
// gpu_timeline.csv. TraceLens sums float64 microseconds rebuilt from
// timestamps near 1e12 us, so its numbers carry up to half an ulp of error
// per interval boundary; tracetab's are exact integer nanoseconds (checked
// on mi210 with decimal arithmetic: 5343.422 us exact, TraceLens 5343.370).
// TraceLens counts only device ops it can link to a CPU op: tracetab does
// that under --linked-only and counts all device work by default (on the
// Qwen trace 509 ops were launched before the profiling window opened).
func TestTraceLensTimeline(t *testing.T) {
	shared := testenv.Shared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "traces", "oracles", "tracelens", "*"))
	if len(dirs) == 0 {
		t.Fatal("no TraceLens oracles")
	}
	for _, d := range dirs {
		name := filepath.Base(d)
		t.Run(name, func(t *testing.T) {
			want := map[string]float64{}
			for _, r := range readCSV(t, filepath.Join(d, "gpu_timeline.csv")) {
				want[r["type"]] = num(t, r["time ms"]) * 1000
			}
			path := filepath.Join(shared, "traces", "TraceLens__"+name+".json.gz")
			linked := gapsJSON(t, "--linked-only", path)
			all := gapsJSON(t, path)
			if len(linked.Devices) != 1 {
				t.Fatalf("%d devices", len(linked.Devices))
			}
			g := linked.Devices[0]
			// float64 spacing of ~1e13 us timestamps is 2^-9 us; allow half
			// an ulp per interval boundary on TraceLens's side.
			tol := math.Max(peerTol, float64(g.Ops)*math.Pow(2, -10))
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"busy", float64(g.BusyNs) / 1e3, want["busy_time"]}, {"idle", float64(g.IdleNs) / 1e3, want["idle_time"]}, {"total", float64(g.WindowNs) / 1e3, want["total_time"]}} {
				if math.Abs(c.got-c.want) > tol {
					t.Errorf("%s: %.4f us, TraceLens %.4f us (tolerance %.4f)", c.what, c.got, c.want, tol)
				}
			}
			if a := all.Devices[0]; a.BusyNs < g.BusyNs || a.Ops < g.Ops {
				t.Errorf("counting all device work must not count less: %+v vs %+v", a, g)
			}
		})
	}
}

// TestGapsSampleStory: the README's sample shows the blog's story: the
// GPU lane runs 2.5 ms behind the CPU (dispatch latency), the profiler's
// buffer request makes a gap, a cold first step, a long sync at the end.
func TestGapsSampleStory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	f, _ := os.Create(path)
	facts, err := gen.Write(f, gen.Config{Steps: 4})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	g := gapsJSON(t, path)
	if g.Schema != "tracetab.gaps/3" {
		t.Errorf("schema %q", g.Schema)
	}
	if g.Verdict.Class != "launch-bound" || !strings.Contains(g.Verdict.Headline, "dispatch latency") {
		t.Errorf("verdict %q: %s", g.Verdict.Class, g.Verdict.Headline)
	}
	if g.Verdict.ByCause["dispatch"] < g.Verdict.IdleNs/2 {
		t.Errorf("dispatch latency should hold most idle time: %v of %d", g.Verdict.ByCause, g.Verdict.IdleNs)
	}
	if g.LaneOffsetNs == nil || *g.LaneOffsetNs != facts.FirstLaunchNs {
		t.Errorf("lane offset %v, want %v", g.LaneOffsetNs, facts.FirstLaunchNs)
	}
	prof := false
	for _, x := range g.Gaps {
		if x.Cause == "profiler" && x.Activity != nil && *x.Activity == "Activity Buffer Request" && x.LenNs > 0 && x.LenNs <= facts.BufferRequestNs {
			prof = true
		}
	}
	if !prof {
		t.Errorf("a gap should be the profiler's buffer request (%d ns): %+v", facts.BufferRequestNs, g.Gaps)
	}
	if len(g.Dead) == 0 || g.Dead[0].Inside == nil || *g.Dead[0].Inside != "matmul_add" || g.Dead[0].LenNs != facts.DeadWindowNs || *g.Dead[0].Step != 2 {
		t.Errorf("largest dead window should be matmul_add's %v ns in step 2: %+v", facts.DeadWindowNs, g.Dead)
	}
	if len(g.Steps) != facts.Steps || !g.Steps[0].Cold || g.Steps[1].Cold {
		t.Errorf("only the first step is cold: %+v", g.Steps)
	}
	if len(g.Syncs) == 0 || g.Syncs[0].Name != "cudaDeviceSynchronize" || g.Syncs[0].DurNs != facts.SyncDurNs {
		t.Errorf("the long sync: %+v, want %v ns", g.Syncs, facts.SyncDurNs)
	}
	if g.Verdict.CPUActiveNs <= 0 || g.Verdict.CPUActiveNs > g.Verdict.SpanNs {
		t.Errorf("CPU active %d ns of a %d ns span", g.Verdict.CPUActiveNs, g.Verdict.SpanNs)
	}
}

// miniTrace writes a small Kineto-style trace from compact rows:
// kind name tid/stream ts dur corr [ext].
func miniTrace(t *testing.T, rows ...string) string {
	t.Helper()
	var evs []string
	for _, r := range rows {
		var cat, name string
		var tid, ts, dur, corr, ext int64
		fmt.Sscan(r, &cat, &name, &tid, &ts, &dur, &corr, &ext)
		pid := int64(10)
		if cat == "kernel" || cat == "gpu_memcpy" {
			pid = 0
		}
		evs = append(evs, fmt.Sprintf(`{"ph":"X","cat":%q,"name":%q,"pid":%d,"tid":%d,"ts":%d,"dur":%d,"args":{"correlation":%d,"External id":%d}}`,
			cat, name, pid, tid, ts, dur, corr, ext))
	}
	p := filepath.Join(t.TempDir(), "mini.json")
	os.WriteFile(p, []byte(`{"traceEvents":[`+strings.Join(evs, ",\n")+`]}`), 0o644)
	return p
}

// TestGapsCauses: one generated case per cause, and lanes with several
// streams, overlapping kernels and a graph launch.
func TestGapsCauses(t *testing.T) {
	type want struct{ cause, kind, activity, note string }
	one := func(t *testing.T, w want, rows ...string) gapsOut {
		t.Helper()
		g := gapsJSON(t, miniTrace(t, rows...))
		var between []int
		for k, x := range g.Gaps {
			if x.Where == "between ops" {
				between = append(between, k)
			}
		}
		if len(between) != 1 {
			t.Fatalf("want one gap between ops: %+v", g.Gaps)
		}
		x := g.Gaps[between[0]]
		str := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		if x.Cause != w.cause || str(x.Kind) != w.kind || str(x.Activity) != w.activity || str(x.Note) != w.note {
			t.Errorf("got cause %q kind %q activity %q note %q, want %+v", x.Cause, str(x.Kind), str(x.Activity), str(x.Note), w)
		}
		return g
	}
	t.Run("cpu", func(t *testing.T) {
		g := one(t, want{"cpu", "host_wait", "aten::mm", ""},
			"cpu_op aten::mm 1 0 180 0 1",
			"cuda_runtime cudaLaunchKernel 1 10 5 100 1",
			"kernel k1 7 20 10 100 1",
			"cpu_op aten::add 1 200 50 0 2",
			"cuda_runtime cudaLaunchKernel 1 210 5 101 2",
			"kernel k2 7 220 10 101 2")
		if g.Gaps[0].LenNs != 190_000 || g.Verdict.Class != "cpu-bound" {
			t.Errorf("%+v %s", g.Gaps[0], g.Verdict.Class)
		}
	})
	t.Run("untraced", func(t *testing.T) {
		one(t, want{"untraced", "host_wait", "", ""},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 1",
			"kernel k1 7 20 10 100 1",
			"cuda_runtime cudaLaunchKernel 1 210 5 101 2",
			"kernel k2 7 220 10 101 2")
	})
	t.Run("sync", func(t *testing.T) {
		g := one(t, want{"sync", "host_wait", "cudaStreamSynchronize", ""},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 0",
			"kernel k1 7 20 10 100 0",
			"cuda_runtime cudaStreamSynchronize 1 25 275 102 0",
			"cuda_runtime cudaLaunchKernel 1 305 2 101 0",
			"kernel k2 7 310 10 101 0")
		if g.Verdict.Class != "sync-bound" {
			t.Errorf("verdict %s", g.Verdict.Class)
		}
	})
	t.Run("drained at a sync", func(t *testing.T) {
		one(t, want{"cpu", "host_wait", "aten::nonzero", "pipeline drained at a sync (cudaStreamSynchronize)"},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 0",
			"kernel k1 7 20 10 100 0",
			"cuda_runtime cudaStreamSynchronize 1 25 6 102 0",
			"cpu_op aten::nonzero 1 31 270 0 0",
			"cuda_runtime cudaLaunchKernel 1 305 2 101 0",
			"kernel k2 7 310 10 101 0")
	})
	t.Run("input", func(t *testing.T) {
		g := one(t, want{"input", "host_wait", "zoom_shift", ""},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 0",
			"kernel k1 7 20 10 100 0",
			"user_annotation enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ 1 30 400 0 0",
			"python_function zoom_shift 1 40 300 0 0",
			"cuda_runtime cudaLaunchKernel 1 440 2 101 0",
			"kernel k2 7 450 10 101 0")
		if g.Verdict.Class != "input-bound" {
			t.Errorf("verdict %s", g.Verdict.Class)
		}
	})
	t.Run("queued", func(t *testing.T) {
		one(t, want{"queued", "other_wait", "", ""},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 0",
			"kernel k1 7 20 10 100 0",
			"cuda_runtime cudaLaunchKernel 1 16 2 101 0",
			"kernel k2 7 200 10 101 0")
	})
	t.Run("dependency", func(t *testing.T) {
		g := one(t, want{"dependency", "other_wait", "", ""},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 0",
			"kernel k1 7 20 10 100 0",
			"cuda_runtime cudaStreamWaitEvent 1 16 1 103 0",
			"cuda_runtime cudaLaunchKernel 1 18 2 101 0",
			"kernel k2 7 200 10 101 0")
		if g.Verdict.Class != "dependency-bound" {
			t.Errorf("verdict %s", g.Verdict.Class)
		}
	})
	t.Run("kernel wait", func(t *testing.T) {
		one(t, want{"dispatch", "kernel_wait", "", ""},
			"cuda_runtime cudaLaunchKernel 1 10 5 100 0",
			"kernel k1 7 20 10 100 0",
			"cuda_runtime cudaLaunchKernel 1 16 2 101 0",
			"kernel k2 7 35 10 101 0")
	})
	t.Run("streams and overlap", func(t *testing.T) {
		p := miniTrace(t,
			"cuda_runtime cudaLaunchKernel 1 0 5 100 0",
			"kernel a 7 10 100 100 0",
			"cuda_runtime cudaLaunchKernel 1 1 5 101 0",
			"kernel b 7 50 100 101 0", // overlaps a on the same stream: never dropped
			"cuda_runtime cudaLaunchKernel 1 2 5 102 0",
			"kernel c 20 300 10 102 0")
		g := gapsJSON(t, p)
		if len(g.Streams) != 2 || g.Devices[0].BusyNs != 150_000 || g.Devices[0].WindowNs != 300_000 || g.Devices[0].Ops != 3 {
			t.Fatalf("%+v %+v", g.Devices, g.Streams)
		}
	})
	t.Run("graph launch", func(t *testing.T) {
		p := miniTrace(t,
			"cuda_runtime cudaGraphLaunch 1 0 5 100 0",
			"kernel a 7 10 10 100 0",
			"kernel b 7 25 10 100 0",
			"kernel c 7 40 10 100 0")
		g := gapsJSON(t, p)
		if g.Latency == nil || g.Latency.Count != 3 || len(g.Gaps) != 2 {
			t.Fatalf("every kernel of the graph has its launch: %+v %+v", g.Latency, g.Gaps)
		}
		out, _, _ := run(t, "info", p)
		if !strings.Contains(out, "1 graph launch") {
			t.Errorf("info should count the graph launch:\n%s", out)
		}
	})
}

// TestGapsRealTraces: multi-stream NCCL, ROCm, GPU-only, CPU-only.
func TestGapsRealTraces(t *testing.T) {
	shared := testenv.Shared(t)
	tr := func(n string) string { return filepath.Join(shared, "traces", n) }
	nccl := gapsJSON(t, tr("HTA__nccl_parser_config__nccl_data.json.gz"))
	if len(nccl.Streams) < 2 || !nccl.GPU {
		t.Errorf("NCCL trace: %d streams", len(nccl.Streams))
	}
	rocm := gapsJSON(t, tr("TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz"))
	if len(rocm.Devices) != 1 || rocm.Devices[0].Device != 2 || rocm.Latency == nil {
		t.Errorf("ROCm trace: %+v", rocm.Devices)
	}
	gpuOnly := gapsJSON(t, tr("TraceLens__mi210__gpu_only_trace__gpu_only_trace.json.gz"))
	if !gpuOnly.GPU || len(gpuOnly.Gaps) == 0 {
		t.Error("GPU-only trace has gaps")
	}
	out, stderr, code := run(t, "gaps", tr("HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"))
	if code != 0 || !strings.Contains(stderr, "no GPU lane") || !strings.Contains(out, "no GPU lane") {
		t.Errorf("CPU-only: exit %d %q\n%s", code, stderr, out)
	}
}

// TestFiltersSelectNothing: a --steps, --device or --stream that selects
// nothing is a usage error naming what the trace has.
func TestFiltersSelectNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	f, _ := os.Create(path)
	if _, err := gen.Write(f, gen.Config{Steps: 4}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"gaps", "--steps", "9", path}, "no ProfilerStep#9; steps are 2-5"},
		{[]string{"gaps", "--steps", "7-9", path}, "no ProfilerStep#7 to #9; steps are 2-5"},
		{[]string{"gaps", "--device", "3", path}, "no device 3; devices are 0"},
		{[]string{"gaps", "--stream", "99", path}, "no stream 99; streams are 7"},
		{[]string{"gaps", "--device", "0", "--stream", "99", path}, "no stream 99 on device 0; its streams are 7"},
		{[]string{"table", "--steps", "9", path}, "no ProfilerStep#9; steps are 2-5"},
		{[]string{"gaps", "--linked-only", "--steps", "5", miniTrace(t, "user_annotation ProfilerStep#5 1 0 100 0 0", "kernel k 7 200 10 100 0")},
			"the filters (--steps 5 --linked-only) select no device op"},
	} {
		out, stderr, code := run(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.msg) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 with %q", c.args, code, stderr, out, c.msg)
		}
	}
	if _, _, code := run(t, "gaps", "--steps", "3-4", "--device", "0", "--stream", "7", path); code != 0 {
		t.Errorf("a filter that selects something: exit %d", code)
	}
	if g := gapsJSON(t, "--device", "0", path); !strings.HasPrefix(g.Verdict.Headline, "(device 0 only) ") {
		t.Errorf("a narrowed verdict says so: %q", g.Verdict.Headline)
	}
}

// TestGapsStepsFilter: every section obeys --steps and --min-gap.
func TestGapsStepsFilter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	f, _ := os.Create(path)
	if _, err := gen.Write(f, gen.Config{Steps: 4}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	g := gapsJSON(t, "--steps", "3-4", "--min-gap", "2us", path)
	for _, s := range g.Steps {
		if s.Step < 3 || s.Step > 4 {
			t.Errorf("step %d listed", s.Step)
		}
	}
	for _, d := range g.Dead {
		if d.Step == nil || *d.Step < 3 || *d.Step > 4 || d.LenNs < 2000 {
			t.Errorf("dead window outside steps 3-4 or under 2us: %+v", d)
		}
	}
	for _, x := range g.Gaps {
		if x.LenNs < 2000 {
			t.Errorf("gap under --min-gap: %+v", x)
		}
	}
	if len(g.Syncs) != 0 {
		t.Errorf("the final sync lies after step 5: %+v", g.Syncs)
	}
	out, _, _ := run(t, "gaps", "--steps", "3-4", "--min-gap", "1s", path)
	if !strings.Contains(out, "none above 1.000s") {
		t.Errorf("an empty section should say none above 1s:\n%s", out)
	}
}

// TestGapsScenarios: each generator stall produces its verdict class, and
// the gaps it makes carry its cause.
func TestGapsScenarios(t *testing.T) {
	for _, c := range []struct{ scenario, class, cause, activity string }{
		{"dataloader", "input-bound", "input", "default_collate"},
		{"preprocess", "cpu-bound", "cpu", "<built-in function resize>"},
		{"sync", "sync-bound", "sync", "cudaStreamSynchronize"},
		{"wait", "dependency-bound", "dependency", ""},
		{"tiny", "launch-bound", "launch", ""},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.scenario+".json")
			f, _ := os.Create(path)
			if _, err := gen.Write(f, gen.Config{Steps: 4, Scenario: c.scenario}); err != nil {
				t.Fatal(err)
			}
			f.Close()
			g := gapsJSON(t, path)
			if g.Verdict.Class != c.class {
				t.Errorf("verdict %s, want %s: %s", g.Verdict.Class, c.class, g.Verdict.Headline)
			}
			// The gaps of the warm steps (3-5) all carry the cause.
			var n int
			for _, x := range g.Gaps {
				if x.Cause == c.cause {
					n++
					if c.activity != "" && x.LenNs >= 1_000_000 && x.Where == "between ops" && (x.Activity == nil || !strings.Contains(*x.Activity, c.activity)) {
						t.Errorf("a %s gap names %v, want %q", c.cause, x.Activity, c.activity)
					}
				}
			}
			held := g.Verdict.ByCause[c.cause]
			if c.cause == "launch" {
				held += g.Verdict.ByCause["dispatch"] // the launch-bound class: launch calls and dispatch latency
			}
			if n == 0 || held < g.Verdict.IdleNs/2 {
				t.Errorf("%d %s gaps; they hold %d of %d ns idle", n, c.cause, held, g.Verdict.IdleNs)
			}
		})
	}
}
