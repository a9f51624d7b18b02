package parse

import (
	"bytes"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// maxAllocsPerEvent bounds the parser's steady state: once every name,
// thread and key has been seen, an event costs no allocation of its own;
// only the store's chunks (one per 32768 events) and rare growth remain.
const maxAllocsPerEvent = 0.01

// TestSteadyStateAllocs parses two generated traces that differ only in
// their number of steps and divides the extra allocations by the extra
// events: the cost of one more event once the parser is warm. Every
// benchmark shape (gen.BenchShapes: the default, the Kineto style with
// shapes, strides and memory records, and its deep export form), read
// in each reading a command asks for (readModes: full, lean, bare, shapes,
// dims), so every command's reading is held on every shape.
func TestSteadyStateAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("parses two generated traces several times")
	}
	for _, sh := range gen.BenchShapes() {
		for _, mode := range readModes {
			name := sh.Name + "/" + mode.name
			measure := func(steps int) (allocs float64, events int) {
				cfg := sh.Cfg
				cfg.Steps = steps
				var buf bytes.Buffer
				if _, err := gen.Write(&buf, cfg); err != nil {
					t.Fatal(err)
				}
				data := buf.Bytes()
				allocs = testing.AllocsPerRun(3, func() {
					tr, err := Read(bytes.NewReader(data), "alloc", mode.opts)
					if err != nil {
						t.Fatal(err)
					}
					events = tr.NumEvents() + tr.MemRecords
				})
				return allocs, events
			}
			a1, n1 := measure(50)
			a2, n2 := measure(200)
			if n2 <= n1 {
				t.Fatalf("%s: the larger trace has %d events, the smaller %d", name, n2, n1)
			}
			per := (a2 - a1) / float64(n2-n1)
			t.Logf("%s: %d events: %.0f allocs; %d events: %.0f allocs; %.4f allocs per extra event", name, n1, a1, n2, a2, per)
			if per > maxAllocsPerEvent {
				t.Errorf("%s: the parser allocates %.4f times per event in its steady state, more than %.2f", name, per, maxAllocsPerEvent)
			}
		}
	}
}
