package gapsview

import "github.com/tracetab/tracetab/internal/gaps"

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

// verdictOf is the verdict's JSON form. A CPU-only trace (NoGPU)
// measures no GPU time: its numbers are null, its steady class is the
// class itself and it lists no start-up calls.
func verdictOf(r *gaps.Report) verdictJSON {
	v := &r.Verdict
	vj := verdictJSON{Class: v.Class, Headline: v.Headline, Advice: optStr(v.Advice), Also: append([]string{}, v.Also...),
		Narrowed: optStr(r.Narrowed), Devices: v.Devices, Activity: optStr(v.Activity), Startup: []startupJSON{},
		SteadyClass: v.Class, SteadyHead: v.Headline}
	if !r.NoGPU {
		measuredVerdict(&vj, v)
	}
	if v.Activity != "" {
		vj.ActivityNs = &v.ActivityNs
	}
	return vj
}

// measuredVerdict fills the fields only a trace with a GPU lane has.
func measuredVerdict(vj *verdictJSON, v *gaps.Verdict) {
	vj.Denominator, vj.SpanNs, vj.BusyNs, vj.IdleNs, vj.IdlePct = &v.Denominator, &v.SpanNs, &v.BusyNs, &v.IdleNs, &v.IdlePct
	vj.ClassNs, vj.CPUActiveNs, vj.CPUWindowNs = &v.ClassNs, &v.CPUActiveNs, &v.CPUWindowNs
	vj.StartupNs, vj.StartupPct, vj.SteadyPct = &v.StartupNs, &v.StartupPct, &v.SteadyIdlePct
	vj.SteadyClass, vj.SteadyHead = v.SteadyClass, v.SteadyHeadline
	vj.LoaderNs, vj.PrepNs, vj.BlockingNs, vj.Prep = &v.InputLoaderNs, &v.InputPrepNs, &v.BlockingLaunchNs, optStr(v.InputPrep)
	for _, s := range v.StartupCalls {
		vj.Startup = append(vj.Startup, startupJSON{s.Name, s.Calls, s.IdleNs, s.LargestNs})
	}
	vj.ByCause = map[string]int64{}
	for _, c := range gaps.Causes() {
		vj.ByCause[c.String()] = v.IdleByCause[c]
	}
}
