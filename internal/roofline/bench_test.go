package roofline

import (
	"testing"

	"github.com/tracetab/tracetab/internal/benchtrace"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// The model step of roofline, the parse not timed, next to table's
// (BenchmarkTableCompute*: the same trace, the same loop), so that the
// ratio is read from one run. MB/s is of the trace's JSON.

var benchCfg = gen.Config{Steps: 200, Layers: 8, Roofline: true}

func rooflineStep(t *trace.Trace) int { return len(Compute(t, Options{}).Rows) }

func tableStep(t *trace.Trace) int {
	res, err := table.Compute(t, table.Options{})
	if err != nil {
		return 0
	}
	return len(res.Rows)
}

// BenchmarkCompute is roofline's model step on a generated trace with shapes.
func BenchmarkCompute(b *testing.B) {
	t, size := benchtrace.Generated(b, benchCfg, parse.Options{ShapesOnly: true})
	benchtrace.Run(b, t, size, rooflineStep)
}

// BenchmarkTableCompute is table's model step on the same trace.
func BenchmarkTableCompute(b *testing.B) {
	t, size := benchtrace.Generated(b, benchCfg, parse.Options{NoExtras: true})
	benchtrace.Run(b, t, size, tableStep)
}

// BenchmarkComputeFile is roofline's model step on TRACETAB_BENCH_FILE.
func BenchmarkComputeFile(b *testing.B) {
	t, size := benchtrace.File(b, parse.Options{ShapesOnly: true})
	benchtrace.Run(b, t, size, rooflineStep)
}

// BenchmarkTableComputeFile is table's model step on TRACETAB_BENCH_FILE.
func BenchmarkTableComputeFile(b *testing.B) {
	t, size := benchtrace.File(b, parse.Options{NoExtras: true})
	benchtrace.Run(b, t, size, tableStep)
}
