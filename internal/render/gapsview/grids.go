package gapsview

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// The grids of the gaps report, one builder per section, shared by the
// text, Markdown and CSV views. CSV cells are integer ns and bare
// numbers, with snake_case headers; text and Markdown cells are for
// people.

// Sections names the tables of the report in the order the Markdown
// view prints them; --section picks one (CSV prints one table, "gaps"
// unless told).
var Sections = []string{"verdict", "causes", "startup", "lanes", "gaps", "breakdown", "latency", "blocking", "dead", "steps"}

var gapsTitles = map[string]string{
	"verdict": "Verdict", "causes": "Idle time by cause", "startup": "One-time start-up calls", "lanes": "Lanes and idle categories",
	"gaps": "Largest GPU gaps", "breakdown": "Step time breakdown", "latency": "Launch latency by op name",
	"blocking": "Blocking calls on the CPU", "dead": "CPU lane: dead windows", "steps": "Steps",
}

type gridKit struct {
	csv bool
	dur func(int64) string
	pct func(float64) string
}

func kitFor(csv bool) gridKit {
	k := gridKit{csv: csv, dur: units.Dur, pct: func(p float64) string { return units.Pct(p) + "%" }}
	if csv {
		k.dur = func(ns int64) string { return strconv.FormatInt(ns, 10) }
		k.pct = func(p float64) string { return strconv.FormatFloat(p, 'f', 2, 64) }
	}
	return k
}

// h picks the header: for people or for CSV.
func (k gridKit) h(text, csvName string) string {
	if k.csv {
		return csvName
	}
	return text
}

// gapsGrid builds one section's grid; nil when the report has none of it.
func gapsGrid(r *gaps.Report, section string, k gridKit) *layout.Grid {
	switch section {
	case "verdict":
		return verdictGrid(r, k)
	case "causes":
		return causeGrid(r, k)
	case "startup":
		return startupGrid(r, k)
	case "lanes":
		return laneGrid(r, k)
	case "gaps":
		return gapGrid(r, k)
	case "breakdown":
		if r.Breakdown == nil {
			g := breakdownGrid(&gaps.Breakdown{}, k.dur, k.csv)
			g.Rows = nil
			return g
		}
		return breakdownGrid(r.Breakdown, k.dur, k.csv)
	case "latency":
		return latencyGrid(r, k)
	case "blocking":
		return syncGrid(r, k)
	case "dead":
		return deadGrid(r, k)
	case "steps":
		return stepGrid(r, k)
	}
	return nil
}

func verdictGrid(r *gaps.Report, k gridKit) *layout.Grid {
	v := r.Verdict
	g := &layout.Grid{Headers: []string{k.h("Verdict", "class"), k.h("Steady state", "steady_class"), k.h("Denominator", "denominator"),
		k.h("Span", "span_ns"), k.h("GPU idle", "gpu_idle_pct"), k.h("Start-up", "startup_pct"), k.h("Headline", "headline"), k.h("Advice", "advice")}}
	if r.NoGPU { // nothing measured: no numbers
		g.Rows = append(g.Rows, []string{v.Class, "", "", "", "", "", v.Headline, ""})
		return g
	}
	g.Rows = append(g.Rows, []string{v.Class, v.SteadyClass, v.Denominator, k.dur(v.SpanNs), k.pct(v.IdlePct), k.pct(v.StartupPct), v.Headline, v.Advice})
	return g
}

// causeRow is one cause's idle time.
type causeRow struct {
	cause gaps.Cause
	ns    int64
}

// causesByShare lists the causes holding idle time, largest first (ties
// in the causes' order).
func causesByShare(v *gaps.Verdict) []causeRow {
	var out []causeRow
	for _, c := range gaps.Causes() {
		if ns := v.IdleByCause[c]; ns > 0 {
			out = append(out, causeRow{c, ns})
		}
	}
	slices.SortStableFunc(out, func(a, b causeRow) int { return cmp.Compare(b.ns, a.ns) })
	return out
}

