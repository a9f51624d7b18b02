package diffview

import (
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// isModules says whether a diff's rows are module paths (--by module).
func isModules(d *diff.Diff) bool { return d.Base.By == "module" }

// moduleMetricsLine tells what the op metric names mean on module rows.
const moduleMetricsLine = "module rows, one per module path (as table --by module names them): count = occurrences, " +
	"cpu_total / self_cpu = host total / self, cuda_total / self_cuda = device total / self " +
	"(the device ops launched inside the module's frames / outside its child modules' frames)"

// modulePerStep is how module rows are sampled per profiler step.
const modulePerStep = "one sample per profiler step for every module row: its frames that start inside the ProfilerStep#N window, " +
	"with everything they hold (a device op counts with the frame that launched it); the module frames outside the steps are the row " +
	diff.OutsideKey + ", one sample per trace"

// fitModulePaths cuts the module paths of column 0 of a text grid as the
// module view does (viewkit.FitPaths: the leading modules give way, so
// the tail names the module) to what the width leaves them.
func fitModulePaths(g *layout.Grid, width int) {
	if width <= 0 {
		return
	}
	others := 0
	for c := 1; c < len(g.Headers); c++ {
		wd := layout.Width(g.Headers[c])
		for _, r := range g.Rows {
			wd = max(wd, layout.Width(r[c]))
		}
		others += wd + 2
	}
	paths := make([]string, len(g.Rows))
	for i, r := range g.Rows {
		paths[i] = r[0]
	}
	for i, c := range viewkit.FitPaths(paths, max(width-others-2, 12)) {
		g.Rows[i][0] = c
	}
}
