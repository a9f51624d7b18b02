package diff

import (
	"fmt"
	"slices"
	"strings"
)

// CriticalPathPrefix starts the names of the critical-path budgets:
// critical_path.path_time (the median over the steps of the critical
// path's length) and critical_path.<category>_pct (the median over the
// steps of a category's share of the path).
const CriticalPathPrefix = "critical_path."

// CriticalPathMetrics are the names after the prefix.
var CriticalPathMetrics = []string{"path_time", "cpu_pct", "gpu_compute_pct", "gpu_comm_pct", "launch_pct", "kernel_kernel_pct", "data_loading_pct"}

// IsCriticalPath reports whether a budget metric is a critical-path one.
func IsCriticalPath(metric string) bool { return strings.HasPrefix(metric, CriticalPathPrefix) }

// NeedsCriticalPath reports whether any budget needs the critical path
// (which AddCriticalPath computes into Side.Totals under the metric's name).
func NeedsCriticalPath(bs []Budget) bool {
	return slices.ContainsFunc(bs, func(b Budget) bool { return IsCriticalPath(b.Metric) })
}

// Key is the name a budget's metric is reported and looked up under:
// total.NAME for the totals, the critical-path names as written.
func (b Budget) Key() string {
	if b.Total && !IsCriticalPath(b.Metric) {
		return "total." + b.Metric
	}
	return b.Metric
}

func criticalPathBudget(b Budget, metric, match, max string) (Budget, error) {
	m := strings.TrimPrefix(metric, CriticalPathPrefix)
	if !slices.Contains(CriticalPathMetrics, m) {
		return b, fmt.Errorf("unknown metric %q (critical_path.%s)", metric, strings.Join(CriticalPathMetrics, ", critical_path."))
	}
	if match != "" {
		return b, fmt.Errorf("match does not apply to %s", metric)
	}
	b.Total, b.Metric = true, metric
	v, err := ParseAmount(max, b.Metric)
	if err != nil {
		return b, fmt.Errorf("bad max: %v", err)
	}
	b.Max = v
	return b, nil
}