func causeGrid(r *gaps.Report, k gridKit) *layout.Grid {
	v := &r.Verdict
	g := &layout.Grid{Headers: []string{k.h("Cause", "cause"), k.h("Idle", "idle_ns"), k.h("Share of idle", "share_pct"), k.h("Class", "class")},
		RightAlign: []bool{false, true, true, false}}
	for _, c := range causesByShare(v) {
		g.Rows = append(g.Rows, []string{c.cause.String(), k.dur(c.ns), k.pct(pctOf(c.ns, v.IdleNs)), gaps.ClassOfCause(c.cause)})
	}
	return g
}

func startupGrid(r *gaps.Report, k gridKit) *layout.Grid {
	g := &layout.Grid{Headers: []string{k.h("Idle held", "idle_ns"), k.h("Calls", "calls"), k.h("Longest", "largest_ns"), k.h("Call", "name")},
		RightAlign: []bool{true, true, true, false}, Names: []bool{false, false, false, true}}
	for _, s := range r.Verdict.StartupCalls {
		g.Rows = append(g.Rows, []string{k.dur(s.IdleNs), strconv.Itoa(s.Calls), k.dur(s.LargestNs), s.Name})
	}
	return g
}

func laneGrid(r *gaps.Report, k gridKit) *layout.Grid {
	g := &layout.Grid{Headers: []string{k.h("Lane", "lane"), k.h("Window", "window_ns"), k.h("Busy", "busy_ns"), k.h("Busy %", "busy_pct"),
		k.h("Idle", "idle_ns"), k.h("Host wait", "host_wait_ns"), k.h("Kernel wait", "kernel_wait_ns"), k.h("Other wait", "other_wait_ns"), k.h("Ops", "ops")},
		RightAlign: []bool{false, true, true, true, true, true, true, true, true}}
	hta := r.Idle.HTA
	if hta {
		// HTA's own idle: the sum of its categories, beside the exact idle
		g.Headers = slices.Insert(g.Headers, 5, k.h("HTA idle", "hta_idle_ns"))
		g.RightAlign = append(g.RightAlign, true)
	}
	pctCell := func(p float64) string {
		if k.csv {
			return strconv.FormatFloat(p, 'f', 2, 64)
		}
		return units.Pct(p)
	}
	for _, row := range laneRows(r) {
		l, d := row.lane, row.idle
		cells := []string{row.name, k.dur(l.WindowNs), k.dur(l.BusyNs), pctCell(l.BusyPct()), k.dur(l.IdleNs),
			k.dur(d.WaitNs[gaps.HostWait]), k.dur(d.WaitNs[gaps.KernelWait]), k.dur(d.WaitNs[gaps.OtherWait]), strconv.Itoa(l.Ops)}
		if k.csv {
			cells[0] = row.csvName
		}
		if hta {
			cells = slices.Insert(cells, 5, k.dur(d.IdleNs()))
		}
		g.Rows = append(g.Rows, cells)
	}
	if r.NoGPU {
		return g
	}
	tot := r.Idle.Total
	cells := []string{"total", "", "", "", "", k.dur(tot.WaitNs[gaps.HostWait]), k.dur(tot.WaitNs[gaps.KernelWait]), k.dur(tot.WaitNs[gaps.OtherWait]), ""}
	if hta {
		cells = slices.Insert(cells, 5, k.dur(tot.IdleNs()))
	} else {
		cells[4] = k.dur(tot.IdleNs())
	}
	g.Rows = append(g.Rows, cells)
	return g
}

type laneRow struct {
	name, csvName string
	lane          gaps.Lane
	idle          gaps.Idle
}

// laneRows pairs each device and stream lane with its idle categories.
// Streams come sorted by device, so one walk places them (linear in lanes).
func laneRows(r *gaps.Report) []laneRow {
	var out []laneRow
	j := 0
	for k, d := range r.Devices {
		var di gaps.Idle
		if k < len(r.Idle.Devices) {
			di = r.Idle.Devices[k]
		}
		out = append(out, laneRow{fmt.Sprintf("device %d", d.Device), fmt.Sprintf("device %d", d.Device), d, di})
		for ; j < len(r.Streams) && r.Streams[j].Device <= d.Device; j++ {
			if r.Streams[j].Device < d.Device {
				continue
			}
			var si gaps.Idle
			if j < len(r.Idle.Streams) {
				si = r.Idle.Streams[j]
			}
			s := r.Streams[j]
			out = append(out, laneRow{fmt.Sprintf("  stream %d", s.Stream), fmt.Sprintf("device %d stream %d", s.Device, s.Stream), s, si})
		}
	}
	return out
}

