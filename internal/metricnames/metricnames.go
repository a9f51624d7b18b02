// Package metricnames is the one alias table between torch's sort_by keys
// (table --sort: self_cuda_time_total, cpu_time_total, ...) and tracetab's
// short metric names (diff --metric and --fail-on, check budgets, table
// --columns: self_cuda, cpu_total, ...). Every command that takes either
// spelling resolves it here.
package metricnames

import (
	"slices"
	"strings"
)

// Metric is one quantity with every spelling that names it.
type Metric struct {
	// Short is tracetab's name, as diff and check print it.
	Short string
	// Torch is torch's sort_by key, "" when torch has none (per-call
	// self times); the cuda_ form (torch 2.4+ also takes device_).
	Torch string
	// Also are further spellings: torch's device_/xpu_ forms and the
	// compact table's column names.
	Also []string
}

// Table lists the metrics that have more than one spelling, or a torch
// key. Short names not listed here (gpu_idle_pct, steps, ...) have one.
var Table = []Metric{
	{"self_cpu", "self_cpu_time_total", nil},
	{"cpu_total", "cpu_time_total", nil},
	{"avg", "cpu_time", []string{"cpu_avg"}},
	{"self_cuda", "self_cuda_time_total", []string{"self_device_time_total"}},
	{"cuda_total", "cuda_time_total", []string{"device_time_total"}},
	{"cuda_avg", "cuda_time", []string{"device_time"}},
	{"count", "count", []string{"calls"}},
	{"self_cpu_mem", "self_cpu_memory_usage", nil},
	{"self_cuda_mem", "self_cuda_memory_usage", []string{"self_device_memory_usage"}},
	{"cpu_mem", "cpu_memory_usage", nil},
	{"cuda_mem", "cuda_memory_usage", []string{"device_memory_usage"}},
	{"self_cuda_per_call", "", nil},
	{"self_cpu_per_call", "", nil},
}

// Lookup finds the metric any spelling names (case-sensitive, as torch's
// keys are; torch's xpu_ and privateuse1_ forms read as device_).
func Lookup(name string) (Metric, bool) {
	name = strings.TrimSpace(name)
	for _, d := range []string{"xpu", "privateuse1"} {
		if strings.HasPrefix(name, d+"_") || strings.Contains(name, "_"+d+"_") {
			name = strings.Replace(name, d, "device", 1)
		}
	}
	for _, m := range Table {
		if name == m.Short || (m.Torch != "" && name == m.Torch) || slices.Contains(m.Also, name) {
			return m, true
		}
	}
	return Metric{}, false
}

// Short is the short name of any spelling; a name not in the table is
// returned as given (it may be a short name with one spelling).
func Short(name string) string {
	if m, ok := Lookup(name); ok {
		return m.Short
	}
	return strings.TrimSpace(name)
}

// Torch is torch's sort_by key of any spelling, with ok false when the
// metric has none (or the name is unknown).
func Torch(name string) (string, bool) {
	if m, ok := Lookup(name); ok && m.Torch != "" {
		return m.Torch, true
	}
	return "", false
}

// Spellings lists every spelling of a metric, Short first.
func (m Metric) Spellings() []string {
	out := []string{m.Short}
	if m.Torch != "" && m.Torch != m.Short {
		out = append(out, m.Torch)
	}
	return append(out, m.Also...)
}

// Help is the alias table in words, for --help: "self_cuda =
// self_cuda_time_total, cpu_total = cpu_time_total, ..., calls = count",
// limited to the given short names (all when none are given). torch's
// device_ forms are left out (torch documents them itself).
func Help(shorts ...string) string {
	var parts []string
	for _, m := range Table {
		if m.Torch == "" || len(shorts) > 0 && !slices.Contains(shorts, m.Short) {
			continue
		}
		for _, s := range append([]string{m.Short}, m.Also...) {
			if s != m.Torch && !strings.Contains(s, "device") {
				parts = append(parts, s+" = "+m.Torch)
			}
		}
	}
	return strings.Join(parts, ", ")
}
