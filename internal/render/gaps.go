package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/units"
)

// GapsSchema versions the JSON form of the gaps report.
// 3: steps[] are each step's share of the verdict's GPU time (trace.FillGPU:
// gpu_window_ns, and busy and idle inside it, summing to the verdict's).
const GapsSchema = "tracetab.gaps/3"

func us(ns int64) float64 { return float64(ns) / 1e3 }
func nsT(ns int64) string { return fmtUs(us(ns)) }

type laneJSON struct {
	Device   int     `json:"device"`
	Stream   *int64  `json:"stream"`
	StartNs  int64   `json:"start_ns"`
	EndNs    int64   `json:"end_ns"`
	WindowNs int64   `json:"window_ns"`
	BusyNs   int64   `json:"busy_ns"`
	IdleNs   int64   `json:"idle_ns"`
	BusyPct  float64 `json:"busy_pct"`
	KernelNs int64   `json:"kernel_ns"`
	MemcpyNs int64   `json:"memcpy_ns"`
	MemsetNs int64   `json:"memset_ns"`
	Ops      int     `json:"ops"`
}

func optID(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

func laneOf(l gaps.Lane) laneJSON {
	return laneJSON{Device: l.Device, Stream: optID(l.Stream), StartNs: l.StartNs, EndNs: l.EndNs, WindowNs: l.WindowNs, BusyNs: l.BusyNs,
		IdleNs: l.IdleNs, BusyPct: round2(l.BusyPct()), KernelNs: l.KernelNs, MemcpyNs: l.MemcpyNs, MemsetNs: l.MemsetNs, Ops: l.Ops}
}

type idleJSON struct {
	Device        *int64  `json:"device"`
	Stream        *int64  `json:"stream"`
	IdleNs        int64   `json:"idle_ns"`
	HostWaitNs    int64   `json:"host_wait_ns"`
	KernelWaitNs  int64   `json:"kernel_wait_ns"`
	OtherWaitNs   int64   `json:"other_wait_ns"`
	IdleUs        float64 `json:"idle_us"`
	HostWaitUs    float64 `json:"host_wait_us"`
	KernelWaitUs  float64 `json:"kernel_wait_us"`
	OtherWaitUs   float64 `json:"other_wait_us"`
	HostWaitGaps  int     `json:"host_wait_gaps"`
	KernelWaitGap int     `json:"kernel_wait_gaps"`
	OtherWaitGaps int     `json:"other_wait_gaps"`
	BeforeFirstNs *int64  `json:"idle_before_first_op_ns"`
	AfterLastNs   *int64  `json:"idle_after_last_op_ns"`
}

func idleOf(d gaps.Idle, hta bool) idleJSON {
	w := d.WaitNs
	j := idleJSON{Device: optID(int64(d.Device)), Stream: optID(d.Stream), IdleNs: d.IdleNs(),
		HostWaitNs: w[gaps.HostWait], KernelWaitNs: w[gaps.KernelWait], OtherWaitNs: w[gaps.OtherWait],
		IdleUs: us(d.IdleNs()), HostWaitUs: us(w[gaps.HostWait]), KernelWaitUs: us(w[gaps.KernelWait]), OtherWaitUs: us(w[gaps.OtherWait]),
		HostWaitGaps: d.Gaps[gaps.HostWait], KernelWaitGap: d.Gaps[gaps.KernelWait], OtherWaitGaps: d.Gaps[gaps.OtherWait]}
	if !hta {
		j.BeforeFirstNs, j.AfterLastNs = &d.BeforeNs, &d.AfterNs
	}
	return j
}

type latJSON struct {
	Name     string `json:"name"`
	Count    int    `json:"count"`
	MinNs    int64  `json:"min_ns"`
	MedianNs int64  `json:"median_ns"`
	P90Ns    int64  `json:"p90_ns"`
	MaxNs    int64  `json:"max_ns"`
}

func latOf(s gaps.LatencyStats) latJSON {
	return latJSON{s.Name, s.Count, s.MinNs, s.MedNs, s.P90Ns, s.MaxNs}
}

var edgeNames = map[gaps.Edge]string{gaps.Between: "between ops", gaps.BeforeFirst: "before first op", gaps.AfterLast: "after last op"}

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

// causeText is "input: DataLoader 99%, inside: zoom_shift 83%".
func causeText(g gaps.Gap) string {
	s := fmt.Sprintf("%s %s%%", g.Cause, units.Pct(g.CausePct))
	if g.Activity != "" {
		s += fmt.Sprintf(", inside: %s %s%%", g.Activity, units.Pct(g.ActivityPct))
	}
	if g.Note != "" {
		s += "; " + g.Note
	}
	return s
}

// GapsJSON writes the report as JSON.
func GapsJSON(w io.Writer, file string, r *gaps.Report) error {
	type gapJSON struct {
		Device      int              `json:"device"`
		StartNs     int64            `json:"start_ns"`
		LenNs       int64            `json:"length_ns"`
		Where       string           `json:"where"`
		IdleKind    *string          `json:"idle_kind"`
		StepBefore  *int64           `json:"step_before"`
		StepAfter   *int64           `json:"step_after"`
		Steps       string           `json:"steps"`
		Before      *string          `json:"before"`
		After       *string          `json:"after"`
		Cause       string           `json:"cause"`
		CausePct    float64          `json:"cause_pct"`
		Activity    *string          `json:"activity"`
		ActivityPct *float64         `json:"activity_pct"`
		Note        *string          `json:"note"`
		LaunchLag   int64            `json:"launch_lag_ns"`
		Shares      map[string]int64 `json:"cause_shares_ns"`
	}
	type deadJSON struct {
		Thread  string  `json:"thread"`
		Inside  *string `json:"inside"`
		After   *string `json:"after"`
		StartNs int64   `json:"start_ns"`
		LenNs   int64   `json:"length_ns"`
		Step    *int64  `json:"step"`
	}
	type stepJSON struct {
		Step      int64 `json:"step"`
		StartNs   int64 `json:"start_ns"`
		CPUNs     int64 `json:"cpu_ns"`
		GPUWinNs  int64 `json:"gpu_window_ns"`
		GPUBusyNs int64 `json:"gpu_busy_ns"`
		GPUIdleNs int64 `json:"gpu_idle_ns"`
		LargestNs int64 `json:"largest_gap_ns"`
		Cold      bool  `json:"cold"`
	}
	type syncJSON struct {
		Name      string `json:"name"`
		StartNs   int64  `json:"start_ns"`
		DurNs     int64  `json:"dur_ns"`
		GPUBusyNs int64  `json:"gpu_busy_during_ns"`
	}
	type verdictJSON struct {
		Class       string           `json:"class"`
		Headline    string           `json:"headline"`
		Advice      *string          `json:"advice"`
		Narrowed    *string          `json:"narrowed_to"`
		Denominator *string          `json:"denominator"`
		SpanNs      *int64           `json:"span_ns"`
		Devices     int              `json:"devices"`
		BusyNs      *int64           `json:"gpu_busy_ns"`
		IdleNs      *int64           `json:"gpu_idle_ns"`
		IdlePct     *float64         `json:"gpu_idle_pct"`
		ClassNs     *int64           `json:"class_idle_ns"`
		Activity    *string          `json:"activity"`
		ActivityNs  *int64           `json:"activity_idle_ns"`
		CPUActiveNs *int64           `json:"cpu_active_ns"`
		CPUWindowNs *int64           `json:"cpu_window_ns"`
		ByCause     map[string]int64 `json:"idle_by_cause_ns"`
	}
	type idleRepJSON struct {
		HTA     bool       `json:"hta"`
		Streams []idleJSON `json:"streams"`
		Devices []idleJSON `json:"devices"`
		Total   idleJSON   `json:"total"`
	}
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	v := r.Verdict
	vj := verdictJSON{Class: v.Class, Headline: v.Headline, Advice: str(v.Advice), Narrowed: str(r.Narrowed), Devices: v.Devices,
		Activity: str(v.Activity)}
	if !r.NoGPU { // a CPU-only trace measures none of these
		vj.Denominator, vj.SpanNs, vj.BusyNs, vj.IdleNs, vj.IdlePct = &v.Denominator, &v.SpanNs, &v.BusyNs, &v.IdleNs, &v.IdlePct
		vj.ClassNs, vj.CPUActiveNs, vj.CPUWindowNs = &v.ClassNs, &v.CPUActiveNs, &v.CPUWindowNs
		vj.ByCause = map[string]int64{}
		for _, c := range gaps.Causes() {
			vj.ByCause[c.String()] = v.IdleByCause[c]
		}
	}
	if v.Activity != "" {
		vj.ActivityNs = &v.ActivityNs
	}
	out := struct {
		Schema       string       `json:"schema"`
		File         string       `json:"file"`
		GPU          bool         `json:"has_gpu_lane"`
		Verdict      verdictJSON  `json:"verdict"`
		Devices      []laneJSON   `json:"devices"`
		Streams      []laneJSON   `json:"streams"`
		Idle         *idleRepJSON `json:"idle"`
		Gaps         []gapJSON    `json:"gaps"`
		Breakdown    any          `json:"step_breakdown"`
		Latency      *latJSON     `json:"launch_latency"`
		LatencyBy    []latJSON    `json:"launch_latency_by_name"`
		LaneOffsetNs *int64       `json:"lane_offset_ns"`
		Unlinked     int          `json:"unlinked_device_ops"`
		Dead         []deadJSON   `json:"cpu_dead_windows"`
		Steps        []stepJSON   `json:"steps"`
		Syncs        []syncJSON   `json:"blocking_calls"`
	}{Schema: GapsSchema, File: file, GPU: !r.NoGPU, Verdict: vj, Devices: []laneJSON{}, Streams: []laneJSON{}, Gaps: []gapJSON{},
		LatencyBy: []latJSON{}, Unlinked: r.UnlinkedOps, Dead: []deadJSON{}, Steps: []stepJSON{}, Syncs: []syncJSON{}}
	for _, d := range r.Devices {
		out.Devices = append(out.Devices, laneOf(d))
	}
	for _, d := range r.Streams {
		out.Streams = append(out.Streams, laneOf(d))
	}
	if !r.NoGPU {
		ij := &idleRepJSON{HTA: r.Idle.HTA, Streams: []idleJSON{}, Devices: []idleJSON{}, Total: idleOf(r.Idle.Total, r.Idle.HTA)}
		for _, d := range r.Idle.Streams {
			ij.Streams = append(ij.Streams, idleOf(d, r.Idle.HTA))
		}
		for _, d := range r.Idle.Devices {
			ij.Devices = append(ij.Devices, idleOf(d, r.Idle.HTA))
		}
		out.Idle = ij
	}
	for _, g := range r.Gaps {
		j := gapJSON{Device: g.Device, StartNs: g.StartNs, LenNs: g.LenNs, Where: edgeNames[g.Edge], StepBefore: optID(g.StepBefore),
			StepAfter: optID(g.StepAfter), Steps: gapSteps(g), Before: str(g.Before), After: str(g.After), Cause: g.Cause.String(),
			CausePct: g.CausePct, Activity: str(g.Activity), Note: str(g.Note), LaunchLag: g.LaunchLagNs, Shares: map[string]int64{}}
		if g.Edge == gaps.Between {
			k := g.Kind.String()
			j.IdleKind = &k
		}
		if g.Activity != "" {
			p := g.ActivityPct
			j.ActivityPct = &p
		}
		for _, c := range gaps.Causes() {
			if g.Shares[c] != 0 {
				j.Shares[c.String()] = g.Shares[c]
			}
		}
		out.Gaps = append(out.Gaps, j)
	}
	if r.Breakdown != nil {
		out.Breakdown = breakdownJSON(r.Breakdown)
	}
	if r.Latency.Count > 0 {
		l := latOf(r.Latency)
		out.Latency = &l
	}
	for _, s := range r.LatencyByName {
		out.LatencyBy = append(out.LatencyBy, latOf(s))
	}
	if r.HasLaneOffset {
		out.LaneOffsetNs = &r.LaneOffsetNs
	}
	for _, d := range r.Dead {
		out.Dead = append(out.Dead, deadJSON{d.Thread, str(d.Inside), str(d.After), d.StartNs, d.LenNs, optID(d.Step)})
	}
	for _, s := range r.Syncs {
		out.Syncs = append(out.Syncs, syncJSON{s.Name, s.StartNs, s.DurNs, s.GPUBusyNs})
	}
	for _, s := range r.Steps {
		out.Steps = append(out.Steps, stepJSON{s.Step, s.StartNs, s.CPUNs, s.GPUWindowNs, s.GPUBusyNs, s.GPUIdleNs, s.LargestGap, s.Cold})
	}
	return JSON(w, out)
}

// short fits s into n runes, cutting its middle so the distinguishing tail
// of a kernel name stays visible.
func short(s string, n int) string { return names.Truncate(s, n) }

// GapsGrids are the report's tables for md and csv: the verdict, the lanes
// with their idle categories, idle by cause, and the gap list.
func GapsGrids(r *gaps.Report, csv bool) []*Grid {
	t := func(ns int64) string { return units.Dur(ns) }
	if csv {
		t = func(ns int64) string { return strconv.FormatInt(ns, 10) }
	}
	h := func(text, csvName string) string {
		if csv {
			return csvName
		}
		return text
	}
	v := r.Verdict
	vg := &Grid{Headers: []string{h("Verdict", "class"), h("Denominator", "denominator"), h("Span", "span_ns"), h("GPU idle %", "gpu_idle_pct"),
		h("Headline", "headline"), h("Advice", "advice")}}
	grids := []*Grid{vg}
	if r.NoGPU { // nothing measured: no numbers
		vg.Rows = append(vg.Rows, []string{v.Class, "-", "-", "-", v.Headline, "-"})
		return grids
	}
	vg.Rows = append(vg.Rows, []string{v.Class, v.Denominator, t(v.SpanNs), units.Pct(v.IdlePct), v.Headline, v.Advice})
	lg := &Grid{Headers: []string{h("Lane", "lane"), h("Window", "window_ns"), h("Busy", "busy_ns"), h("Busy %", "busy_pct"), h("Idle", "idle_ns"),
		h("Host wait", "host_wait_ns"), h("Kernel wait", "kernel_wait_ns"), h("Other wait", "other_wait_ns"), h("Ops", "ops")},
		RightAlign: []bool{false, true, true, true, true, true, true, true, true}}
	for _, row := range laneRows(r) {
		l, d := row.lane, row.idle
		lg.Rows = append(lg.Rows, []string{row.name, t(l.WindowNs), t(l.BusyNs), units.Pct(l.BusyPct()), t(l.IdleNs),
			t(d.WaitNs[gaps.HostWait]), t(d.WaitNs[gaps.KernelWait]), t(d.WaitNs[gaps.OtherWait]), strconv.Itoa(l.Ops)})
	}
	cg := &Grid{Headers: []string{h("Cause", "cause"), h("Idle", "idle_ns"), h("Share of idle %", "share_pct")}, RightAlign: []bool{false, true, true}}
	for _, c := range gaps.Causes() {
		if ns := v.IdleByCause[c]; ns > 0 {
			cg.Rows = append(cg.Rows, []string{c.String(), t(ns), units.Pct(pctOf(ns, v.IdleNs))})
		}
	}
	grids = append(grids, lg, cg, gapList(r, csv))
	if r.Breakdown != nil {
		grids = append(grids, BreakdownGrid(r.Breakdown, t, csv))
	}
	return grids
}

func pctOf(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) * 100 / float64(b)
}