// gapSteps says where a gap lies by the launch-call clock.
func gapSteps(g gaps.Gap) string {
	a, b := g.StepBefore, g.StepAfter
	switch {
	case g.Edge == gaps.BeforeFirst:
		a = b
	case g.Edge == gaps.AfterLast:
		b = a
	}
	switch {
	case a < 0 && b < 0:
		return "-"
	case a == b:
		return strconv.FormatInt(a, 10)
	case a < 0:
		return "before " + strconv.FormatInt(b, 10)
	case b < 0:
		return "after " + strconv.FormatInt(a, 10)
	}
	return fmt.Sprintf("between %d and %d", a, b)
}

// gapKind is HTA's category of a gap between ops, else where it lies.
func gapKind(g gaps.Gap) string {
	switch g.Edge {
	case gaps.BeforeFirst:
		return "before first op"
	case gaps.AfterLast:
		return "after last op"
	}
	return g.Kind.String()
}

// The gap grid's columns, for DropToFit.
const (
	gapColDevice = iota
	gapColStart
	gapColLength
	gapColSteps
	gapColKind
	gapColCause
	gapColActivity
	gapColActivityPct
	gapColNext
	gapColPrev
)

func gapGrid(r *gaps.Report, k gridKit) *layout.Grid {
	if k.csv {
		g := &layout.Grid{Headers: []string{"device", "start_ns", "length_ns", "steps", "where", "idle_kind", "cause", "cause_pct",
			"activity", "activity_pct", "launch_call", "launch_call_ns", "blocking_launch", "after", "before"}}
		for _, x := range r.Gaps {
			kind := ""
			if x.Edge == gaps.Between {
				kind = x.Kind.String()
			}
			act, actPct, call, callNs := "", "", "", ""
			if x.Activity != "" {
				act, actPct = x.Activity, k.pct(x.ActivityPct)
			}
			if x.HasLaunchCall {
				call, callNs = x.LaunchCall, k.dur(x.LaunchCallNs)
			}
			g.Rows = append(g.Rows, []string{strconv.Itoa(x.Device), k.dur(x.StartNs), k.dur(x.LenNs), gapSteps(x), gapWhere(x), kind,
				x.Cause.String(), k.pct(x.CausePct), act, actPct, call, callNs, strconv.FormatBool(x.BlockingLaunch), x.After, x.Before})
		}
		return g
	}
	g := &layout.Grid{Headers: []string{"Device", "Start", "Length", "Steps", "Kind", "Cause", "Activity", "Share", "Next op", "Previous op"},
		RightAlign: []bool{true, true, true, false, false, false, false, true},
		Names:      []bool{false, false, false, false, false, false, true, false, true, true}}
	for _, x := range r.Gaps {
		act, actPct := "-", ""
		if x.Activity != "" {
			act, actPct = x.Activity, k.pct(x.ActivityPct)
		}
		steps := gapSteps(x)
		if a, b, ok := strings.Cut(strings.TrimPrefix(steps, "between "), " and "); ok {
			steps = a + " to " + b // the short form for a column
		}
		g.Rows = append(g.Rows, []string{strconv.Itoa(x.Device), k.dur(x.StartNs), k.dur(x.LenNs), steps, gapKind(x),
			x.Cause.String() + " " + k.pct(x.CausePct), act, actPct, orDash(x.After), orDash(x.Before)})
	}
	return g
}

var edgeNames = map[gaps.Edge]string{gaps.Between: "between ops", gaps.BeforeFirst: "before first op", gaps.AfterLast: "after last op"}

func gapWhere(g gaps.Gap) string { return edgeNames[g.Edge] }

