package reportview

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/report"
)

// Bounds on what the page's model step allocates (Build: the step chart,
// the timeline's lanes, rows, chosen events and levels; and the page's
// data) for each event the trace grows by, with the written events and
// the cells of the bands held to the same count (the limits): the
// timeline's columns per event (flags, rows, depth, page positions, the
// drawn lists, the levels' candidates and the rounds' lists: 77-81
// bytes measured; the Kineto shape's memory records add their points to
// the memory curves and the data: 113), and allocations that grow with the steps (the step
// chart's and the categories' lists, some 9 per step of about 150
// events: 0.055 per event added) but not with the events.
const (
	maxPageBytesPerEvent  = 160 // per event added
	maxPageAllocsPerEvent = 0.25
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
	for _, sh := range gen.BenchShapes() {
		measure := func(steps int) (size uint64, allocs uint64, events int) {
			cfg := sh.Cfg
			cfg.Steps = steps
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, cfg); err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "mem", parse.Options{DimsOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			in := report.NewInputs(tr, "mem")
			var a, b runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&a)
			p := Build(tr, in, o)
			data, err := p.data(tr)
			runtime.ReadMemStats(&b)
			if err != nil || len(data) == 0 || p.Timeline.Written == 0 {
				t.Fatalf("the page's data: %v, %d bytes, %d events written", err, len(data), p.Timeline.Written)
			}
			return b.TotalAlloc - a.TotalAlloc, b.Mallocs - a.Mallocs, tr.NumEvents()
		}
		b1, a1, n1 := measure(50)
		b2, a2, n2 := measure(200)
		perEvent := float64(int64(b2)-int64(b1)) / float64(n2-n1)
		allocsPerEvent := float64(int64(a2)-int64(a1)) / float64(n2-n1)
		t.Logf("%s: %d events: %d bytes, %d allocations; %d events: %d bytes, %d allocations: %.1f bytes and %.4f allocations per event added",
			sh.Name, n1, b1, a1, n2, b2, a2, perEvent, allocsPerEvent)
		if perEvent > maxPageBytesPerEvent {
			t.Errorf("%s: the page's model allocates %.1f bytes per event added, more than %d", sh.Name, perEvent, maxPageBytesPerEvent)
		}
		if allocsPerEvent > maxPageAllocsPerEvent {
			t.Errorf("%s: the page's model makes %.4f allocations per event added: it allocates per event", sh.Name, allocsPerEvent)
		}
	}
}
