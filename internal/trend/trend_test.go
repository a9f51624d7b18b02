package trend_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trend"
)

const (
	day       = int64(86_400) * 1_000_000_000
	firstNite = int64(1_793_498_400) * 1_000_000_000 // 2026-11-01 02:00 UTC
	gemmName  = "ampere_sgemm_32x32_sliced1x4_nn"
)

// night is the generator's config of one night of a GPU-bound workload
// with 5% jitter: night k (0-based) starts k days after the first.
func night(k int) gen.Config {
	return gen.Config{Steps: 3, Layers: 1, Warm: true, GPUBound: true, BaseTimeNs: firstNite + int64(k)*day,
		Noise: gen.Noise{Seed: uint64(k + 1), Jitter: 0.05}}
}

func slowGEMM(c *gen.Config) {
	c.Noise.Slow = append(c.Noise.Slow, gen.Slow{Pattern: regexp.MustCompile("ampere_sgemm"), Factor: 1.3})
}

// series generates n nights (in parallel), edit changing night k's
// config, and reduces each to a Run.
func series(t *testing.T, n int, edit func(k int, c *gen.Config)) []*trend.Run {
	t.Helper()
	runs := make([]*trend.Run, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for k := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			cfg := night(k)
			if edit != nil {
				edit(k, &cfg)
			}
			var b bytes.Buffer
			if _, err := gen.Write(&b, cfg); err != nil {
				errs[k] = err
				return
			}
			path := fmt.Sprintf("nightly/night-%02d.json", k+1)
			tr, err := parse.Read(bytes.NewReader(b.Bytes()), path, parse.Options{NoExtras: true})
			if err != nil {
				errs[k] = err
				return
			}
			runs[k], errs[k] = trend.Summarize(tr, path)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return runs
}

func analyze(t *testing.T, runs []*trend.Run) *trend.Result {
	t.Helper()
	res, err := trend.Analyze(runs, trend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func metric(t *testing.T, res *trend.Result, name string) trend.Metric {
	t.Helper()
	for _, m := range res.Metrics {
		if m.Name == name {
			return m
		}
	}
	var have []string
	for _, m := range res.Metrics {
		have = append(have, m.Name)
	}
	t.Fatalf("no metric %s; have %s", name, strings.Join(have, ", "))
	return trend.Metric{}
}

func rule(t *testing.T, s string) trend.Rule {
	t.Helper()
	r, err := trend.ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A 30% slower GEMM from night 18 on: one change point at night 18 (index
// 17, the first run of the new level) on the GEMM's row, its op's row and
// the step time, none on the other kernels; step_time>+5% fails within
// the newest 13 nights and passes within the newest 5 (the change is
// older).
func TestPlantedSlowdown(t *testing.T) {
	res := analyze(t, series(t, 30, func(k int, c *gen.Config) {
		if k >= 17 {
			slowGEMM(c)
		}
	}))
	if len(res.Runs) != 30 || len(res.LeftOut) != 0 {
		t.Fatalf("%d runs, %d left out", len(res.Runs), len(res.LeftOut))
	}
	for _, name := range []string{trend.StepTime, trend.KernelPrefix + gemmName, trend.OpPrefix + "aten::mm"} {
		m := metric(t, res, name)
		if len(m.Points) != 1 || m.Points[0].Index != 17 {
			t.Errorf("%s: change points %+v, want one at index 17", name, m.Points)
			continue
		}
		c := m.Points[0]
		if c.Run != "nightly/night-18.json" || c.PValue > 0.01 || c.After <= c.Before {
			t.Errorf("%s: %+v", name, c)
		}
		if name != trend.StepTime && (c.ChangePct < 25 || c.ChangePct > 35) {
			t.Errorf("%s: change %v%%, want about +30%%", name, c.ChangePct)
		}
	}
	kernels := 0
	for _, m := range res.Metrics {
		if !strings.HasPrefix(m.Name, trend.KernelPrefix) {
			continue
		}
		kernels++
		if m.Name != trend.KernelPrefix+gemmName && len(m.Points) > 0 {
			t.Errorf("%s: change points %+v, want none", m.Name, m.Points)
		}
	}
	if kernels != 5 {
		t.Errorf("%d kernel metrics, want the top 5", kernels)
	}
	if g := res.Gate([]trend.Rule{rule(t, "step_time>+5%")}, 13); !g.Failed() || len(g.Violations) != 1 {
		t.Errorf("window 13: %+v, want one violation", g)
	}
	if g := res.Gate([]trend.Rule{rule(t, "step_time>+5%")}, 5); g.Failed() {
		t.Errorf("window 5: %+v, want a pass (the change is 13 runs old)", g)
	}
	if g := res.Gate([]trend.Rule{rule(t, "step_time<-5%"), rule(t, "kernel:*>+40%")}, 30); g.Failed() {
		t.Errorf("rules the change does not break: %+v", g)
	}
	if g := res.Gate([]trend.Rule{rule(t, "kernel:*>+20%")}, 30); len(g.Violations) != 1 {
		t.Errorf("kernel:*>+20%%: %+v, want one violation", g)
	}
}

// The same nights without the slowdown, and with one slow night alone:
// no change point anywhere.
func TestNoiseAndOutlier(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(int, *gen.Config)
	}{
		{"noise", nil},
		{"one slow night", func(k int, c *gen.Config) {
			if k == 14 {
				slowGEMM(c)
			}
		}},
		{"the newest night slow", func(k int, c *gen.Config) {
			if k == 29 {
				slowGEMM(c)
			}
		}},
	} {
		res := analyze(t, series(t, 30, c.edit))
		for _, m := range res.Metrics {
			if len(m.Points) > 0 {
				t.Errorf("%s: %s has change points %+v", c.name, m.Name, m.Points)
			}
		}
		if g := res.Gate([]trend.Rule{rule(t, "step_time>+5%"), rule(t, "kernel:*>+5%")}, 5); g.Failed() {
			t.Errorf("%s: the gate fails: %+v", c.name, g)
		}
	}
}

// Runs are ordered by their wall-clock start, not by their names; a run
// with another step structure is left out, never mixed in.
func TestOrderAndComparability(t *testing.T) {
	runs := series(t, 8, func(k int, c *gen.Config) {
		c.BaseTimeNs = firstNite + int64(7-k)*day // names in the reverse order of time
		if k == 3 {
			c.Steps = 4
		}
	})
	res := analyze(t, runs)
	if len(res.Runs) != 7 || len(res.LeftOut) != 1 {
		t.Fatalf("%d runs, left out %+v", len(res.Runs), res.LeftOut)
	}
	if l := res.LeftOut[0]; l.Path != "nightly/night-04.json" || l.Field != "steps" || l.Value != "4" || l.Series != "3" {
		t.Errorf("left out %+v", l)
	}
	if res.Runs[0].Path != "nightly/night-08.json" || res.Runs[6].Path != "nightly/night-01.json" {
		t.Errorf("order: %s ... %s", res.Runs[0].Path, res.Runs[6].Path)
	}
	byName, err := trend.Analyze(runs, trend.Options{OrderByName: true})
	if err != nil {
		t.Fatal(err)
	}
	if byName.Runs[0].Path != "nightly/night-01.json" {
		t.Errorf("--order name: first %s", byName.Runs[0].Path)
	}
	// a run without a wall clock cannot be ordered by time
	runs[0].HasClock = false
	if _, err := trend.Analyze(runs, trend.Options{}); err == nil || !strings.Contains(err.Error(), "--order name") {
		t.Errorf("no wall clock: %v", err)
	}
}

// Traces with [memory] records have the peak; exposed communication
// comes from the all-reduce.
func TestMemoryAndComm(t *testing.T) {
	runs := series(t, 1, func(k int, c *gen.Config) { c.Memory = gen.Memory{AllocsPerOp: 1} })
	r := runs[0]
	if v, ok := r.Values[trend.PeakAllocated+":cuda:0"]; !ok || v <= 0 {
		t.Errorf("peak_allocated:cuda:0 = %v, %v; have %v", v, ok, r.Values)
	}
	if _, ok := r.Values[trend.ExposedComm]; !ok {
		t.Errorf("no exposed_comm: %v", r.Values)
	}
}

func TestParseRule(t *testing.T) {
	for s, want := range map[string]trend.Rule{
		"step_time>+5%":      {Pattern: "step_time", Up: true, Pct: 5},
		"step_time>5":        {Pattern: "step_time", Up: true, Pct: 5},
		"op:aten::mm<-20%":   {Pattern: "op:aten::mm", Pct: 20},
		"kernel:*>+12.5%":    {Pattern: "kernel:*", Up: true, Pct: 12.5},
		"gpu_idle_pct > +3%": {Pattern: "gpu_idle_pct", Up: true, Pct: 3},
	} {
		got, err := trend.ParseRule(s)
		want.Text = s
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", s, got, err, want)
		}
	}
	for _, s := range []string{"step_time", ">5%", "step_time>-5%", "step_time<+5%", "step_time>x", "x[>5%"} {
		if _, err := trend.ParseRule(s); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}