func latencyGrid(r *gaps.Report, k gridKit) *layout.Grid {
	g := &layout.Grid{Headers: []string{k.h("Count", "count"), k.h("Min", "min_ns"), k.h("Median", "median_ns"), k.h("P90", "p90_ns"),
		k.h("Max", "max_ns"), k.h("Name", "name")}, RightAlign: []bool{true, true, true, true, true}, Names: []bool{false, false, false, false, false, true},
		// on a narrow terminal P90 and Min go before the name drops below 36
		Optional: []int{3, 1}, MinName: 18}
	for _, s := range r.LatencyByName {
		g.Rows = append(g.Rows, []string{strconv.Itoa(s.Count), k.dur(s.MinNs), k.dur(s.MedNs), k.dur(s.P90Ns), k.dur(s.MaxNs), s.Name})
	}
	return g
}

func syncGrid(r *gaps.Report, k gridKit) *layout.Grid {
	g := &layout.Grid{Headers: []string{k.h("Start", "start_ns"), k.h("Duration", "dur_ns"), k.h("GPU work during", "gpu_busy_during_ns"), k.h("Call", "name")},
		RightAlign: []bool{true, true, true}, Names: []bool{false, false, false, true}}
	for _, s := range r.Syncs {
		g.Rows = append(g.Rows, []string{k.dur(s.StartNs), k.dur(s.DurNs), k.dur(s.GPUBusyNs), s.Name})
	}
	return g
}

func deadGrid(r *gaps.Report, k gridKit) *layout.Grid {
	g := &layout.Grid{Headers: []string{k.h("Start", "start_ns"), k.h("Length", "length_ns"), k.h("Step", "step"), k.h("Thread", "thread"),
		k.h("Where", "where"), k.h("Op", "op")}, RightAlign: []bool{true, true, true}, Names: []bool{false, false, false, true, false, true}}
	for _, d := range r.Dead {
		where, op := "inside", d.Inside
		if d.Inside == "" {
			where, op = "after", d.After
		}
		step := "-"
		if k.csv {
			step = ""
		}
		if d.Step >= 0 {
			step = strconv.FormatInt(d.Step, 10)
		}
		g.Rows = append(g.Rows, []string{k.dur(d.StartNs), k.dur(d.LenNs), step, d.Thread, where, op})
	}
	return g
}

func stepGrid(r *gaps.Report, k gridKit) *layout.Grid {
	g := &layout.Grid{Headers: []string{k.h("Step", "step"), k.h("Start", "start_ns"), k.h("CPU time", "cpu_ns"), k.h("GPU busy", "gpu_busy_ns"),
		k.h("GPU idle", "gpu_idle_ns"), k.h("Largest gap", "largest_gap_ns"), k.h("Note", "cold")}, RightAlign: []bool{true, true, true, true, true, true}}
	for _, s := range r.Steps {
		n := ""
		switch {
		case k.csv:
			n = strconv.FormatBool(s.Cold)
		case s.Cold:
			n = "cold"
		}
		g.Rows = append(g.Rows, []string{strconv.FormatInt(s.Step, 10), k.dur(s.StartNs), k.dur(s.CPUNs), k.dur(s.GPUBusyNs),
			k.dur(s.GPUIdleNs), k.dur(s.LargestGap), n})
	}
	return g
}

// stepSummary summarises the text step grid by CPU time, GPU busy, GPU
// idle and the largest gap; the cold steps are always listed.
func stepSummary(r *gaps.Report) viewkit.Summary {
	n := len(r.Steps)
	cpu, busy, idle, gap := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	var cold []int
	for i, s := range r.Steps {
		cpu[i], busy[i], idle[i], gap[i] = s.CPUNs, s.GPUBusyNs, s.GPUIdleNs, s.LargestGap
		if s.Cold {
			cold = append(cold, i)
		}
	}
	return viewkit.Summary{Noun: "steps", Label: 0, Keep: cold, KeepWhy: "the cold steps",
		Cols: []viewkit.Column{viewkit.NsColumn(2, cpu, nil), viewkit.NsColumn(3, busy, nil), viewkit.NsColumn(4, idle, nil), viewkit.NsColumn(5, gap, nil)}}
}

func pctOf(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) * 100 / float64(b)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
