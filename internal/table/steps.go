package table

import "github.com/tracetab/tracetab/internal/trace"

// StepView lists the profiler steps with the device work launched from
// each (see trace.Steps).
func StepView(t *trace.Trace) []trace.Step { return t.Steps(nil) }
