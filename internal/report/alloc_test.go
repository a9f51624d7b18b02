package report

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on what the report's models (NewInputs: the summary, the gaps,
// the memory curves, the op and kernel tables, the categories, the module
// tree and the duration lists) allocate for each event the trace grows
// by: measured 109 (default), 119 (export) and 183 (Kineto: its memory
// records add their points to the memory model and curves) bytes; and
// allocations that grow with the steps (per-step lists of the gaps, the
// categories and the step durations, some 10-20 per step of 150-270
// events: 0.07-0.13 per event added) but not with the events (one per
// event would add 1).
const (
	maxInputsBytesPerEvent  = 260
	maxInputsAllocsPerEvent = 0.25
)

// TestNewInputsMemory holds on the three bench shapes (gen.BenchShapes),
// from 50 to 200 steps, read as report reads them (DimsOnly).
func TestNewInputsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and reads six traces")
	}
	got := benchtrace.Measure(t, parse.Options{DimsOnly: true}, nil, func(tr *trace.Trace) int {
		in := NewInputs(tr, "mem")
		if in.Ops == nil || in.Gaps == nil {
			t.Fatalf("no op table or gaps report: notes %q", in.Notes)
		}
		return len(in.Ops.Rows)
	})
	for _, a := range got {
		perEvent, allocsPerEvent := a.AddedPerEvent()
		t.Logf("%s: %.1f bytes and %.4f allocations per event added (%d events: %d bytes, %d allocations)", a.Shape, perEvent, allocsPerEvent,
			a.Large.Events, a.Large.Bytes, a.Large.Allocs)
		if perEvent > maxInputsBytesPerEvent {
			t.Errorf("%s: the report's models allocate %.1f bytes per event added, more than %d", a.Shape, perEvent, maxInputsBytesPerEvent)
		}
		if allocsPerEvent > maxInputsAllocsPerEvent {
			t.Errorf("%s: the report's models make %.4f allocations per event added: they allocate per event", a.Shape, allocsPerEvent)
		}
	}
}
