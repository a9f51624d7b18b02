package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
)

// GapsSchema versions the JSON form of the gaps report.
const GapsSchema = "tracetab.gaps/1"

func us(ns int64) float64 { return float64(ns) / 1e3 }
func nsT(ns int64) string { return fmtUs(us(ns)) }

type laneJSON struct {
	Device   int     `json:"device"`
	Stream   *int64  `json:"stream,omitempty"`
	StartUs  float64 `json:"start_us"`
	EndUs    float64 `json:"end_us"`
	WindowUs float64 `json:"window_us"`
	BusyUs   float64 `json:"busy_us"`
	IdleUs   float64 `json:"idle_us"`
	BusyPct  float64 `json:"busy_pct"`
	KernelUs float64 `json:"kernel_us"`
	MemcpyUs float64 `json:"memcpy_us"`
	MemsetUs float64 `json:"memset_us"`
	Ops      int     `json:"ops"`
}

func laneOf(l gaps.Lane) laneJSON {
	j := laneJSON{Device: l.Device, StartUs: us(l.StartNs), EndUs: us(l.EndNs), WindowUs: us(l.WindowNs), BusyUs: us(l.BusyNs),
		IdleUs: us(l.IdleNs), BusyPct: l.BusyPct(), KernelUs: us(l.KernelNs), MemcpyUs: us(l.MemcpyNs), MemsetUs: us(l.MemsetNs), Ops: l.Ops}
	if l.Stream >= 0 {
		s := l.Stream
		j.Stream = &s
	}
	return j
}

type latJSON struct {
	Name     string  `json:"name"`
	Count    int     `json:"count"`
	MinUs    float64 `json:"min_us"`
	MedianUs float64 `json:"median_us"`
	P90Us    float64 `json:"p90_us"`
	MaxUs    float64 `json:"max_us"`
}

func latOf(s gaps.LatencyStats) latJSON {
	return latJSON{s.Name, s.Count, us(s.MinNs), us(s.MedNs), us(s.P90Ns), us(s.MaxNs)}
}

type syncJSON struct {
	Name      string  `json:"name"`
	StartUs   float64 `json:"start_us"`
	DurUs     float64 `json:"dur_us"`
	GPUBusyUs float64 `json:"gpu_busy_during_us"`
}

