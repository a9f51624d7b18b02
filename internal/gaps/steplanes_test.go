package gaps

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestStepLanesAsTraceSteps: the per-step rows equal those built from
// trace.Steps (the model's own definition), with and without a filter on
// the device ops and a step range, on the sample and on every shared trace
// with profiler steps.
func TestStepLanesAsTraceSteps(t *testing.T) {
	files := testTraces(t)
	withSteps := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".tar.gz") {
			continue
		}
		tr, err := openCached(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(tr.StepWindows()) == 0 {
			continue
		}
		withSteps++
		odd := func(i int) bool { return i%2 == 1 }
		for _, keep := range []func(int) bool{nil, odd} {
			for _, o := range []Options{{}, {HasStep: true, StepLo: tr.StepWindows()[0].N, StepHi: tr.StepWindows()[0].N}} {
				got := stepLanes(tr, o, keep)
				var want []StepLane
				for _, s := range tr.Steps(keep) {
					if o.HasStep && (s.N < o.StepLo || s.N > o.StepHi) {
						continue
					}
					want = append(want, StepLane{Step: s.N, StartNs: s.Start - tr.TraceStart, CPUNs: s.End - s.Start, GPUWindowNs: s.GPUWindowNs,
						GPUBusyNs: s.GPUBusyNs, GPUIdleNs: s.GPUIdleNs, LargestGap: s.LargestGapNs, Cold: s.Cold})
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s (filtered %v, %+v): stepLanes differs from trace.Steps\n got %+v\nwant %+v", filepath.Base(f), keep != nil, o, got, want)
				}
			}
		}
	}
	if withSteps < 2 {
		t.Errorf("only %d traces with steps checked", withSteps)
	}
}

// TestBreakdownRunsAsCPURuns: the CPU runs found in the breakdown's pass
// equal cpuRuns' own pass, and the breakdown is stepBreakdown's, on the
// sample and every shared trace.
func TestBreakdownRunsAsCPURuns(t *testing.T) {
	files := testTraces(t)
	nonEmpty := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".tar.gz") {
			continue
		}
		tr, err := openCached(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		l := tr.Links()
		launchers, _ := activeThreads(tr, l)
		all := func(int64) bool { return true }
		b, got := stepBreakdownRuns(tr, l, all, launchers)
		want := cpuRuns(tr, l, launchers)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d runs from the breakdown's pass, %d from cpuRuns", filepath.Base(f), len(got), len(want))
		}
		if len(want) > 0 {
			nonEmpty++
		}
		if b0 := stepBreakdown(tr, l, all); (b0 == nil) != (b == nil) || (b != nil && !reflect.DeepEqual(*b0, *b)) {
			t.Errorf("%s: the breakdown differs when it also finds the CPU runs", filepath.Base(f))
		}
	}
	if nonEmpty < 2 {
		t.Errorf("only %d traces with CPU runs on launching threads", nonEmpty)
	}
}

// TestBreakdownStreamAsLists: the streaming pass (one step's intervals at a
// time) gives every step's role times of the lists of the whole trace, on
// the sample, every shared trace and generated ones, whatever steps are
// selected (every one, every other one, one in the middle).
func TestBreakdownStreamAsLists(t *testing.T) {
	files := testTraces(t)
	withSteps := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".tar.gz") {
			continue
		}
		tr, err := openCached(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		l := tr.Links()
		launchers, _ := activeThreads(tr, l)
		win := tr.StepWindows()
		if len(win) > 0 {
			withSteps++
		}
		mid := int64(-1)
		if len(win) > 0 {
			mid = win[len(win)/2].N
		}
		for name, keep := range map[string]func(int64) bool{
			"all":  func(int64) bool { return true },
			"odd":  func(n int64) bool { return n%2 == 1 },
			"one":  func(n int64) bool { return n == mid },
			"none": func(int64) bool { return false },
		} {
			b, runs := stepBreakdownRuns(tr, l, keep, launchers)
			listRolesOnly = true
			b0, runs0 := stepBreakdownRuns(tr, l, keep, launchers)
			listRolesOnly = false
			if (b0 == nil) != (b == nil) || (b != nil && !reflect.DeepEqual(*b0, *b)) {
				t.Errorf("%s (%s steps): streaming breakdown %+v, from lists %+v", filepath.Base(f), name, b, b0)
			}
			if !slices.Equal(runs, runs0) {
				t.Errorf("%s (%s steps): %d CPU runs streaming, %d by cpuRuns", filepath.Base(f), name, len(runs), len(runs0))
			}
		}
	}
	if withSteps < 5 {
		t.Errorf("only %d traces with steps checked", withSteps)
	}
}

// testTraces is the sample, a generated trace of each scenario (so the
// checks hold without ../shared too) and every shared trace when present.
func testTraces(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")}
	for _, sc := range []string{"dataloader", "preprocess", "sync", "wait"} {
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, gen.Config{Steps: 6, Scenario: sc}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), sc+".json")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if d, ok := testenv.SharedDir(); ok {
		more, _ := filepath.Glob(filepath.Join(d, "traces", "*.json*"))
		files = append(files, more...)
	}
	return files
}
