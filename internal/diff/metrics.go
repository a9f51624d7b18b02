// Package diff compares traces (or holds one to budgets): per-step samples
// of every row and total, medians and Mann-Whitney tests over them, rows
// aligned by key, environment mismatches, and threshold rules evaluated
// into violations and unmeasured (n/a) results. It prints nothing and
// decides no exit codes.
package diff

import "strings"

// RowMetrics are the per-row metrics.
var RowMetrics = []string{"self_cuda", "cuda_total", "self_cpu", "cpu_total", "count", "avg", "cuda_avg",
	"self_cuda_per_call", "self_cpu_per_call", "self_cpu_mem", "self_cuda_mem"}

// AliasHint follows a list of metrics in an error: the other spelling.
const AliasHint = "; torch's sort keys name the same metrics, e.g. self_cuda_time_total for self_cuda"

// TotalMetrics are the trace-level metrics (used as total.NAME in rules).
var TotalMetrics = []string{"self_cpu", "self_cuda", "gpu_busy", "gpu_idle", "gpu_idle_pct", "gpu_idle_pct_lanes", "step_time", "steps", "unlinked"}

// Unit is what a metric's values count.
type Unit int

// Units of metric values.
const (
	Ns    Unit = iota // integer nanoseconds
	Count             // events, steps
	Bytes             // memory
	Pct               // a percentage; its changes are percentage points
)

// Suffix is the unit's JSON field suffix.
func (u Unit) Suffix() string {
	return [...]string{"ns", "count", "bytes", "pct"}[u]
}

// UnitOf returns the unit of a row or total metric.
func UnitOf(m string) Unit {
	if IsCriticalPath(m) && strings.HasSuffix(m, "_pct") {
		return Pct
	}
	switch m {
	case "count", "steps", "unlinked":
		return Count
	case "gpu_idle_pct", "gpu_idle_pct_lanes", "pct_peak":
		return Pct
	case "self_cpu_mem", "self_cuda_mem", "peak_allocated", "peak_reserved", "step_growth", "alive_at_peak":
		return Bytes
	}
	return Ns
}

// IsCount reports whether a metric is not a time (a count, size or share):
// its absolute thresholds are plain numbers.
func IsCount(m string) bool { return UnitOf(m) != Ns }

// perCall metrics have one sample per step in which the row ran.
func perCall(m string) bool {
	return m == "avg" || m == "cuda_avg" || m == "self_cuda_per_call" || m == "self_cpu_per_call"
}

// needs says which recorded data a metric is computed from.
type need int

const (
	needNothing need = iota
	needSteps
	needDevice
	needMemory
)

func rowNeeds(m string) need {
	switch m {
	case "self_cuda", "cuda_total", "cuda_avg", "self_cuda_per_call":
		return needDevice
	case "self_cpu_mem", "self_cuda_mem":
		return needMemory
	}
	return needNothing
}

func totalNeeds(m string) need {
	switch m {
	case "self_cuda", "gpu_busy", "gpu_idle", "gpu_idle_pct", "gpu_idle_pct_lanes":
		return needDevice
	case "step_time":
		return needSteps
	}
	return needNothing
}

var needReason = map[need]string{
	needSteps:  "the trace has no ProfilerStep#N: call prof.step() once per iteration inside the profile() block",
	needDevice: "the trace has no device ops (kernels, memcpys, memsets): profile with activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]",
	needMemory: "the trace has no [memory] events: profile with profile_memory=True",
}
