package diff

import (
	"github.com/tracetab/tracetab/internal/critpath"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// AddCriticalPath puts the values of the critical-path budgets into
// s.Totals (check): critical_path.path_time is the median over the steps
// (stats.MedianNs) of the path's length, critical_path.<category>_pct one
// sample per step of that category's share of the path (check takes
// their median); over the whole trace when perStep is false.
func AddCriticalPath(t *trace.Trace, s *Side, perStep bool) {
	windows := []critpath.Window{critpath.WholeTrace(t)}
	if perStep {
		windows = critpath.StepWindows(t)
	}
	r := critpath.Analyze(t, windows, critpath.Options{})
	var paths []int64
	shares := map[string][]float64{}
	for _, w := range r.Windows {
		if !w.HasPath {
			continue
		}
		paths = append(paths, w.PathNs)
		for c := range critpath.NumCategories {
			k := CriticalPathPrefix + c.String() + "_pct"
			shares[k] = append(shares[k], float64(w.Breakdown[c])*100/float64(max(w.PathNs, 1)))
		}
	}
	if len(paths) == 0 {
		for _, m := range CriticalPathMetrics {
			s.Missing[CriticalPathPrefix+m] = "no window of the trace has a critical path (no CPU op, runtime call or device op with a duration)"
		}
		return
	}
	s.Totals[CriticalPathPrefix+"path_time"] = []float64{float64(stats.MedianNs(paths))}
	for k, xs := range shares {
		s.Totals[k] = xs
	}
}
