package critpath

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// Bounds on what the text view's analysis (every step's graph, path and
// three what-ifs) allocates beyond the trace: the prep's columns per event
// (the launch calls' device ops and their CSR, flags, the window
// numbering, the launch units) and buffers each window reuses from the one
// before; the allocations grow with the windows (a result, the name sums,
// the what-ifs' names), not with the events or the nodes. Measured
// 2026-12-07 at 200 steps on the three shapes: 53-75 bytes per event and
// 16 allocations per window (before the buffers were reused: 104-122 and
// 45-50).
const (
	maxAnalyzeBytesPerEvent   = 100
	maxAnalyzeAllocsPerWindow = 25
)

// TestAnalyzeMemory holds on the three benchmark shapes (gen.BenchShapes).
func TestAnalyzeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates traces")
	}
	for _, sh := range gen.BenchShapes() {
		measure := func(steps int) (bytesPerEvent, allocsPerWindow float64) {
			cfg := sh.Cfg
			cfg.Steps = steps
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, cfg); err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "mem", lean)
			if err != nil {
				t.Fatal(err)
			}
			tr.Links()
			windows := StepWindows(tr)
			var a, b runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&a)
			r := Analyze(tr, windows, Options{WhatIf: 3, Speedup: 2})
			runtime.ReadMemStats(&b)
			if len(r.Windows) == 0 || !r.Windows[0].HasPath {
				t.Fatalf("%s: no path", sh.Name)
			}
			return float64(b.TotalAlloc-a.TotalAlloc) / float64(tr.NumEvents()), float64(b.Mallocs-a.Mallocs) / float64(len(windows))
		}
		b1, a1 := measure(50)
		b2, a2 := measure(200)
		t.Logf("%s: 50 steps: %.1f bytes per event, %.1f allocations per window; 200 steps: %.1f bytes per event, %.1f allocations per window", sh.Name, b1, a1, b2, a2)
		if b2 > maxAnalyzeBytesPerEvent {
			t.Errorf("%s: Analyze allocates %.1f bytes per event, more than %d", sh.Name, b2, maxAnalyzeBytesPerEvent)
		}
		if a2 > maxAnalyzeAllocsPerWindow {
			t.Errorf("%s: Analyze makes %.1f allocations per window, more than %d: it allocates per event or per node", sh.Name, a2, maxAnalyzeAllocsPerWindow)
		}
	}
}
