package diff

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/units"
)

// MemoryMetrics are the per-device memory metrics of check budgets and
// diff rules (internal/memory defines them). Their rows are devices: a
// budget's match and a rule's @REGEX select devices by name (cuda:0, cpu).
//
//	peak_allocated  the device's peak Total Allocated
//	peak_reserved   its peak Total Reserved
//	step_growth     the median over the ProfilerStep#N of the allocated at a step's end minus its start
var MemoryMetrics = []string{"peak_allocated", "peak_reserved", "step_growth"}

// IsMemoryMetric reports whether m is one of MemoryMetrics.
func IsMemoryMetric(m string) bool { return slices.Contains(MemoryMetrics, m) }

// MemoryValue is one device's value of a memory metric (bytes), or why it
// is not measured.
func MemoryValue(d *memory.Device, metric string) (int64, string) {
	switch metric {
	case "peak_allocated":
		if !d.Totals {
			return 0, d.Name + "'s [memory] records carry no Total Allocated (torch before 1.10)"
		}
		return d.Peak.Bytes, ""
	case "peak_reserved":
		if !d.Reserved {
			return 0, d.Name + "'s [memory] records carry no Total Reserved (torch before 1.10)"
		}
		return d.PeakReserved.Bytes, ""
	case "step_growth":
		if len(d.Steps) == 0 {
			return 0, needReason[needSteps]
		}
		g := make([]int64, len(d.Steps))
		for i, s := range d.Steps {
			g[i] = s.GrowthBytes
		}
		return stats.MedianNs(g), ""
	}
	return 0, "unknown memory metric " + metric
}

// SplitMemory separates the memory budgets from the others.
func SplitMemory(budgets []Budget) (rows, mem []Budget) {
	for _, b := range budgets {
		if !b.Total && IsMemoryMetric(b.Metric) {
			mem = append(mem, b)
		} else {
			rows = append(rows, b)
		}
	}
	return rows, mem
}

// CheckMemory holds each device of m to the memory budgets: every device
// whose name matches (all without match) must stay at or under Max; the
// outcome's value is the largest among them. No [memory] records, or no
// device measured, is n/a.
func CheckMemory(m *memory.Model, budgets []Budget) []Outcome {
	var out []Outcome
	for _, b := range budgets {
		o := Outcome{Budget: b}
		if len(m.Devices) == 0 {
			o.Missing = b.Metric + ": " + needReason[needMemory]
			out = append(out, o)
			continue
		}
		o.Value = math.Inf(-1)
		var missing string
		for _, d := range m.Devices {
			if b.Match != nil && !b.Match.MatchString(d.Name) {
				continue
			}
			v, why := MemoryValue(d, b.Metric)
			if why != "" {
				missing = why
				continue
			}
			o.Rows++
			if f := float64(v); f > o.Value {
				o.Value, o.Row = f, d.Name
			}
			if float64(v) > b.Max {
				o.Failed = append(o.Failed, Violation{Rule: b.Text, Row: d.Name, Metric: b.Metric,
					Msg: fmt.Sprintf("%s: %s is %s, over the budget of %s", d.Name, b.Metric, MemoryBytes(v), b.MaxText)})
			}
		}
		if o.Rows == 0 {
			o.Value = 0
			o.Missing = b.Metric + ": " + missing
			if missing == "" {
				o.Missing = noDeviceReason(b.Match, m)
			}
		}
		out = append(out, o)
	}
	return out
}

func noDeviceReason(re *regexp.Regexp, m *memory.Model) string {
	var names []string
	for _, d := range m.Devices {
		names = append(names, d.Name)
	}
	return fmt.Sprintf("no device matches %s (the trace's [memory] records are of %s; a typo would disable the budget)", re, strings.Join(names, ", "))
}

// MergeOutcomes puts the outcomes of the row and memory budgets back in
// the order the budgets were given.
func MergeOutcomes(budgets []Budget, rows, mem []Outcome) []Outcome {
	out := make([]Outcome, 0, len(rows)+len(mem))
	for _, b := range budgets {
		src := &rows
		if !b.Total && IsMemoryMetric(b.Metric) {
			src = &mem
		}
		if len(*src) > 0 {
			out = append(out, (*src)[0])
			*src = (*src)[1:]
		}
	}
	return out
}

// MemoryDiff compares the memory of two sides per device: the peaks, the
// median step growth and the ops holding the most memory at the peak.
// Each side's value is the median over its traces (a device missing from
// a trace is left out of that median).
type MemoryDiff struct {
	Devices []DeviceMemoryChange
}

