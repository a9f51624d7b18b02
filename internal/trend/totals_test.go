package trend_test

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/trend"
)

// fullValues is what the full reduction gives of the metrics Summarize
// takes from diff, read as trend read them before the totals-only path:
// diff.Reduce of the trace alone by op, its totals step_time,
// gpu_idle_pct and steps and every row's self_cuda sample.
func fullValues(t *testing.T, tr *trace.Trace, path string) (map[string]float64, int) {
	t.Helper()
	side, err := diff.Reduce([]*trace.Trace{tr}, []string{path}, diff.Options{By: "op"})
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]float64{}
	if v := side.Totals["step_time"]; len(v) == 1 {
		vals[trend.StepTime] = v[0]
	}
	if v := side.Totals["gpu_idle_pct"]; len(v) == 1 {
		vals[trend.GPUIdlePct] = v[0]
	}
	steps := -1
	if v := side.Totals["steps"]; len(v) == 1 {
		steps = int(v[0])
	}
	for _, row := range side.Rows {
		v := row.Samples["self_cuda"]
		if len(v) != 1 {
			t.Fatalf("%s: row %s has %d self_cuda samples, want 1 (one trace, not per step)", path, row.Key, len(v))
		}
		if row.Device {
			vals[trend.KernelPrefix+strings.TrimPrefix(row.Key, "[device] ")] = v[0]
		} else if v[0] > 0 {
			vals[trend.OpPrefix+row.Key] = v[0]
		}
	}
	return vals, steps
}

// sameAsFull asserts that Summarize's run of tr has, for every metric it
// takes from diff, the full reduction's value (bit for bit), no other such
// metric, and the full reduction's step count; it returns how many
// metrics it compared.
func sameAsFull(t *testing.T, tr *trace.Trace, path string) int {
	t.Helper()
	run, err := trend.Summarize(tr, path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	want, steps := fullValues(t, tr, path)
	if run.Steps != steps {
		t.Errorf("%s: steps %d, the full reduction's %d", path, run.Steps, steps)
	}
	got := map[string]float64{}
	for name, v := range run.Values {
		if name == trend.StepTime || name == trend.GPUIdlePct || strings.HasPrefix(name, trend.OpPrefix) || strings.HasPrefix(name, trend.KernelPrefix) {
			got[name] = v
		}
	}
	names := func(m map[string]float64) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	if g, w := names(got), names(want); !slices.Equal(g, w) {
		t.Errorf("%s: metrics %q, the full reduction's %q", path, g, w)
	}
	for name, w := range want {
		if g, ok := got[name]; ok && math.Float64bits(g) != math.Float64bits(w) {
			t.Errorf("%s: %s = %v, the full reduction's %v", path, name, g, w)
		}
	}
	return len(want)
}

// TestTotalsMatchFullReduceOnSharedTraces: on every shared real trace, the
// totals-only reduction trend uses gives what the full diff.Reduce gives
// for every metric trend takes from it.
func TestTotalsMatchFullReduceOnSharedTraces(t *testing.T) {
	var compared, withIdle, withOps int
	for _, p := range testenv.SharedTraces(t) {
		tr, _, err := testcache.Open(p, parse.Options{NoExtras: true})
		if err != nil {
			continue // a trace the reader refuses is no run of a series
		}
		n := sameAsFull(t, tr, filepath.Base(p))
		compared += n
		want, _ := fullValues(t, tr, p)
		if _, ok := want[trend.GPUIdlePct]; ok {
			withIdle++
		}
		for name := range want {
			if strings.HasPrefix(name, trend.OpPrefix) {
				withOps++
				break
			}
		}
	}
	// the comparison covers the metrics, not only their absence
	if withIdle < 10 || withOps < 10 || compared < 500 {
		t.Errorf("compared %d values; %d traces with gpu_idle_pct, %d with op values: the shared traces should give more", compared, withIdle, withOps)
	}
	t.Logf("%d values compared", compared)
}

// TestTotalsMatchFullReduceOnGenerated: the same on generated traces of
// the shapes a series has (a rank of a job, GPU-bound nights with jitter,
// memory, the stall scenarios, compiled regions, no device work, a
// Kineto-style export).
func TestTotalsMatchFullReduceOnGenerated(t *testing.T) {
	cfgs := map[string]gen.Config{
		"default":  {Steps: 3},
		"rank":     {Steps: 4, Layers: 2, World: 8, Rank: 5, Straggler: 5, StragglerDelay: 3_000_000},
		"gpubound": {Steps: 3, Layers: 1, Warm: true, GPUBound: true, Noise: gen.Noise{Seed: 7, Jitter: 0.05}},
		"slowgemm": {Steps: 3, GPUBound: true, Noise: gen.Noise{Seed: 3, Jitter: 0.05, Slow: []gen.Slow{{Pattern: regexp.MustCompile("sgemm"), Factor: 1.3}}}},
		"memory":   {Steps: 3, Memory: gen.Memory{AllocsPerOp: 2, LeakBytes: 1 << 20}},
		"compiled": {Steps: 3, Variant: "compiled"},
		"triton":   {Steps: 3, Variant: "triton"},
		"capture":  {Steps: 3, Capture: 4},
		"kineto":   {Steps: 3, Kineto: gen.Kineto{Export: true}},
		"modules":  {Steps: 2, Modules: true, Layers: 3},
	}
	for _, s := range gen.Scenarios {
		cfgs["scenario-"+s] = gen.Config{Steps: 3, Scenario: s}
	}
	for name, cfg := range cfgs {
		var b bytes.Buffer
		if _, err := gen.Write(&b, cfg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := fmt.Sprintf("%s.json", name)
		tr, err := parse.Read(bytes.NewReader(b.Bytes()), path, parse.Options{NoExtras: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := sameAsFull(t, tr, path); n < 3 {
			t.Errorf("%s: %d values compared, want the totals and some rows", name, n)
		}
	}
}
