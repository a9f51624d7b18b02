package critpath

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/trace"
)

// Bounds on what the text view's analysis (every step's graph, path and
// three what-ifs) allocates beyond the trace: the prep's columns per event
// (the launch calls' device ops and their CSR, flags, the window
// numbering, the launch units) and buffers each window reuses from the one
// before; the allocations grow with the windows (a result, the name sums,
// the what-ifs' names), not with the events or the nodes. Measured
// 2026-12-07 at 200 steps on the three shapes: 53-75 bytes per event and
// 16 allocations per window (before the buffers were reused: 104-122 and
// 45-50); again after the launch calls' ops kept their track and start
// beside them and the what-ifs' slots became one array (issue 36's fourth
// round): 53-75 bytes, 15.8 allocations per window; and once the sums
// by name were lists, not maps per window: 49-69 bytes, 10.7 allocations
// per window. One allocation per event would be some 170 per window here.
const (
	maxAnalyzeBytesPerEvent   = 85
	maxAnalyzeAllocsPerWindow = 16
)

// TestAnalyzeMemory holds on the three benchmark shapes (gen.BenchShapes).
func TestAnalyzeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates traces")
	}
	got := benchtrace.MeasurePrepared(t, lean, nil, func(tr *trace.Trace) func() int {
		windows := StepWindows(tr)
		return func() int {
			r := Analyze(tr, windows, Options{WhatIf: 3, Speedup: 2})
			if len(r.Windows) == 0 || !r.Windows[0].HasPath {
				return 0
			}
			return len(windows)
		}
	})
	for _, a := range got {
		if b := a.Large.BytesPerEvent(); b > maxAnalyzeBytesPerEvent {
			t.Errorf("%s: Analyze allocates %.1f bytes per event, more than %d", a.Shape, b, maxAnalyzeBytesPerEvent)
		}
		if w := float64(a.Large.Allocs) / float64(a.Large.Found); w > maxAnalyzeAllocsPerWindow {
			t.Errorf("%s: Analyze makes %.1f allocations per window, more than %d: it allocates per event or per node", a.Shape, w, maxAnalyzeAllocsPerWindow)
		}
	}
}
