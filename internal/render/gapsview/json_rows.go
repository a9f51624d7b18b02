package gapsview

import "github.com/tracetab/tracetab/internal/gaps"

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

// gapOf is one gap's JSON row: the idle kind only for a gap between two
// ops (HTA's categories), the launch call only when the trace has it,
// the percentages only beside the activity they measure, and only the
// causes with a share.
func gapOf(g gaps.Gap) gapJSON {
	j := gapJSON{Device: g.Device, StartNs: g.StartNs, LenNs: g.LenNs, Where: edgeNames[g.Edge], StepBefore: optID(g.StepBefore),
		StepAfter: optID(g.StepAfter), Steps: gapSteps(g), Before: optStr(g.Before), After: optStr(g.After), Cause: g.Cause.String(),
		CausePct: g.CausePct, Activity: optStr(g.Activity), Note: optStr(g.Note), LaunchLag: g.LaunchLagNs, Shares: map[string]int64{},
		Blocking: g.BlockingLaunch, PrepNs: g.InputPrepNs, Host: optStr(g.HostActivity), OtherBusyNs: g.OtherStreamBusyNs}
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
	return j
}

type deadJSON struct {
	Thread  string  `json:"thread"`
	Inside  *string `json:"inside"`
	After   *string `json:"after"`
	StartNs int64   `json:"start_ns"`
	LenNs   int64   `json:"length_ns"`
	Step    *int64  `json:"step"`
}

// deadOf lists the CPU dead windows.
func deadOf(r *gaps.Report) []deadJSON {
	out := []deadJSON{}
	for _, d := range r.Dead {
		out = append(out, deadJSON{d.Thread, optStr(d.Inside), optStr(d.After), d.StartNs, d.LenNs, optID(d.Step)})
	}
	return out
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

// stepsOf lists the profiler steps.
func stepsOf(r *gaps.Report) []stepJSON {
	out := []stepJSON{}
	for _, s := range r.Steps {
		out = append(out, stepJSON{s.Step, s.StartNs, s.CPUNs, s.GPUWindowNs, s.GPUBusyNs, s.GPUIdleNs, s.LargestGap, s.Cold})
	}
	return out
}

type syncJSON struct {
	Name      string `json:"name"`
	StartNs   int64  `json:"start_ns"`
	DurNs     int64  `json:"dur_ns"`
	GPUBusyNs int64  `json:"gpu_busy_during_ns"`
}

// syncsOf lists the blocking calls.
func syncsOf(r *gaps.Report) []syncJSON {
	out := []syncJSON{}
	for _, s := range r.Syncs {
		out = append(out, syncJSON{s.Name, s.StartNs, s.DurNs, s.GPUBusyNs})
	}
	return out
}
