package benchtrace

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// AllocSteps are the step counts of the smaller trace Measure reads; the
// larger has 4 times as many.
const AllocSteps = 50

// Sample is what one run of a model step allocated on one trace.
type Sample struct {
	Steps, Events int
	Allocs, Bytes uint64
	Found         int // what the step returned (> 0)
}

// BytesPerEvent is Bytes over the trace's events.
func (s Sample) BytesPerEvent() float64 { return float64(s.Bytes) / float64(s.Events) }

// Allocs is a model step's samples on one benchmark shape at AllocSteps
// steps (Small) and 4 times as many (Large).
type Allocs struct {
	Shape        string
	Small, Large Sample
}

// AddedPerEvent is the bytes and allocations per event the larger trace
// adds over the smaller.
func (a Allocs) AddedPerEvent() (bytes, allocs float64) {
	n := float64(a.Large.Events - a.Small.Events)
	return float64(int64(a.Large.Bytes)-int64(a.Small.Bytes)) / n, float64(int64(a.Large.Allocs)-int64(a.Small.Allocs)) / n
}

// Measure runs step once on a generated trace of each benchmark shape
// (gen.BenchShapes, adjusted by cfg when not nil) at AllocSteps and 4
// times as many steps, read with opts and linked, and returns what the
// step allocated (the parse and the links not counted). A step that finds
// nothing (returns 0) fails the test.
func Measure(t testing.TB, opts parse.Options, cfg func(*gen.Config), step func(*trace.Trace) int) []Allocs {
	t.Helper()
	return MeasurePrepared(t, opts, cfg, func(tr *trace.Trace) func() int { return func() int { return step(tr) } })
}

// MeasurePrepared is Measure for a step with inputs of its own: prepare
// makes them (not counted) and returns the step that is measured.
func MeasurePrepared(t testing.TB, opts parse.Options, cfg func(*gen.Config), prepare func(*trace.Trace) func() int) []Allocs {
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
			step := prepare(tr)
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			found := step()
			runtime.ReadMemStats(&m1)
			if found <= 0 {
				t.Fatalf("%s, %d steps: the model step found nothing", s.Name, steps)
			}
			smp := Sample{Steps: steps, Events: tr.NumEvents(), Allocs: m1.Mallocs - m0.Mallocs, Bytes: m1.TotalAlloc - m0.TotalAlloc, Found: found}
			if k == 0 {
				a.Small = smp
			} else {
				a.Large = smp
			}
		}
		t.Logf("%s: %d steps: %d allocations, %.1f bytes per event; %d steps: %d allocations, %.1f bytes per event",
			a.Shape, a.Small.Steps, a.Small.Allocs, a.Small.BytesPerEvent(), a.Large.Steps, a.Large.Allocs, a.Large.BytesPerEvent())
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
		if b := a.Large.BytesPerEvent(); b > maxBytes {
			t.Errorf("%s: the model step allocates %.1f bytes per event, more than %g", a.Shape, b, maxBytes)
		}
		if a.Large.Allocs > a.Small.Allocs+maxGrowth {
			t.Errorf("%s: the model step makes %d allocations for 4 times the events of %d (more than %d more): it allocates per event",
				a.Shape, a.Large.Allocs, a.Small.Allocs, maxGrowth)
		}
	}
}
