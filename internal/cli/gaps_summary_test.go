package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

// TestGapsSummary: gaps over a generated trace of 100 steps summarises
// its step lists (the breakdown and the steps table): the steps table's
// CPU time median and max are the raw ProfilerStep#N durations', the cold
// step is listed; --all lists the 100 steps in each.
func TestGapsSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "steps100.json")
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 100, Noise: gen.Noise{Seed: 3, Jitter: 0.1}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	var durs []int64
	for _, d := range rawStepDurs(t, path) {
		durs = append(durs, d)
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	out, stderr, code := run(t, "gaps", "--width", "100", path)
	all, _, _ := run(t, "gaps", "--width", "100", "--all", path)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	steps := out[strings.LastIndex(out, "\nsteps ("):]
	for label, ns := range map[string]int64{"median": rawMedian(durs), "max": durs[len(durs)-1]} {
		m := regexp.MustCompile(`(?m)^ +` + label + ` +(\S+)`).FindStringSubmatch(steps)
		if m == nil || m[1] != units.Dur(ns) {
			t.Errorf("steps %s row %v, want CPU time %s", label, m, units.Dur(ns))
		}
	}
	if !regexp.MustCompile(`(?m)^ +2 .* cold$`).MatchString(steps) {
		t.Errorf("the cold step is not listed:\n%s", steps)
	}
	if c := strings.Count(out, "100 steps: min, median, p90, max"); c != 2 {
		t.Errorf("%d summaries, want 2 (breakdown, steps)", c)
	}
	if n, m := strings.Count(out, "\n"), strings.Count(all, "\n"); n+2*(100-15) > m {
		t.Errorf("default %d lines, --all %d", n, m)
	}
	allSteps := all[strings.LastIndex(all, "\nsteps ("):]
	if c := len(regexp.MustCompile(`(?m)^ +\d+ +\d`).FindAllString(allSteps, -1)); c != 100 {
		t.Errorf("--all: %d rows in the steps table", c)
	}
}

// TestGapsSummaryReal: on every shared trace with steps (none has more
// than 20) gaps prints the same with and without --all.
func TestGapsSummaryReal(t *testing.T) {
	shared := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	checked := 0
	for _, p := range paths {
		if len(rawStepDurs(t, p)) == 0 {
			continue
		}
		a, _, code := run(t, "gaps", "--width", "100", p)
		b, _, _ := run(t, "gaps", "--width", "100", "--all", p)
		if code != 0 || a != b {
			t.Errorf("%s: exit %d; default and --all differ", filepath.Base(p), code)
		}
		checked++
	}
	if checked < 6 {
		t.Errorf("checked %d shared traces with steps, want at least 6", checked)
	}
}
