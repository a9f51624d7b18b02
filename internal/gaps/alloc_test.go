package gaps

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// Bounds on what Analyze allocates beyond the trace (the command's
// options, with the text's step cells), on each benchmark shape: a few
// columns of the device ops and the steps (measured 2026-12-07 at 200
// steps: 34 to 59 bytes per event; about 130 on the default shape before
// the devices' efficiency stopped gathering and sorting every kernel), and
// allocations that grow with the steps, never with the events (measured
// 14 per step, which holds 156 to 275 events: its row, its cells, its
// role lists).
const (
	maxAnalyzeBytesPerEvent = 90
	maxAnalyzeAllocsPerStep = 20 // extra allocations per extra step, 50 -> 200 steps
)

// TestAnalyzeMemory holds Analyze to those bounds on each benchmark shape.
func TestAnalyzeMemory(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates on its own")
	}
	for _, sh := range gen.BenchShapes() {
		measure := func(steps int) (bytesPerEvent float64, allocs uint64) {
			cfg := sh.Cfg
			cfg.Steps = steps
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, cfg); err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "mem", parse.Options{NoExtras: true, NoMemory: true})
			if err != nil {
				t.Fatal(err)
			}
			tr.Links()
			tr.StepWindows()
			var a, b runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&a)
			r := Analyze(tr, Options{Device: -1, Stream: -1, Top: 10, Cells: 16})
			runtime.ReadMemStats(&b)
			if len(r.Devices) == 0 || len(r.Steps) == 0 || r.Efficiency == nil {
				t.Fatalf("%s: Analyze found %d devices, %d steps", sh.Name, len(r.Devices), len(r.Steps))
			}
			return float64(b.TotalAlloc-a.TotalAlloc) / float64(tr.NumEvents()), b.Mallocs - a.Mallocs
		}
		b1, a1 := measure(50)
		b2, a2 := measure(200)
		t.Logf("%s: 50 steps: %.1f bytes per event, %d allocations; 200 steps: %.1f bytes per event, %d allocations", sh.Name, b1, a1, b2, a2)
		if b2 > maxAnalyzeBytesPerEvent {
			t.Errorf("%s: Analyze allocates %.1f bytes per event, more than %d", sh.Name, b2, maxAnalyzeBytesPerEvent)
		}
		if a2 > a1+150*maxAnalyzeAllocsPerStep {
			t.Errorf("%s: Analyze makes %d allocations for 4 times the steps and events of %d, more than %d per step: it allocates per event", sh.Name, a2, a1, maxAnalyzeAllocsPerStep)
		}
	}
}
