package reportview

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on what the page's model step allocates (Build: the step chart,
// the timeline's lanes, rows, chosen events and levels; and the page's
// data) for each event the trace grows by, with the written events and
// the cells of the bands held to the same count (the limits): the
// timeline's columns per event (flags, rows, depth, page positions, the
// drawn lists, the levels' candidates and the rounds' lists: 69-87
// bytes measured, 77-81 before the lanes' events were one list and the
// levels' cell rows were kept; the Kineto shape's memory records add
// their points to the memory curves and the data: 113), and allocations
// that grow with the steps (the step chart's and the categories' lists,
// 0.0085-0.011 per event added, 0.055 before the cell rows were kept)
// but not with the events (one per event would add 1).
const (
	maxPageBytesPerEvent  = 160 // per event added
	maxPageAllocsPerEvent = 0.05
)

// TestPageModelMemory holds on the three bench shapes (gen.BenchShapes),
// from 50 to 200 steps, with 2,000 events written and 60,000 cells (level 0,
// which the budget does not cut, fits in them).
func TestPageModelMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and reads six traces")
	}
	o := DefaultOptions
	o.Limits.MaxEvents, o.Limits.MaxCells = 2000, 60000
	got := benchtrace.MeasurePrepared(t, parse.Options{DimsOnly: true}, nil, func(tr *trace.Trace) func() int {
		in := report.NewInputs(tr, "mem")
		return func() int {
			p := Build(tr, in, o)
			data, err := p.data(tr)
			if err != nil || len(data) == 0 {
				t.Fatalf("the page's data: %v, %d bytes", err, len(data))
			}
			return p.Timeline.Written
		}
	})
	for _, a := range got {
		perEvent, allocsPerEvent := a.AddedPerEvent()
		t.Logf("%s: %.1f bytes and %.4f allocations per event added", a.Shape, perEvent, allocsPerEvent)
		if perEvent > maxPageBytesPerEvent {
			t.Errorf("%s: the page's model allocates %.1f bytes per event added, more than %d", a.Shape, perEvent, maxPageBytesPerEvent)
		}
		if allocsPerEvent > maxPageAllocsPerEvent {
			t.Errorf("%s: the page's model makes %.4f allocations per event added: it allocates per event", a.Shape, allocsPerEvent)
		}
	}
}
