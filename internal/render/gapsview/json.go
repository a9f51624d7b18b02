package gapsview

import (
	"github.com/tracetab/tracetab/internal/kerneleff"
	"io"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// GapsSchema versions the JSON form of the gaps report.
// 3: steps[] are each step's share of the verdict's GPU time (trace.FillGPU:
// gpu_window_ns, and busy and idle inside it, summing to the verdict's); the start-up fields of the verdict (startup_*, steady_*), the input
// split, blocking_launch_ns; per gap the launch call, blocking_launch,
// input_preparation_ns, host_activity, other_stream_busy_ns; the startup
// cause; streams[].queue (added without a version change: the launch
// queue of each stream).
const GapsSchema = "tracetab.gaps/3"

func us(ns int64) float64 { return float64(ns) / 1e3 }

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
	// device rows only (null for streams and where not measured): the
	// TensorBoard plugin's GPU Summary over its steps span
	GPUUtilization *float64 `json:"gpu_utilization_pct"`
	SMEfficiency   *float64 `json:"est_sm_efficiency_pct"`
	Occupancy      *float64 `json:"est_achieved_occupancy_pct"`
}

// effOf fills a device row's efficiency fields.
func effOf(j *laneJSON, d *kerneleff.Device) {
	if d == nil {
		return
	}
	opt := func(v float64, ok bool) *float64 {
		if !ok {
			return nil
		}
		r := viewkit.Round2(v)
		return &r
	}
	j.GPUUtilization = opt(d.UtilizationPct, d.WindowNs > 0)
	j.SMEfficiency = opt(d.SMEfficiencyPct, d.HasSMEfficiency)
	j.Occupancy = opt(d.OccupancyPct, d.HasOccupancy)
}

// streamJSON is a stream's lane with its launch queue (null: no op of
// the stream has its launch call in the trace).
type streamJSON struct {
	laneJSON
	Queue *queueJSON `json:"queue"`
}

func optID(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

func laneOf(l gaps.Lane) laneJSON {
	return laneJSON{Device: l.Device, Stream: optID(l.Stream), StartNs: l.StartNs, EndNs: l.EndNs, WindowNs: l.WindowNs, BusyNs: l.BusyNs,
		IdleNs: l.IdleNs, BusyPct: viewkit.Round2(l.BusyPct()), KernelNs: l.KernelNs, MemcpyNs: l.MemcpyNs, MemsetNs: l.MemsetNs, Ops: l.Ops}
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

// JSON writes the report as JSON.
func JSON(w io.Writer, file string, r *gaps.Report) error {
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
		Call        *string          `json:"launch_call"`
		CallNs      *int64           `json:"launch_call_ns"`
		Blocking    bool             `json:"blocking_launch"`
		PrepNs      int64            `json:"input_preparation_ns"`
		Host        *string          `json:"host_activity"`
		HostPct     *float64         `json:"host_activity_pct"`
		OtherBusyNs int64            `json:"other_stream_busy_ns"`
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
		Also        []string         `json:"also"`
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
		StartupNs   *int64           `json:"startup_ns"`
		StartupPct  *float64         `json:"startup_pct"`
		Startup     []startupJSON    `json:"startup_calls"`
		SteadyClass string           `json:"steady_class"`
		SteadyHead  string           `json:"steady_headline"`
		SteadyPct   *float64         `json:"steady_gpu_idle_pct"`
		LoaderNs    *int64           `json:"input_dataloader_ns"`
		PrepNs      *int64           `json:"input_preparation_ns"`
		Prep        *string          `json:"input_preparation"`
		BlockingNs  *int64           `json:"blocking_launch_ns"`
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
	vj := verdictJSON{Class: v.Class, Headline: v.Headline, Advice: str(v.Advice), Also: append([]string{}, v.Also...), Narrowed: str(r.Narrowed), Devices: v.Devices,
		Activity: str(v.Activity), Startup: []startupJSON{}, SteadyClass: v.Class, SteadyHead: v.Headline}
	if !r.NoGPU { // a CPU-only trace measures none of these
		vj.Denominator, vj.SpanNs, vj.BusyNs, vj.IdleNs, vj.IdlePct = &v.Denominator, &v.SpanNs, &v.BusyNs, &v.IdleNs, &v.IdlePct
		vj.ClassNs, vj.CPUActiveNs, vj.CPUWindowNs = &v.ClassNs, &v.CPUActiveNs, &v.CPUWindowNs
		vj.StartupNs, vj.StartupPct, vj.SteadyPct = &v.StartupNs, &v.StartupPct, &v.SteadyIdlePct
		vj.SteadyClass, vj.SteadyHead = v.SteadyClass, v.SteadyHeadline
		vj.LoaderNs, vj.PrepNs, vj.BlockingNs, vj.Prep = &v.InputLoaderNs, &v.InputPrepNs, &v.BlockingLaunchNs, str(v.InputPrep)
		for _, s := range v.StartupCalls {
			vj.Startup = append(vj.Startup, startupJSON{s.Name, s.Calls, s.IdleNs, s.LargestNs})
		}
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
		Streams      []streamJSON `json:"streams"`
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
	}{Schema: GapsSchema, File: file, GPU: !r.NoGPU, Verdict: vj, Devices: []laneJSON{}, Streams: []streamJSON{}, Gaps: []gapJSON{},
		LatencyBy: []latJSON{}, Unlinked: r.UnlinkedOps, Dead: []deadJSON{}, Steps: []stepJSON{}, Syncs: []syncJSON{}}
	for _, d := range r.Devices {
		j := laneOf(d)
		effOf(&j, r.Efficiency.Of(d.Device))
		out.Devices = append(out.Devices, j)
	}
	for k, d := range r.Streams {
		s := streamJSON{laneJSON: laneOf(d)}
		if k < len(r.Queues) {
			s.Queue = queueOf(r.Queues[k])
		}
		out.Streams = append(out.Streams, s)
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
			CausePct: g.CausePct, Activity: str(g.Activity), Note: str(g.Note), LaunchLag: g.LaunchLagNs, Shares: map[string]int64{},
			Blocking: g.BlockingLaunch, PrepNs: g.InputPrepNs, Host: str(g.HostActivity), OtherBusyNs: g.OtherStreamBusyNs}
		if g.HasLaunchCall {
			name, ns := g.LaunchCall, g.LaunchCallNs
			j.Call, j.CallNs = &name, &ns
		}
		if g.HostActivity != "" {
			p := g.HostActivityPct
			j.HostPct = &p
		}
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
	return layout.JSON(w, out)
}

type startupJSON struct {
	Name      string `json:"name"`
	Calls     int    `json:"calls"`
	IdleNs    int64  `json:"idle_ns"`
	LargestNs int64  `json:"largest_ns"`
}
