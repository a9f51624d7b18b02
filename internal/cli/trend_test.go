package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// writeNights writes n nights of a GPU-bound workload with 5% jitter into
// a new folder, one day apart, the GEMM 30% slower on the nights slow
// says; edit may change a night's config further.
func writeNights(t *testing.T, n int, slow func(k int) bool, edit func(k int, c *gen.Config)) string {
	t.Helper()
	dir := t.TempDir()
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for k := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			cfg := gen.Config{Steps: 3, Layers: 1, Warm: true, GPUBound: true,
				BaseTimeNs: (1_793_498_400 + int64(k)*86_400) * 1_000_000_000,
				Noise:      gen.Noise{Seed: uint64(k + 1), Jitter: 0.05}}
			if slow != nil && slow(k) {
				cfg.Noise.Slow = []gen.Slow{{Pattern: regexp.MustCompile("ampere_sgemm"), Factor: 1.3}}
			}
			if edit != nil {
				edit(k, &cfg)
			}
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("night-%02d.json", k+1)))
			if err != nil {
				errs[k] = err
				return
			}
			_, errs[k] = gen.Write(f, cfg)
			if err := f.Close(); errs[k] == nil {
				errs[k] = err
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type trendDoc struct {
	Schema  string `json:"schema"`
	Metrics []struct {
		Name         string `json:"name"`
		Values       []any  `json:"values"`
		ChangePoints []struct {
			Index     int      `json:"index"`
			Run       string   `json:"run"`
			ChangePct *float64 `json:"change_pct"`
			PValue    float64  `json:"p_value"`
		} `json:"change_points"`
	} `json:"metrics"`
	LeftOut []struct {
		Run   string `json:"run"`
		Field string `json:"field"`
	} `json:"left_out"`
	Violations []struct {
		Rule string `json:"rule"`
	} `json:"violations"`
}

func TestTrendExitCodes(t *testing.T) {
	slow := writeNights(t, 30, func(k int) bool { return k >= 17 }, nil)
	flat := writeNights(t, 30, nil, nil)

	// the slowdown at night 18 is within the newest 13 nights: exit 1
	out, stderr, code := run(t, "trend", slow, "--fail-on", "step_time>+5%", "--window", "13", "--width", "80")
	if code != ExitCheck {
		t.Fatalf("slowdown, window 13: exit %d, want 1\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "[step_time>+5%] step_time changed by +") || !strings.Contains(stderr, "night-18.json") {
		t.Errorf("stderr does not name the change: %s", stderr)
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	if !regexp.MustCompile(`(?m)^step_time +\S+ +\S+ +#18 \+1\d\.\d\d%$`).MatchString(out) {
		t.Errorf("no step_time line with #18:\n%s", out)
	}
	// older than the newest 5 nights: exit 0
	if _, stderr, code := run(t, "trend", slow, "--fail-on", "step_time>+5%"); code != ExitOK {
		t.Errorf("slowdown, window 5: exit %d, want 0: %s", code, stderr)
	}
	// noise alone: exit 0 with the whole series in the window
	if out, stderr, code := run(t, "trend", flat, "--fail-on", "step_time>+5%", "--fail-on", "kernel:*>+5%", "--window", "30"); code != ExitOK {
		t.Errorf("noise: exit %d, want 0:\n%s%s", code, out, stderr)
	}

	// JSON: the change point's index, run and size
	out, _, code = run(t, "trend", slow, "--format", "json", "--fail-on", "step_time>+5%", "--window", "13")
	if code != ExitCheck {
		t.Fatalf("json: exit %d", code)
	}
	var doc trendDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "tracetab.trend/1" || len(doc.Violations) != 1 {
		t.Errorf("schema %s, violations %+v", doc.Schema, doc.Violations)
	}
	if v := contractViolations([]byte(out)); len(v) > 0 {
		t.Errorf("the output contract: %v", v)
	}
	found := false
	for _, m := range doc.Metrics {
		if len(m.Values) != 30 {
			t.Errorf("%s: %d values", m.Name, len(m.Values))
		}
		if m.Name != "step_time" {
			continue
		}
		found = true
		if len(m.ChangePoints) != 1 {
			t.Fatalf("step_time: %+v", m.ChangePoints)
		}
		c := m.ChangePoints[0]
		if c.Index != 17 || c.Run != filepath.Join(slow, "night-18.json") || c.ChangePct == nil || *c.ChangePct < 10 || c.PValue > 0.01 {
			t.Errorf("step_time change point %+v", c)
		}
	}
	if !found {
		t.Error("no step_time metric")
	}

	// usage errors: exit 2
	for _, args := range [][]string{
		{"trend"},
		{"trend", flat, "--fail-on", "step_time"},
		{"trend", flat, "--window", "0"},
		{"trend", flat, "--alpha", "2"},
		{"trend", flat, "--order", "size"},
		{"trend", flat, "--format", "csv"},
		{"trend", flat, "--min-segment", "1"},
		{"trend", t.TempDir()},
	} {
		if _, stderr, code := run(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2: %s", args, code, stderr)
		}
	}
	// a rule that matches no metric: exit 1, or 0 with --allow-missing
	if _, _, code := run(t, "trend", flat, "--fail-on", "nosuch>+5%"); code != ExitCheck {
		t.Errorf("unmatched rule: exit %d, want 1", code)
	}
	if _, _, code := run(t, "trend", flat, "--fail-on", "nosuch>+5%", "--allow-missing"); code != ExitOK {
		t.Errorf("unmatched rule with --allow-missing: exit %d, want 0", code)
	}
}

// A night with another step structure is named on stderr and left out.
func TestTrendLeftOut(t *testing.T) {
	dir := writeNights(t, 8, nil, func(k int, c *gen.Config) {
		if k == 2 {
			c.Steps = 5
		}
	})
	out, stderr, code := run(t, "trend", dir, "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "tracetab: note: left out of the series: " + filepath.Join(dir, "night-03.json") + ": step count 5, the newest run's is 3"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	var doc trendDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.LeftOut) != 1 || doc.LeftOut[0].Field != "steps" || len(doc.Metrics) == 0 || len(doc.Metrics[0].Values) != 7 {
		t.Errorf("left out %+v, metrics %d", doc.LeftOut, len(doc.Metrics))
	}
}
