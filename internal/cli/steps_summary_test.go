package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

// rawStepDurs is each CPU ProfilerStep#N's duration in ns, read from the
// raw events by number ("ProfilerStep#N" user annotations, not their GPU
// copies).
func rawStepDurs(t *testing.T, path string) map[int64]int64 {
	t.Helper()
	evs, err := rawjson.ReadArgs(path) // the binary's one cached reading (readRaw)
	if err != nil {
		return nil // not a trace (a tar, a non-JSON file): no steps
	}
	out := map[int64]int64{}
	for _, e := range evs {
		if e.Ph != "X" || e.Cat != "user_annotation" || !strings.HasPrefix(e.Name, "ProfilerStep#") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(e.Name, "ProfilerStep#"), 10, 64)
		if err != nil {
			continue
		}
		out[n] = e.Dur
	}
	return out
}

// TestStepsSummary: table --by step over a generated trace of 100 steps
// (jittered, a cold first step) prints the distribution of the CPU time
// as the raw ProfilerStep#N durations give it (min, median, p90 by the
// nearest rank, max), lists the cold step and the steps whose CPU time
// lies more than 3 MADs from the raw median (up to the five listed),
// fits in 20 lines; --all lists the 100 steps; JSON has 100 either way.
func TestStepsSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "steps100.json")
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 100, Noise: gen.Noise{Seed: 3, Jitter: 0.1}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	steps := rawStepDurs(t, path)
	if len(steps) != 100 {
		t.Fatalf("raw: %d steps", len(steps))
	}
	var durs []int64
	var longest int64 = -1
	for n, d := range steps {
		durs = append(durs, d)
		if longest < 0 || d > steps[longest] {
			longest = n
		}
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	want := map[string]int64{"min": durs[0], "median": rawMedian(durs), "p90": durs[int(0.9*float64(len(durs)-1)+0.5)], "max": durs[len(durs)-1]}

	out, stderr, code := run(t, "table", "--by", "step", "--width", "100", path)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	holdToViewGolden(t, "tableview", "steps.summary_100.golden", strings.ReplaceAll(out, path, "TRACE"))
	if n := lines(out, stderr); n > 20 {
		t.Errorf("%d lines", n)
	}
	for label, ns := range want {
		m := regexp.MustCompile(`(?m)^ +` + label + ` +(\S+)`).FindStringSubmatch(out)
		if m == nil || m[1] != units.Dur(ns) {
			t.Errorf("%s row %v, want CPU time %s", label, m, units.Dur(ns))
		}
	}
	if !regexp.MustCompile(`(?m)^ +` + strconv.FormatInt(longest, 10) + ` .*cold\*$`).MatchString(out) {
		t.Errorf("the longest step #%d (cold) is not listed:\n%s", longest, out)
	}
	out, _, _ = run(t, "table", "--by", "step", "--all", path)
	if c := len(regexp.MustCompile(`(?m)^ +\d+ +\d`).FindAllString(out, -1)); c != 100 {
		t.Errorf("--all: %d rows", c)
	}
	var doc struct {
		Steps []json.RawMessage `json:"steps"`
	}
	runJSON(t, &doc, "table", "--by", "step", "--format", "json", path)
	if len(doc.Steps) != 100 {
		t.Errorf("json: %d steps", len(doc.Steps))
	}
	if _, stderr, code := run(t, "table", "--all", path); code != ExitUsage || !strings.Contains(stderr, "--by step") {
		t.Errorf("--all without --by step: exit %d %q", code, stderr)
	}
}

// TestStepsSummaryReal: on every shared trace with steps (none has more
// than 20) the step view is the same with and without --all: nothing is
// summarised below the threshold.
func TestStepsSummaryReal(t *testing.T) {
	shared := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	checked := 0
	for _, p := range paths {
		steps := rawStepDurs(t, p)
		if len(steps) == 0 {
			continue
		}
		a, _, code := run(t, "table", "--by", "step", p)
		b, _, _ := run(t, "table", "--by", "step", "--all", p)
		if code != 0 || a != b {
			t.Errorf("%s: exit %d; default and --all differ", filepath.Base(p), code)
		}
		if got := len(regexp.MustCompile(`(?m)^ +\d+ +\d`).FindAllString(a, -1)); got != len(steps) {
			t.Errorf("%s: %d rows, the raw trace has %d CPU ProfilerStep#N", filepath.Base(p), got, len(steps))
		}
		checked++
	}
	if checked < 6 {
		t.Errorf("checked %d shared traces with steps, want at least 6", checked)
	}
}
