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

// reportJSON is the JSON document of the gaps report.
type reportJSON struct {
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
}

// JSON writes the report as JSON.
func JSON(w io.Writer, file string, r *gaps.Report) error {
	out := reportJSON{Schema: GapsSchema, File: file, GPU: !r.NoGPU, Verdict: verdictOf(r), Devices: devicesOf(r),
		Streams: streamsOf(r), Idle: idleReportOf(r), Gaps: []gapJSON{}, Unlinked: r.UnlinkedOps}
	for _, g := range r.Gaps {
		out.Gaps = append(out.Gaps, gapOf(g))
	}
	if r.Breakdown != nil {
		out.Breakdown = breakdownJSON(r.Breakdown)
	}
	out.Latency, out.LatencyBy = latencyOf(r)
	if r.HasLaneOffset {
		out.LaneOffsetNs = &r.LaneOffsetNs
	}
	out.Dead, out.Steps, out.Syncs = deadOf(r), stepsOf(r), syncsOf(r)
	return layout.JSON(w, out)
}

// optStr is nil for "" (JSON null), else the string.
func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// devicesOf lists the device lanes, each with its efficiency fields.
func devicesOf(r *gaps.Report) []laneJSON {
	out := []laneJSON{}
	for _, d := range r.Devices {
		j := laneOf(d)
		effOf(&j, r.Efficiency.Of(d.Device))
		out = append(out, j)
	}
	return out
}

// streamsOf lists the stream lanes, each with its launch queue when the
// report measured one (Queues runs parallel to Streams).
func streamsOf(r *gaps.Report) []streamJSON {
	out := []streamJSON{}
	for k, d := range r.Streams {
		s := streamJSON{laneJSON: laneOf(d)}
		if k < len(r.Queues) {
			s.Queue = queueOf(r.Queues[k])
		}
		out = append(out, s)
	}
	return out
}

type idleRepJSON struct {
	HTA     bool       `json:"hta"`
	Streams []idleJSON `json:"streams"`
	Devices []idleJSON `json:"devices"`
	Total   idleJSON   `json:"total"`
}

// idleReportOf is the idle categories per stream, per device and in
// total; nil (JSON null) for a CPU-only trace, which measures none.
func idleReportOf(r *gaps.Report) *idleRepJSON {
	if r.NoGPU {
		return nil
	}
	hta := r.Idle.HTA
	ij := &idleRepJSON{HTA: hta, Streams: []idleJSON{}, Devices: []idleJSON{}, Total: idleOf(r.Idle.Total, hta)}
	for _, d := range r.Idle.Streams {
		ij.Streams = append(ij.Streams, idleOf(d, hta))
	}
	for _, d := range r.Idle.Devices {
		ij.Devices = append(ij.Devices, idleOf(d, hta))
	}
	return ij
}

// latencyOf is the launch latency over every op (nil when no op has
// one) and by name.
func latencyOf(r *gaps.Report) (*latJSON, []latJSON) {
	var all *latJSON
	if r.Latency.Count > 0 {
		l := latOf(r.Latency)
		all = &l
	}
	by := []latJSON{}
	for _, s := range r.LatencyByName {
		by = append(by, latOf(s))
	}
	return all, by
}

type startupJSON struct {
	Name      string `json:"name"`
	Calls     int    `json:"calls"`
	IdleNs    int64  `json:"idle_ns"`
	LargestNs int64  `json:"largest_ns"`
}
