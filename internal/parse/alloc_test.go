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
// events: the cost of one more event once the parser is warm.
func TestSteadyStateAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("parses two generated traces several times")
	}
	measure := func(steps int) (allocs float64, events int) {
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, gen.Config{Steps: steps, Layers: 8}); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		allocs = testing.AllocsPerRun(3, func() {
			tr, err := Read(bytes.NewReader(data), "alloc", Options{})
			if err != nil {
				t.Fatal(err)
			}
			events = tr.NumEvents()
		})
		return allocs, events
	}
	a1, n1 := measure(50)
	a2, n2 := measure(200)
	if n2 <= n1 {
		t.Fatalf("the larger trace has %d events, the smaller %d", n2, n1)
	}
	per := (a2 - a1) / float64(n2-n1)
	t.Logf("%d events: %.0f allocs; %d events: %.0f allocs; %.4f allocs per extra event", n1, a1, n2, a2, per)
	if per > maxAllocsPerEvent {
		t.Errorf("the parser allocates %.4f times per event in its steady state, more than %.2f", per, maxAllocsPerEvent)
	}
}
