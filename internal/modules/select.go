package modules

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/metricnames"
)

// Key is what the rows are sorted by.
type Key int

// The sort keys. KeyTree keeps the tree order.
const (
	KeyTree Key = iota
	KeyOccurrences
	KeyHostTotal
	KeyHostSelf
	KeyDeviceTotal
	KeyDeviceSelf
)

var keyNames = []string{"none", "occurrences", "host_total", "host_self", "device_total", "device_self"}

func (k Key) String() string { return keyNames[k] }

// SortKeys lists the names ParseKey takes, tracetab's own first.
func SortKeys() []string {
	return []string{"none", "occurrences", "host_total", "host_self", "device_total", "device_self",
		"count", "cpu_total", "self_cpu", "cuda_total", "self_cuda"}
}

// ParseKey reads a --sort value: the module view's own column names, or
// the op table's metric names that mean the same (cpu_time_total and
// cpu_total are host_total, self_cuda_time_total and self_cuda are
// device_self, count is occurrences, ...). "" and "none" keep the tree.
func ParseKey(s string) (Key, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return KeyTree, true
	}
	if i := slices.Index(keyNames, s); i >= 0 {
		return Key(i), true
	}
	switch metricnames.Short(s) {
	case "count":
		return KeyOccurrences, true
	case "cpu_total":
		return KeyHostTotal, true
	case "self_cpu":
		return KeyHostSelf, true
	case "cuda_total":
		return KeyDeviceTotal, true
	case "self_cuda":
		return KeyDeviceSelf, true
	}
	return KeyTree, false
}

func (k Key) of(n *Node) int64 {
	switch k {
	case KeyOccurrences:
		return n.Occurrences
	case KeyHostTotal:
		return n.HostTotal
	case KeyHostSelf:
		return n.HostSelf
	case KeyDeviceTotal:
		return n.DeviceTotal
	case KeyDeviceSelf:
		return n.DeviceSelf
	}
	return 0
}

// Select returns the nodes to show: those at most depth levels deep (0:
// all), in tree order, or with a key other than KeyTree sorted by it,
// largest first (ties in tree order).
func (t *Tree) Select(depth int, k Key) []int {
	var out []int
	for n := range t.Nodes {
		if depth <= 0 || t.Nodes[n].Depth <= depth {
			out = append(out, n)
		}
	}
	if k != KeyTree {
		slices.SortStableFunc(out, func(a, b int) int {
			return cmp.Compare(k.of(&t.Nodes[b]), k.of(&t.Nodes[a]))
		})
	}
	return out
}

// HostPct is node n's host total as a share of HostNs, in percent rounded
// to 2 decimals; nil when HostNs is 0.
func (t *Tree) HostPct(n int) *float64 { return share(t.Nodes[n].HostTotal, t.HostNs) }

// DevicePct is node n's device total as a share of the trace's device
// work (DeviceNs), in percent rounded to 2 decimals; nil when the trace
// has no device work.
func (t *Tree) DevicePct(n int) *float64 { return share(t.Nodes[n].DeviceTotal, t.DeviceNs) }

// InModulesPct is DeviceInModulesNs as a share of DeviceNs, nil without
// device work.
func (t *Tree) InModulesPct() *float64 { return share(t.DeviceInModulesNs, t.DeviceNs) }

func share(part, whole int64) *float64 {
	if whole <= 0 {
		return nil
	}
	p := math.Round(float64(part)/float64(whole)*1e4) / 100
	return &p
}
