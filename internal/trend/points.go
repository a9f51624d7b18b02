package trend

import (
	"runtime"
	"sync/atomic"

	"github.com/tracetab/tracetab/internal/changepoint"
	"github.com/tracetab/tracetab/internal/safe"
)

// allPoints finds every metric's change points, the metrics spread over
// the cores: a long series' permutation tests are most of trend's work
// after the reading (each metric's search is O(runs^2) per shuffle). Each
// search is its own, seeded and written only to its metric, so the result
// is the in-order loop's; a panic in one is raised again here.
func allPoints(ms []Metric, runs []*Run, o changepoint.Options) {
	workers := min(runtime.GOMAXPROCS(0), len(ms))
	if workers <= 1 {
		for k := range ms {
			points(&ms[k], runs, o)
		}
		return
	}
	var next atomic.Int64
	waits := make([]func(), 0, workers)
	for range workers {
		waits = append(waits, safe.Go(func() {
			for k := int(next.Add(1)) - 1; k < len(ms); k = int(next.Add(1)) - 1 {
				points(&ms[k], runs, o)
			}
		}))
	}
	for _, wait := range waits {
		wait()
	}
}
