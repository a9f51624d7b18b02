package crop

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// Bounds on Write beyond its fixed buffers (the reader's and the 1 MiB
// output buffer, about 5 MiB): nothing per element. Measured 2026-12-07:
// 297-487 allocations and 5.25 MB on both sizes (before the rawEvent's
// strings became views: 3.2 allocations per event).
const (
	maxWriteAllocGrowth = 50
	maxWriteByteGrowth  = 1 << 20
)

// TestWriteAllocs: the second reading (Write, the text streamed through
// the plan) of a crop of one step, on the three benchmark shapes at
// benchtrace.AllocSteps and 4 times as many steps.
func TestWriteAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("generates traces")
	}
	for _, s := range gen.BenchShapes() {
		var smp [2]benchtrace.Sample
		for k, steps := range []int{benchtrace.AllocSteps, 4 * benchtrace.AllocSteps} {
			c := s.Cfg
			c.Steps = steps
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, c); err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "allocs", parse.Options{NoExtras: true})
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewPlan(tr, Options{Step: 3, HasStep: true, Device: -1})
			if err != nil {
				t.Fatal(err)
			}
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			res, err := Write(p, bytes.NewReader(buf.Bytes()), io.Discard, false)
			runtime.ReadMemStats(&m1)
			if err != nil || res.Events == 0 {
				t.Fatalf("%s: %v, %+v", s.Name, err, res)
			}
			smp[k] = benchtrace.Sample{Steps: steps, Events: tr.NumEvents(), Allocs: m1.Mallocs - m0.Mallocs, Bytes: m1.TotalAlloc - m0.TotalAlloc, Found: res.Events}
		}
		t.Logf("%s: %+v %+v", s.Name, smp[0], smp[1])
		if smp[1].Allocs > smp[0].Allocs+maxWriteAllocGrowth || smp[1].Bytes > smp[0].Bytes+maxWriteByteGrowth {
			t.Errorf("%s: Write made %d allocations (%d bytes) for 4 times the events of %d (%d bytes): it allocates per element",
				s.Name, smp[1].Allocs, smp[1].Bytes, smp[0].Allocs, smp[0].Bytes)
		}
	}
}
