package export

import (
	"context"
	"io"
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/pqcol"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on encoding the events dataset (encodeEvents, to io.Discard):
// the block's columns (a fixed 32 Ki rows), each column chunk's compressed
// pages and dictionary, the zstd encoders; allocations come per page (a
// header, its statistics), per row group and per new dictionary entry,
// not per event. Measured 2026-12-07 on the three shapes at 50 and 200
// steps: 357-732 bytes per event (falling as the trace grows past a
// block), 1,938-2,636 allocations, 61-698 more for 4 times the events.
const (
	maxEventsBytesPerEvent = 1000
	maxEventsAllocGrowth   = 2000
)

// TestEventsAllocs: encoding the events dataset allocates per block of
// rows and per page, never per event.
func TestEventsAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("generates traces")
	}
	codec, _ := codecOf("")
	got := benchtrace.MeasurePrepared(t, parse.Options{}, nil, func(tr *trace.Trace) func() int {
		c := &common{id: "0123456789abcdef"}
		of := eventSteps(tr)
		s := &fileSpec{traceID: c.id, codec: codec, rowGroups: RowGroupRows, version: "test"}
		meta, err := pqcol.Template[EventRow](s.options(DatasetEvents)...)
		if err != nil {
			t.Fatal(err)
		}
		return func() int {
			if err := encodeEvents(context.Background(), pqcol.New(io.Discard, meta, codec), RowGroupRows, c, tr, of, 0, tr.NumEvents()); err != nil {
				t.Fatal(err)
			}
			return tr.NumEvents()
		}
	})
	benchtrace.Hold(t, got, maxEventsBytesPerEvent, maxEventsAllocGrowth)
}
