package categories

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// sharedTraces lists the shared real traces (not the not-traces).
func sharedTraces(t *testing.T) []string { return testenv.SharedTraces(t) }

func open(t *testing.T, p string) *trace.Trace {
	t.Helper()
	tr, _, err := testcache.Open(p, parse.Options{})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(p), err)
	}
	return tr
}

func sumCells(c *Cells) (ns int64, n int) {
	for _, x := range c {
		ns += x.DeviceNs
		n += x.Kernels
	}
	return ns, n
}

// TestStepsAddUpOnSharedTraces: on every shared trace, the categories add
// up to the trace's device time and, per ProfilerStep, to the step's:
// the durations of the kernels, memcpys and memsets whose launch call (or,
// without one, whose own start) lies in the step's window, by the test's
// own reading of the JSON. Device work launched outside every step adds up
// to Outside.
func TestStepsAddUpOnSharedTraces(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	withSteps, withWork := 0, 0
	for _, p := range sharedTraces(t) {
		name := filepath.Base(p)
		raw := readRaw(t, p)
		res := Build(open(t, p), nil)
		var rawNs int64
		rawStep := map[string]int64{}
		rawStepN := map[string]int{}
		for _, o := range raw.ops {
			rawNs += o.dur
			s := raw.stepOf(o.launch)
			rawStep[s] += o.dur
			rawStepN[s]++
		}
		if res.DeviceNs != rawNs || res.Kernels != len(raw.ops) {
			t.Errorf("%s: %d ns in %d device ops, the raw JSON %d ns in %d", name, res.DeviceNs, res.Kernels, rawNs, len(raw.ops))
		}
		if ns, n := sumCells(&res.Cells); ns != res.DeviceNs || n != res.Kernels {
			t.Errorf("%s: the categories add up to %d ns in %d ops, the total is %d ns in %d", name, ns, n, res.DeviceNs, res.Kernels)
		}
		if len(raw.ops) > 0 {
			withWork++
		}
		if len(raw.steps) == 0 {
			if len(res.Steps) != 0 {
				t.Errorf("%s: %d steps, the raw JSON none", name, len(res.Steps))
			}
			continue
		}
		withSteps++
		if len(res.Steps) != len(raw.steps) {
			t.Errorf("%s: %d steps, the raw JSON %d", name, len(res.Steps), len(raw.steps))
		}
		got := map[string]int64{}
		gotN := map[string]int{}
		for _, s := range res.Steps {
			ns, n := sumCells(&s.Cells)
			if ns != s.DeviceNs || n != s.Kernels {
				t.Errorf("%s step %d: the categories add up to %d ns in %d ops, the step has %d ns in %d", name, s.N, ns, n, s.DeviceNs, s.Kernels)
			}
			k := "ProfilerStep#" + strconv.FormatInt(s.N, 10)
			got[k] += s.DeviceNs
			gotN[k] += s.Kernels
		}
		got[""], gotN[""] = res.Outside.DeviceNs, res.Outside.Kernels
		for k := range rawStep {
			if got[k] != rawStep[k] || gotN[k] != rawStepN[k] {
				t.Errorf("%s %q: %d ns in %d ops, the raw JSON %d ns in %d", name, k, got[k], gotN[k], rawStep[k], rawStepN[k])
			}
		}
		for k := range got {
			if _, ok := rawStep[k]; !ok && got[k] != 0 {
				t.Errorf("%s %q: %d ns, the raw JSON has no device work there", name, k, got[k])
			}
		}
	}
	t.Logf("%d traces with device work, %d with steps", withWork, withSteps)
	if withSteps < 16 || withWork < 21 {
		t.Fatalf("checked %d traces with steps and %d with device work: fewer than the shared traces hold", withSteps, withWork)
	}
}