// DeviceMemoryChange is one device present on either side.
type DeviceMemoryChange struct {
	Device  string // the name ("cuda:0"); both names when the sides differ ("cuda:0 / hip:0")
	Status  string // "", "added" (only in NEW) or "removed" (only in BASE)
	Metrics []MemoryChange
	// Ops: bytes alive at the peak per allocating op (0 where an op holds
	// none), by the larger side (descending), then name; all of them.
	Ops []MemoryChange
}

// MemoryChange is one metric (or op) of one device on both sides.
type MemoryChange struct {
	Metric, Op  string // Op is set for the rows of Ops (Metric "alive_at_peak")
	Base, New   int64
	BaseN, NewN int     // traces measured on each side
	Abs         int64   // New - Base
	Rel         float64 // Abs / Base; +Inf when Base is 0 and New is not, NaN when both are 0
	Missing     string  // why it is not measured on a side ("" when measured on both)
}

func rel(b, n int64) float64 {
	switch {
	case b != 0:
		return float64(n-b) / float64(b)
	case n != 0:
		return math.Inf(1)
	}
	return math.NaN()
}

// alignKey is the key devices are aligned by: the name, with ROCm's hip:N
// taken as cuda:N (torch exposes a ROCm GPU as "cuda"; some builds write
// its records as HIP), so a CUDA run and a ROCm run compare GPU with GPU.
func alignKey(name string) string {
	if rest, ok := strings.CutPrefix(name, "hip:"); ok {
		return "cuda:" + rest
	}
	return name
}

// CompareMemory builds the memory diff of two sides' models.
func CompareMemory(base, nw []*memory.Model) *MemoryDiff {
	var keys []string
	label := map[string][]string{} // key -> the names written, in order
	for _, side := range [][]*memory.Model{base, nw} {
		for _, m := range side {
			for _, d := range m.Devices {
				k := alignKey(d.Name)
				if _, ok := label[k]; !ok {
					keys = append(keys, k)
				}
				if !slices.Contains(label[k], d.Name) {
					label[k] = append(label[k], d.Name)
				}
			}
		}
	}
	devsOf := func(side []*memory.Model, key string) []*memory.Device {
		var out []*memory.Device
		for _, m := range side {
			for _, d := range m.Devices {
				if alignKey(d.Name) == key {
					out = append(out, d)
				}
			}
		}
		return out
	}
	md := &MemoryDiff{Devices: []DeviceMemoryChange{}}
	for _, key := range keys {
		b, n := devsOf(base, key), devsOf(nw, key)
		dc := DeviceMemoryChange{Device: strings.Join(label[key], " / "), Metrics: []MemoryChange{}, Ops: []MemoryChange{}}
		switch {
		case len(b) == 0:
			dc.Status = "added"
		case len(n) == 0:
			dc.Status = "removed"
		}
		for _, metric := range MemoryMetrics {
			c := MemoryChange{Metric: metric}
			bv, bn, bwhy := sideMedian(b, func(d *memory.Device) (int64, string) { return MemoryValue(d, metric) })
			nv, nn, nwhy := sideMedian(n, func(d *memory.Device) (int64, string) { return MemoryValue(d, metric) })
			c.Base, c.BaseN, c.New, c.NewN = bv, bn, nv, nn
			switch {
			case bn == 0:
				c.Missing = "base: " + bwhy
			case nn == 0:
				c.Missing = "new: " + nwhy
			}
			c.Abs, c.Rel = nv-bv, rel(bv, nv)
			dc.Metrics = append(dc.Metrics, c)
		}
		dc.Ops = opChanges(b, n)
		md.Devices = append(md.Devices, dc)
	}
	return md
}

// sideMedian is the median of a metric over the devices measured.
func sideMedian(devs []*memory.Device, value func(*memory.Device) (int64, string)) (int64, int, string) {
	var vs []int64
	why := "the device has no [memory] records on this side"
	for _, d := range devs {
		v, w := value(d)
		if w != "" {
			why = w
			continue
		}
		vs = append(vs, v)
	}
	return stats.MedianNs(vs), len(vs), why
}