type laneRow struct {
	name string
	lane gaps.Lane
	idle gaps.Idle
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
		out = append(out, laneRow{fmt.Sprintf("device %d", d.Device), d, di})
		for ; j < len(r.Streams) && r.Streams[j].Device <= d.Device; j++ {
			if r.Streams[j].Device < d.Device {
				continue
			}
			var si gaps.Idle
			if j < len(r.Idle.Streams) {
				si = r.Idle.Streams[j]
			}
			out = append(out, laneRow{fmt.Sprintf("  stream %d", r.Streams[j].Stream), r.Streams[j], si})
		}
	}
	return out
}

func gapList(r *gaps.Report, csv bool) *Grid {
	g := &Grid{Headers: []string{"Device", "Start", "Length", "Steps", "Where", "Idle kind", "Cause", "Before", "After"},
		RightAlign: []bool{true, true, true}}
	t := units.Dur
	if csv {
		g.Headers = []string{"device", "start_ns", "length_ns", "steps", "where", "idle_kind", "cause", "before", "after"}
		t = func(ns int64) string { return strconv.FormatInt(ns, 10) }
	}
	for _, x := range r.Gaps {
		kind := "-"
		if x.Edge == gaps.Between {
			kind = x.Kind.String()
		}
		g.Rows = append(g.Rows, []string{strconv.Itoa(x.Device), t(x.StartNs), t(x.LenNs), gapSteps(x), edgeNames[x.Edge], kind, causeText(x),
			orDash(x.Before), orDash(x.After)})
	}
	return g
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func noneAbove(b *strings.Builder, minGap int64) {
	if minGap > 0 {
		fmt.Fprintf(b, "  none above %s\n", units.Dur(minGap))
	} else {
		b.WriteString("  none\n")
	}
}

// GapsText writes the report for a person; minGap is the --min-gap used
// (a section with no rows says "none above" it).
func GapsText(w io.Writer, r *gaps.Report, minGap int64, sparks ...StepSparks) error {
	var b strings.Builder
	p := func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }
	v := r.Verdict
	if r.NoGPU {
		p("verdict     no GPU lane: %s\n", v.Headline)
	} else {
		p("verdict     %s: %s\n", strings.ToUpper(v.Class), v.Headline)
		if v.Advice != "" {
			p("advice      %s\n", v.Advice)
		}
		p("span        %s: %s per device; GPU busy %s, idle %s (%s%%); CPU active on the launching threads %s of %s\n",
			v.Denominator, units.Dur(v.SpanNs), units.Dur(v.BusyNs), units.Dur(v.IdleNs), units.Pct(v.IdlePct), units.Dur(v.CPUActiveNs), units.Dur(v.CPUWindowNs))
		if r.HasLaneOffset {
			p("lane offset the first launched op started %s after its launch call (GPU lane behind the CPU lane)\n", units.Dur(r.LaneOffsetNs))
		}
		if r.UnlinkedOps > 0 {
			p("unlinked    %s no launch call in the trace (launched before the window opened): never a host wait\n", units.Plural(r.UnlinkedOps, "device op has", "device ops have"))
		}
		p("\nidle time by cause (over the span; shares of each gap by what the launching thread did):\n")
		cg := &Grid{Headers: []string{"Cause", "Idle", "Share"}, RightAlign: []bool{false, true, true}}
		for _, c := range gaps.Causes() {
			if ns := v.IdleByCause[c]; ns > 0 {
				cg.Rows = append(cg.Rows, []string{c.String(), units.Dur(ns), units.Pct(pctOf(ns, v.IdleNs)) + "%"})
			}
		}
		if len(cg.Rows) == 0 {
			p("  none\n")
		} else {
			cg.Write(&b, "text")
		}
		mode := "exact integer ns"
		if r.Idle.HTA {
			mode = "as HTA 0.6.1 computes them: whole us, last step dropped, overlaps summed as negative gaps"
		}
		p("\nlanes (window: first to last device op; idle categories %s):\n", mode)
		lg := &Grid{Headers: []string{"Lane", "Window", "Busy", "Busy %", "Idle", "Host wait", "Kernel wait", "Other wait", "Ops"},
			RightAlign: []bool{false, true, true, true, true, true, true, true, true}}
		for _, row := range laneRows(r) {
			l, d := row.lane, row.idle
			lg.Rows = append(lg.Rows, []string{row.name, units.Dur(l.WindowNs), units.Dur(l.BusyNs), units.Pct(l.BusyPct()), units.Dur(l.IdleNs),
				units.Dur(d.WaitNs[gaps.HostWait]), units.Dur(d.WaitNs[gaps.KernelWait]), units.Dur(d.WaitNs[gaps.OtherWait]), strconv.Itoa(l.Ops)})
		}
		tot := r.Idle.Total
		lg.Rows = append(lg.Rows, []string{"total", "", "", "", units.Dur(tot.IdleNs()), units.Dur(tot.WaitNs[gaps.HostWait]),
			units.Dur(tot.WaitNs[gaps.KernelWait]), units.Dur(tot.WaitNs[gaps.OtherWait]), ""})
		lg.Write(&b, "text")
		if !r.Idle.HTA {
			p("idle before the first op %s, after the last op %s (inside the span, summed over devices)\n", units.Dur(tot.BeforeNs), units.Dur(tot.AfterNs))
		}
		p("\nlargest GPU gaps (steps by the launch-call clock: the step each side's op was launched in):\n")
		if len(r.Gaps) == 0 {
			noneAbove(&b, minGap)
		} else {
			gg := gapList(r, false)
			for _, row := range gg.Rows {
				row[6], row[7], row[8] = short(row[6], 90), short(row[7], 30), short(row[8], 30)
			}
			gg.Write(&b, "text")
		}
		if r.Breakdown != nil {
			breakdownText(&b, r.Breakdown)
		}
		if r.Latency.Count > 0 {
			l := r.Latency
			p("\nlaunch latency (device op start - launch call start): min %s, median %s, p90 %s, max %s over %d ops\n",
				units.Dur(l.MinNs), units.Dur(l.MedNs), units.Dur(l.P90Ns), units.Dur(l.MaxNs), l.Count)
			lg := &Grid{Headers: []string{"Count", "Min", "Median", "P90", "Max", "Name"}, RightAlign: []bool{true, true, true, true, true}}
			for k, s := range r.LatencyByName {
				if k == 10 {
					break
				}
				lg.Rows = append(lg.Rows, []string{strconv.Itoa(s.Count), units.Dur(s.MinNs), units.Dur(s.MedNs), units.Dur(s.P90Ns), units.Dur(s.MaxNs), short(s.Name, 60)})
			}
			lg.Write(&b, "text")
		}
	}
	p("\nblocking calls on the CPU (the CPU waits; GPU work that ran meanwhile):\n")
	if len(r.Syncs) == 0 {
		p("  none\n")
	} else {
		yg := &Grid{Headers: []string{"Start", "Duration", "GPU work during", "Call"}, RightAlign: []bool{true, true, true}}
		for _, s := range r.Syncs {
			yg.Rows = append(yg.Rows, []string{units.Dur(s.StartNs), units.Dur(s.DurNs), units.Dur(s.GPUBusyNs), s.Name})
		}
		yg.Write(&b, "text")
	}
	p("\nCPU lane: dead windows on the launching and step threads (inside an op before its first child, or between top-level ops):\n")
	if len(r.Dead) == 0 {
		noneAbove(&b, minGap)
	} else {
		dg := &Grid{Headers: []string{"Start", "Length", "Step", "Thread", "Where"}, RightAlign: []bool{true, true, true}}
		for _, d := range r.Dead {
			where := "inside " + d.Inside + ", before its first child"
			if d.Inside == "" {
				where = "between top-level ops, after " + d.After
			}
			step := "-"
			if d.Step >= 0 {
				step = strconv.FormatInt(d.Step, 10)
			}
			dg.Rows = append(dg.Rows, []string{units.Dur(d.StartNs), units.Dur(d.LenNs), step, short(d.Thread, 30), short(where, 70)})
		}
		dg.Write(&b, "text")
	}
	if len(r.Steps) > 0 {
		p("\nsteps (GPU work counted in the step its launch call ran in):\n")
		sg := &Grid{Headers: []string{"Step", "Start", "CPU time", "GPU busy", "GPU idle", "Largest gap", "Note"},
			RightAlign: []bool{true, true, true, true, true, true}}
		for _, s := range r.Steps {
			n := ""
			if s.Cold {
				n = "cold start: much longer than the median step"
			}
			sg.Rows = append(sg.Rows, []string{strconv.FormatInt(s.Step, 10), units.Dur(s.StartNs), units.Dur(s.CPUNs), units.Dur(s.GPUBusyNs),
				units.Dur(s.GPUIdleNs), units.Dur(s.LargestGap), n})
		}
		addStepSparks(sg, sparks)
		sg.Write(&b, "text")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// GapsTables writes the md or csv form: every grid, separated by a blank
// line (md gets a heading per table).
func GapsTables(w io.Writer, r *gaps.Report, format string) error {
	titles := []string{"Verdict", "Lanes and idle categories", "Idle time by cause", "Largest GPU gaps", "Step time breakdown"}
	for k, g := range GapsGrids(r, format == "csv") {
		if k > 0 {
			io.WriteString(w, "\n")
		}
		if format == "md" {
			fmt.Fprintf(w, "### %s\n\n", titles[k])
		}
		if err := g.Write(w, format); err != nil {
			return err
		}
	}
	return nil
}

var roleKeys = []string{"kernel_ns", "memcpy_ns", "memset_ns", "runtime_ns", "dataloader_ns", "cpu_exec_ns", "other_ns"}

func stepBreakdownJSON(s gaps.StepBreakdown) map[string]any {
	m := map[string]any{"total_ns": s.TotalNs}
	if s.Step >= 0 {
		m["step"], m["start_ns"], m["extended_by_ns"] = s.Step, s.StartNs, s.ExtendedByNs
	}
	for r, k := range roleKeys {
		m[k] = s.Ns[r]
	}
	return m
}

func breakdownJSON(b *gaps.Breakdown) any {
	steps := []map[string]any{}
	for _, s := range b.Steps {
		steps = append(steps, stepBreakdownJSON(s))
	}
	var advice, note *string
	if b.Advice != "" {
		advice = &b.Advice
	}
	if b.Note != "" {
		note = &b.Note
	}
	return map[string]any{"steps": steps, "total": stepBreakdownJSON(b.Total), "advice": advice, "note": note}
}

// BreakdownGrid is the step breakdown as a table (durations as f formats them).
func BreakdownGrid(b *gaps.Breakdown, f func(int64) string, csv bool) *Grid {
	g := &Grid{Headers: []string{"Step", "Total"}, RightAlign: []bool{true, true}}
	if csv {
		g.Headers = []string{"step", "total_ns"}
	}
	for r, role := range gaps.Roles() {
		if csv {
			g.Headers = append(g.Headers, roleKeys[r])
		} else {
			g.Headers = append(g.Headers, role.String())
		}
		g.RightAlign = append(g.RightAlign, true)
	}
	add := func(name string, s gaps.StepBreakdown) {
		row := []string{name, f(s.TotalNs)}
		for _, ns := range s.Ns {
			row = append(row, f(ns))
		}
		g.Rows = append(g.Rows, row)
	}
	for _, s := range b.Steps {
		add(strconv.FormatInt(s.Step, 10), s)
	}
	add("total", b.Total)
	return g
}

func breakdownText(b *strings.Builder, bd *gaps.Breakdown) {
	b.WriteString("\nstep time breakdown (the TensorBoard plugin's Overview: each instant counted once, for the first of\n")
	b.WriteString("Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec active; each step extended to the end of its GPU work):\n")
	if len(bd.Steps) == 0 {
		b.WriteString("  none\n")
		return
	}
	BreakdownGrid(bd, units.Dur, false).Write(b, "text")
	if bd.Note != "" {
		b.WriteString("note: " + bd.Note + "\n")
	}
	if bd.Advice != "" {
		b.WriteString("recommendation: " + bd.Advice + "\n")
	}
}
