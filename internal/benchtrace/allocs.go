package benchtrace

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Allocs is what a model step allocated on one benchmark shape at two
// sizes (steps: Small and 4 times as many): its allocations and bytes per
// event of the trace.
type Allocs struct {
	Shape                    string
	SmallAllocs, LargeAllocs uint64
	SmallBytes, LargeBytes   float64 // per event
}

// AllocSteps are the step counts of the two sizes Measure reads.
const AllocSteps = 50

// Measure runs step once on a generated trace of each benchmark shape
// (gen.BenchShapes, adjusted by cfg when not nil) at AllocSteps and 4
// times as many steps, read with opts and linked, and returns what the
// step allocated (the parse and the links not counted). A step that finds
// nothing (returns 0) fails the test.
func Measure(t testing.TB, opts parse.Options, cfg func(*gen.Config), step func(*trace.Trace) int) []Allocs {
	t.Helper()
	var out []Allocs
	for _, s := range gen.BenchShapes() {
		a := Allocs{Shape: s.Name}
		for k, steps := range []int{AllocSteps, 4 * AllocSteps} {
			c := s.Cfg
			if cfg != nil {
				cfg(&c)
			}
			c.Steps = steps
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, c); err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "allocs", opts)
			if err != nil {
				t.Fatal(err)
			}
			tr.Links()
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			found := step(tr)
			runtime.ReadMemStats(&m1)
			if found == 0 {
				t.Fatalf("%s, %d steps: the model step found nothing", s.Name, steps)
			}
			n, b := m1.Mallocs-m0.Mallocs, float64(m1.TotalAlloc-m0.TotalAlloc)/float64(tr.NumEvents())
			if k == 0 {
				a.SmallAllocs, a.SmallBytes = n, b
			} else {
				a.LargeAllocs, a.LargeBytes = n, b
			}
		}
		out = append(out, a)
	}
	return out
}

// Hold fails t when a step allocates per event on a shape: more than
// maxBytes bytes per event on the larger trace, or more than maxGrowth
// allocations more for 4 times the events (a step that keeps no
// per-event result allocates about as often on both).
func Hold(t testing.TB, got []Allocs, maxBytes float64, maxGrowth uint64) {
	t.Helper()
	for _, a := range got {
		t.Logf("%s: %d steps: %d allocations, %.1f bytes per event; %d steps: %d allocations, %.1f bytes per event",
			a.Shape, AllocSteps, a.SmallAllocs, a.SmallBytes, 4*AllocSteps, a.LargeAllocs, a.LargeBytes)
		if a.LargeBytes > maxBytes {
			t.Errorf("%s: the model step allocates %.1f bytes per event, more than %g", a.Shape, a.LargeBytes, maxBytes)
		}
		if a.LargeAllocs > a.SmallAllocs+maxGrowth {
			t.Errorf("%s: the model step makes %d allocations for 4 times the events of %d (more than %d more): it allocates per event",
				a.Shape, a.LargeAllocs, a.SmallAllocs, maxGrowth)
		}
	}
}