// GapsJSON writes the report as JSON.
func GapsJSON(w io.Writer, file string, r *gaps.Report) error {
	type gapJSON struct {
		Device    int     `json:"device"`
		StartUs   float64 `json:"start_us"`
		LenUs     float64 `json:"length_us"`
		Step      int64   `json:"step"`
		StepOffUs float64 `json:"step_offset_us"`
		Before    string  `json:"before"`
		After     string  `json:"after"`
		Cause     string  `json:"cause"`
		Detail    string  `json:"detail"`
		LaunchLag float64 `json:"launch_lag_us"`
	}
	type deadJSON struct {
		Thread  string  `json:"thread"`
		Inside  string  `json:"inside,omitempty"`
		After   string  `json:"after,omitempty"`
		StartUs float64 `json:"start_us"`
		LenUs   float64 `json:"length_us"`
		Step    int64   `json:"step"`
	}
	type stepJSON struct {
		Step      int64   `json:"step"`
		StartUs   float64 `json:"start_us"`
		CPUUs     float64 `json:"cpu_us"`
		GPUBusyUs float64 `json:"gpu_busy_us"`
		GPUIdleUs float64 `json:"gpu_idle_us"`
		LargestUs float64 `json:"largest_gap_us"`
		Cold      bool    `json:"cold"`
	}
	out := struct {
		Schema       string             `json:"schema"`
		File         string             `json:"file"`
		GPU          bool               `json:"has_gpu_lane"`
		Verdict      string             `json:"verdict"`
		Reason       string             `json:"reason"`
		CPUActiveUs  float64            `json:"cpu_active_us"`
		GPUBusyUs    float64            `json:"gpu_busy_us"`
		GPUIdlePct   float64            `json:"gpu_idle_pct"`
		StarvedPct   float64            `json:"starved_share_of_idle_pct"`
		Devices      []laneJSON         `json:"devices"`
		Streams      []laneJSON         `json:"streams"`
		IdleByCause  map[string]float64 `json:"idle_us_by_cause"`
		GapsByCause  map[string]int     `json:"gaps_by_cause"`
		Gaps         []gapJSON          `json:"gaps"`
		Latency      *latJSON           `json:"launch_latency,omitempty"`
		LatencyBy    []latJSON          `json:"launch_latency_by_name"`
		LaneOffsetUs *float64           `json:"lane_offset_us,omitempty"`
		Unlinked     int                `json:"unlinked_device_ops"`
		Dead         []deadJSON         `json:"cpu_dead_windows"`
		Steps        []stepJSON         `json:"steps"`
		SpanUs       float64            `json:"profiled_span_us"`
		Syncs        []syncJSON         `json:"blocking_calls"`
	}{SpanUs: us(r.Verdict.SpanNs), Syncs: []syncJSON{}, Schema: GapsSchema, File: file, GPU: !r.NoGPU, Verdict: r.Verdict.Bound, Reason: r.Verdict.Reason,
		CPUActiveUs: us(r.Verdict.CPUActiveNs), GPUBusyUs: us(r.Verdict.GPUBusyNs), GPUIdlePct: r.Verdict.GPUIdlePct,
		StarvedPct: r.Verdict.StarvedIdlePct, Devices: []laneJSON{}, Streams: []laneJSON{}, IdleByCause: map[string]float64{},
		GapsByCause: map[string]int{}, Gaps: []gapJSON{}, LatencyBy: []latJSON{}, Unlinked: r.UnlinkedOps, Dead: []deadJSON{}, Steps: []stepJSON{}}
	for _, d := range r.Devices {
		out.Devices = append(out.Devices, laneOf(d))
	}
	for _, d := range r.Streams {
		out.Streams = append(out.Streams, laneOf(d))
	}
	for c, v := range r.IdleByCause {
		out.IdleByCause[string(c)] = us(v)
		out.GapsByCause[string(c)] = r.GapsByCause[c]
	}
	for _, g := range r.Gaps {
		out.Gaps = append(out.Gaps, gapJSON{g.Device, us(g.StartNs), us(g.LenNs), g.Step, us(g.StepOffNs), g.Before, g.After, string(g.Cause), g.Detail, us(g.LaunchLagNs)})
	}
	if r.Latency.Count > 0 {
		l := latOf(r.Latency)
		out.Latency = &l
	}
	for _, s := range r.LatencyByName {
		out.LatencyBy = append(out.LatencyBy, latOf(s))
	}
	if r.HasLaneOffset {
		v := us(r.LaneOffsetNs)
		out.LaneOffsetUs = &v
	}
	for _, d := range r.Dead {
		out.Dead = append(out.Dead, deadJSON{d.Thread, d.Inside, d.After, us(d.StartNs), us(d.LenNs), d.Step})
	}
	for _, s := range r.Syncs {
		out.Syncs = append(out.Syncs, syncJSON{s.Name, us(s.StartNs), us(s.DurNs), us(s.GPUBusyNs)})
	}
	for _, s := range r.Steps {
		out.Steps = append(out.Steps, stepJSON{s.Step, us(s.StartNs), us(s.CPUNs), us(s.GPUBusyNs), us(s.GPUIdleNs), us(s.LargestGap), s.Cold})
	}
	return JSON(w, out)
}

// GapsGrid is the gap list as a grid, for md and csv.
func GapsGrid(r *gaps.Report, csv bool) *Grid {
	g := &Grid{Headers: []string{"Device", "Start", "Length", "Step", "In step", "Cause", "Detail", "Before", "After"},
		RightAlign: []bool{true, true, true, true, true}}
	t := nsT
	if csv {
		g.Headers = []string{"device", "start_us", "length_us", "step", "step_offset_us", "cause", "detail", "before", "after"}
		t = func(ns int64) string { return strconv.FormatFloat(us(ns), 'f', -1, 64) }
	}
	for _, x := range r.Gaps {
		step := "-"
		if x.Step >= 0 {
			step = strconv.FormatInt(x.Step, 10)
		}
		g.Rows = append(g.Rows, []string{strconv.Itoa(x.Device), t(x.StartNs), t(x.LenNs), step, t(x.StepOffNs), string(x.Cause), x.Detail, x.Before, x.After})
	}
	return g
}

func short(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	return string([]rune(s)[:n-3]) + "..."
}

