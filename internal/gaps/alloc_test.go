package gaps

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on what Analyze allocates beyond the trace (the command's
// options, with the text's step cells), on each benchmark shape: a few
// columns of the device ops and the steps (measured 2026-12-07 at 200
// steps: 34 to 59 bytes per event; about 130 on the default shape before
// the devices' efficiency stopped gathering and sorting every kernel; 31.5
// to 53.8 since the merges take two arrays in all and the queues share
// one; 30.4 to 52.1 since the input preparation words are read in place),
// and allocations that grow with the steps, never with the events
// (measured 14 per step, which holds 156 to 275 events: its row, its
// cells, its role lists; 2.1 since the words of each new name are no
// longer made into strings).
const (
	maxAnalyzeBytesPerEvent = 70
	maxAnalyzeAllocsPerStep = 6 // extra allocations per extra step, 50 -> 200 steps
)

// TestAnalyzeMemory holds Analyze to those bounds on each benchmark shape.
func TestAnalyzeMemory(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates on its own")
	}
	got := benchtrace.MeasurePrepared(t, parse.Options{NoExtras: true, NoMemory: true}, nil, func(tr *trace.Trace) func() int {
		tr.StepWindows()
		return func() int {
			r := Analyze(tr, Options{Device: -1, Stream: -1, Top: 10, Cells: 16})
			if len(r.Devices) == 0 || r.Efficiency == nil {
				return 0
			}
			return len(r.Steps)
		}
	})
	benchtrace.Hold(t, got, maxAnalyzeBytesPerEvent, 3*benchtrace.AllocSteps*maxAnalyzeAllocsPerStep)
}