// opChanges compares the bytes each op holds at the peak.
func opChanges(b, n []*memory.Device) []MemoryChange {
	ops := map[string]bool{}
	var names []string
	for _, side := range [][]*memory.Device{b, n} {
		for _, d := range side {
			for _, g := range d.Alive.Groups {
				if !ops[g.Op] {
					ops[g.Op] = true
					names = append(names, g.Op)
				}
			}
		}
	}
	measured := func(devs []*memory.Device) (out []*memory.Device) {
		for _, d := range devs {
			if d.Alive.Measured {
				out = append(out, d)
			}
		}
		return out
	}
	bm, nm := measured(b), measured(n)
	alive := func(op string) func(*memory.Device) (int64, string) {
		return func(d *memory.Device) (int64, string) {
			for _, g := range d.Alive.Groups {
				if g.Op == op {
					return g.Bytes, ""
				}
			}
			return 0, ""
		}
	}
	out := []MemoryChange{}
	for _, op := range names {
		c := MemoryChange{Metric: "alive_at_peak", Op: op}
		c.Base, c.BaseN, _ = sideMedian(bm, alive(op))
		c.New, c.NewN, _ = sideMedian(nm, alive(op))
		if c.BaseN == 0 || c.NewN == 0 {
			c.Missing = "alive at the peak is not measured on one side (no Addr, or no records)"
		}
		c.Abs, c.Rel = c.New-c.Base, rel(c.Base, c.New)
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y MemoryChange) int {
		if c := cmp.Compare(max(y.Base, y.New), max(x.Base, x.New)); c != 0 {
			return c
		}
		return cmp.Compare(x.Op, y.Op)
	})
	return out
}

// EvaluateMemory applies the memory rules (peak_allocated>10%,
// step_growth>1MiB@cuda:0, ...) to a memory diff: a device breaks a rule
// when its change is past every given part. Peaks are compared as they
// are (one value per trace: no significance test). A rule whose metric is
// not measured on both sides, or whose @REGEX matches no device, is n/a.
func EvaluateMemory(md *MemoryDiff, rules []Rule) (viol []Violation, na []NA, checked map[string]int) {
	checked = map[string]int{}
	for _, r := range rules {
		var missing string
		for _, d := range md.Devices {
			if r.Match != nil && !r.Match.MatchString(d.Device) {
				continue
			}
			for _, c := range d.Metrics {
				if c.Metric != r.Metric {
					continue
				}
				if c.Missing != "" {
					missing = d.Device + ": " + c.Missing
					continue
				}
				checked[r.Text]++
				if memExceeded(r, c) {
					viol = append(viol, Violation{Rule: r.Text, Row: d.Device, Metric: r.Metric,
						Msg: d.Device + ": " + r.Metric + " " + MemoryChangeText(c)})
				}
			}
		}
		if checked[r.Text] == 0 {
			switch {
			case missing != "":
				na = append(na, NA{r.Text, r.Metric + ": " + missing})
			case len(md.Devices) == 0:
				na = append(na, NA{r.Text, r.Metric + ": " + needReason[needMemory]})
			default:
				na = append(na, NA{r.Text, "no device matches " + r.Match.String() + " (a typo would disable the rule)"})
			}
		}
	}
	return viol, na, checked
}

func memExceeded(r Rule, c MemoryChange) bool {
	if !math.IsNaN(r.Rel) && !(c.Rel > r.Rel) {
		return false
	}
	if !math.IsNaN(r.Abs) && !(float64(c.Abs) > r.Abs) {
		return false
	}
	return true
}

// SplitMemoryRules separates the memory rules from the others.
func SplitMemoryRules(rules []Rule) (rows, mem []Rule) {
	for _, r := range rules {
		if !r.Total && IsMemoryMetric(r.Metric) {
			mem = append(mem, r)
		} else {
			rows = append(rows, r)
		}
	}
	return rows, mem
}

// MemoryChangeText says how a memory figure went: "grew from 1.95 GiB to
// 2.10 GiB (+7.7%)".
func MemoryChangeText(c MemoryChange) string {
	verb := "grew"
	if c.Abs < 0 {
		verb = "fell"
	} else if c.Abs == 0 {
		verb = "stayed"
	}
	r := "0.0%"
	switch {
	case math.IsInf(c.Rel, 1):
		r = "new"
	case !math.IsNaN(c.Rel):
		r = signed(fmt.Sprintf("%.1f", c.Rel*100)) + "%"
	}
	return fmt.Sprintf("%s from %s to %s (%s)", verb, MemoryBytes(c.Base), MemoryBytes(c.New), r)
}

// MemoryBytes formats bytes for people, a negative amount (a step that
// shrank) with its sign.
func MemoryBytes(n int64) string {
	if n < 0 {
		return "-" + units.Bytes(-n)
	}
	return units.Bytes(n)
}
