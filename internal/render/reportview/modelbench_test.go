package reportview

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// The timeline's model step (lanes, rows, the events written, the levels
// of detail), the parse and the links not timed, on a generated trace (200
// steps, 8 layers: about 8 MB of JSON) and on TRACETAB_BENCH_FILE, read
// with shapes as report reads them.

func timelineStep(t *trace.Trace) int {
	tl := BuildTimeline(t, DefaultLimits, 0, t.Events.At(t.NumEvents()-1).End()-t.TraceStart, nil)
	return tl.Written
}

// BenchmarkTimelineModel is the timeline of a generated trace.
func BenchmarkTimelineModel(b *testing.B) {
	t, n := benchtrace.Generated(b, gen.Config{Steps: 200, Layers: 8}, parse.Options{})
	benchtrace.Run(b, t, n, timelineStep)
}

// BenchmarkTimeline is the timeline of TRACETAB_BENCH_FILE.
func BenchmarkTimeline(b *testing.B) {
	t, n := benchtrace.File(b, parse.Options{})
	benchtrace.Run(b, t, n, timelineStep)
}
