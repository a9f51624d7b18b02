package render

import (
	"io"

	"github.com/tracetab/tracetab/internal/ranks"
)

// RanksSchema versions the JSON form of the ranks comparison.
const RanksSchema = "tracetab.ranks/1"

type ranksJSON struct {
	Schema          string           `json:"schema"`
	Files           []string         `json:"files"`
	WorldSize       *int64           `json:"world_size"`
	RanksGiven      int              `json:"ranks_given"`
	Matching        *matchingJSON    `json:"matching"`
	ClockComparable *bool            `json:"clock_comparable"`
	ClockSkewNs     *int64           `json:"clock_skew_ns"`
	Ranks           []rankJSON       `json:"ranks"`
	Verdict         *rankVerdictJSON `json:"verdict"`
	NoVerdict       *string          `json:"no_verdict_reason"`
	Notes           []string         `json:"notes"`
}

type matchingJSON struct {
	By          string          `json:"by"`
	PerStep     bool            `json:"per_step"`
	CommonSteps []int64         `json:"common_steps"`
	Collectives int             `json:"collectives"`
	Outside     int             `json:"kernels_outside_common_steps"`
	Excluded    []exclusionJSON `json:"excluded"`
}

type exclusionJSON struct {
	What    string `json:"what"`
	Reason  string `json:"reason"`
	Kernels int    `json:"kernels"`
}

type rankJSON struct {
	Rank          int64   `json:"rank"`
	RankSource    string  `json:"rank_source"`
	WorldSize     *int64  `json:"world_size"`
	Backend       *string `json:"backend"`
	File          string  `json:"file"`
	Steps         []int64 `json:"steps"`
	MedianStepNs  *int64  `json:"median_step_ns"`
	GPU           bool    `json:"gpu"`
	Window        *string `json:"window"`
	WindowNs      *int64  `json:"window_ns"`
	ComputeNs     *int64  `json:"compute_ns"`
	CommNs        *int64  `json:"communication_ns"`
	ExposedCommNs *int64  `json:"exposed_communication_ns"`
	IdleNs        *int64  `json:"idle_ns"`
	CommKernels   int     `json:"communication_kernels"`
	Collectives   int     `json:"collectives"`
	WaitNs        *int64  `json:"collective_wait_ns"`
	CausedWaitNs  *int64  `json:"caused_wait_ns"`
	Last          *int    `json:"last_arrivals"`
	TiedLast      *int    `json:"tied_last_arrivals"`
	EndSkewNs     *int64  `json:"end_skew_ns"`
}

type rankVerdictJSON struct {
	Class          string  `json:"class"`
	Rank           int64   `json:"rank"`
	Last           int     `json:"last_arrivals"`
	TiedLast       int     `json:"tied_last_arrivals"`
	Collectives    int     `json:"collectives"`
	CausedWaitNs   int64   `json:"caused_wait_ns"`
	PerRankStepNs  int64   `json:"caused_wait_per_rank_step_ns"`
	MedianStepNs   int64   `json:"median_step_ns"`
	SkewPct        float64 `json:"skew_pct"`
	MinSkewPct     float64 `json:"min_skew_pct"`
	RanksGiven     int64   `json:"ranks_given"`
	RanksNotGiven  *int64  `json:"ranks_not_given"`
	Text           string  `json:"text"`
	SlowestOfGiven bool    `json:"slowest_of_given_only"`
}

func ptr[T any](v T) *T { return &v }

// RanksJSON writes the comparison as tracetab.ranks/1.
func RanksJSON(w io.Writer, r *ranks.Report) error {
	j := ranksJSON{Schema: RanksSchema, Files: []string{}, RanksGiven: len(r.Ranks), Ranks: []rankJSON{}, Notes: r.Notes}
	if j.Notes == nil {
		j.Notes = []string{}
	}
	if r.WorldSize > 0 {
		j.WorldSize = ptr(r.WorldSize)
	}
	if m := r.Match; m != nil {
		mj := &matchingJSON{By: m.By, PerStep: m.PerStep, CommonSteps: m.CommonSteps, Collectives: len(m.Collectives),
			Outside: m.Outside, Excluded: []exclusionJSON{}}
		if mj.CommonSteps == nil {
			mj.CommonSteps = []int64{}
		}
		for _, x := range m.Excluded {
			mj.Excluded = append(mj.Excluded, exclusionJSON{x.What, x.Reason, x.Kernels})
		}
		j.Matching = mj
		j.ClockComparable = ptr(r.ClockComparable)
		if r.ClockSkewNs >= 0 {
			j.ClockSkewNs = ptr(r.ClockSkewNs)
		}
	}
	for i, s := range r.Ranks {
		j.Files = append(j.Files, s.Path)
		w := r.Waits[i]
		x := rankJSON{Rank: s.Rank, RankSource: "distributedInfo", File: s.File, Steps: s.Steps, GPU: s.HasGPU,
			CommKernels: s.CommKernels, Collectives: w.Collectives}
		if s.RankFromFile {
			x.RankSource = "file order"
		}
		if x.Steps == nil {
			x.Steps = []int64{}
		}
		if s.WorldSize > 0 {
			x.WorldSize = ptr(s.WorldSize)
		}
		if s.Backend != "" {
			x.Backend = ptr(s.Backend)
		}
		if s.MedianStepNs >= 0 {
			x.MedianStepNs = ptr(s.MedianStepNs)
		}
		if s.HasGPU {
			x.Window, x.WindowNs = ptr(s.Window), ptr(s.WindowNs)
			x.ComputeNs, x.CommNs, x.ExposedCommNs, x.IdleNs = ptr(s.ComputeNs), ptr(s.CommNs), ptr(s.ExposedCommNs), ptr(s.IdleNs)
		}
		if r.Match != nil && w.Collectives > 0 {
			x.WaitNs, x.CausedWaitNs, x.Last, x.TiedLast = ptr(w.WaitNs), ptr(w.CausedWaitNs), ptr(w.Last), ptr(w.TiedLast)
		}
		if w.EndSkewNs >= 0 {
			x.EndSkewNs = ptr(w.EndSkewNs)
		}
		j.Ranks = append(j.Ranks, x)
	}
	if v := r.Verdict; v != nil {
		vj := &rankVerdictJSON{Class: v.Class, Rank: v.Rank, Last: v.Last, TiedLast: v.Tied, Collectives: v.Collectives,
			CausedWaitNs: v.CausedWaitNs, PerRankStepNs: v.PerRankNs, MedianStepNs: v.MedianStepNs, SkewPct: round2(v.SkewPct),
			MinSkewPct: round2(v.MinSkewPct), RanksGiven: v.Given, Text: v.Text}
		if v.NotGiven >= 0 {
			vj.RanksNotGiven = ptr(v.NotGiven)
			vj.SlowestOfGiven = v.NotGiven > 0
		}
		j.Verdict = vj
	} else {
		j.NoVerdict = ptr(r.NoVerdict)
	}
	return JSON(w, j)
}