// GapsText writes the report for a person.
func GapsText(w io.Writer, r *gaps.Report) error {
	var b strings.Builder
	p := func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }
	if r.NoGPU {
		p("verdict     no GPU lane: the trace has no kernels, memcpys or memsets (a CPU-only trace)\n")
	} else {
		v := r.Verdict
		p("verdict     %s: %s\n", strings.ToUpper(v.Bound), v.Reason)
		p("            CPU active (launching threads) %s, GPU busy %s, GPU idle %.1f%%, CPU-starved share of idle %.1f%%\n",
			nsT(v.CPUActiveNs), nsT(v.GPUBusyNs), v.GPUIdlePct, v.StarvedIdlePct)
		if r.HasLaneOffset {
			p("lane offset the first launched op started %s after its launch call (GPU lane behind the CPU lane)\n", nsT(r.LaneOffsetNs))
		}
		if r.UnlinkedOps > 0 {
			p("unlinked    %d device ops have no launch call in the trace (launched before the window opened)\n", r.UnlinkedOps)
		}
		p("\n")
		g := &Grid{Headers: []string{"Lane", "Window", "Busy", "Busy %", "Idle", "Kernels", "Memcpy", "Memset", "Ops"},
			RightAlign: []bool{false, true, true, true, true, true, true, true, true}}
		add := func(name string, l gaps.Lane) {
			g.Rows = append(g.Rows, []string{name, nsT(l.WindowNs), nsT(l.BusyNs), strconv.FormatFloat(l.BusyPct(), 'f', 2, 64),
				nsT(l.IdleNs), nsT(l.KernelNs), nsT(l.MemcpyNs), nsT(l.MemsetNs), strconv.Itoa(l.Ops)})
		}
		for _, d := range r.Devices {
			add(fmt.Sprintf("device %d", d.Device), d)
			for _, s := range r.Streams {
				if s.Device == d.Device {
					add(fmt.Sprintf("  stream %d", s.Stream), s)
				}
			}
		}
		g.Write(&b, "text")
		p("\nidle time by cause:")
		for _, c := range []gaps.Cause{gaps.CauseStarved, gaps.CauseSync, gaps.CauseProfiler, gaps.CauseQueue} {
			p("  %s %s (%d gaps)", c, nsT(r.IdleByCause[c]), r.GapsByCause[c])
		}
		p("\n\nlargest GPU gaps:\n")
		gg := GapsGrid(r, false)
		for _, row := range gg.Rows {
			row[6], row[7], row[8] = short(row[6], 40), short(row[7], 30), short(row[8], 30)
		}
		gg.Write(&b, "text")
		if r.Latency.Count > 0 {
			l := r.Latency
			p("\nlaunch latency (device op start - launch call start): min %s, median %s, p90 %s, max %s over %d ops\n",
				nsT(l.MinNs), nsT(l.MedNs), nsT(l.P90Ns), nsT(l.MaxNs), l.Count)
			lg := &Grid{Headers: []string{"Count", "Min", "Median", "P90", "Max", "Name"}, RightAlign: []bool{true, true, true, true, true}}
			for k, s := range r.LatencyByName {
				if k == 10 {
					break
				}
				lg.Rows = append(lg.Rows, []string{strconv.Itoa(s.Count), nsT(s.MinNs), nsT(s.MedNs), nsT(s.P90Ns), nsT(s.MaxNs), short(s.Name, 60)})
			}
			lg.Write(&b, "text")
		}
	}
	if len(r.Syncs) > 0 {
		p("\nblocking calls on the CPU (the CPU waits; GPU work that ran meanwhile):\n")
		yg := &Grid{Headers: []string{"Start", "Duration", "GPU work during", "Call"}, RightAlign: []bool{true, true, true}}
		for _, s := range r.Syncs {
			yg.Rows = append(yg.Rows, []string{nsT(s.StartNs), nsT(s.DurNs), nsT(s.GPUBusyNs), s.Name})
		}
		yg.Write(&b, "text")
	}
	if len(r.Dead) > 0 {
		p("\nCPU lane: dead windows (inside an op before its first child, or between top-level ops):\n")
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
			dg.Rows = append(dg.Rows, []string{nsT(d.StartNs), nsT(d.LenNs), step, short(d.Thread, 30), short(where, 70)})
		}
		dg.Write(&b, "text")
	}
	if len(r.Steps) > 0 {
		p("\nsteps:\n")
		sg := &Grid{Headers: []string{"Step", "Start", "CPU time", "GPU busy", "GPU idle", "Largest gap", "Note"},
			RightAlign: []bool{true, true, true, true, true, true}}
		for _, s := range r.Steps {
			n := ""
			if s.Cold {
				n = "cold start: much longer than the median step"
			}
			sg.Rows = append(sg.Rows, []string{strconv.FormatInt(s.Step, 10), nsT(s.StartNs), nsT(s.CPUNs), nsT(s.GPUBusyNs), nsT(s.GPUIdleNs), nsT(s.LargestGap), n})
		}
		sg.Write(&b, "text")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
