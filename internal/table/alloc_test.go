package table

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// Bounds on what key_averages() allocates beyond the trace: a few columns
// of about 21 bytes per event (the trace index, thread, kernel sum, flags,
// and a position per trace event; the tree links reuse the last two), and a
// number of allocations that does not grow with the trace.
const (
	maxComputeBytesPerEvent = 30
	maxComputeAllocGrowth   = 20 // extra allocations for 4 times the events
)

// TestComputeMemory holds on both benchmark shapes (gen.BenchShapes): the
// Kineto one has memory records, whose columns are held compactly.
func TestComputeMemory(t *testing.T) {
	for _, sh := range gen.BenchShapes() {
		measure := func(steps int) (bytesPerEvent float64, allocs uint64) {
			cfg := sh.Cfg
			cfg.Steps = steps
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, cfg); err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "mem", parse.Options{NoExtras: true})
			if err != nil {
				t.Fatal(err)
			}
			tr.Links()
			var a, b runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&a)
			res, err := Compute(tr, Options{})
			runtime.ReadMemStats(&b)
			if err != nil || len(res.Rows) == 0 {
				t.Fatalf("Compute: %v, %d rows", err, len(res.Rows))
			}
			return float64(b.TotalAlloc-a.TotalAlloc) / float64(tr.NumEvents()), b.Mallocs - a.Mallocs
		}
		b1, a1 := measure(50)
		b2, a2 := measure(200)
		t.Logf("%s: 50 steps: %.1f bytes per event, %d allocations; 200 steps: %.1f bytes per event, %d allocations", sh.Name, b1, a1, b2, a2)
		if b2 > maxComputeBytesPerEvent {
			t.Errorf("%s: Compute allocates %.1f bytes per event, more than %d", sh.Name, b2, maxComputeBytesPerEvent)
		}
		if a2 > a1+maxComputeAllocGrowth {
			t.Errorf("%s: Compute makes %d allocations for 4 times the events of %d: it allocates per event", sh.Name, a2, a1)
		}
	}
}
