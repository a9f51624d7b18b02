package ranksview

import (
	"io"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// RanksSchema versions the JSON form of the ranks comparison.
const RanksSchema = "tracetab.ranks/2"

type ranksJSON struct {
	Schema          string           `json:"schema"`
	Files           []string         `json:"files"`
	WorldSize       *int64           `json:"world_size"`
	RanksGiven      int              `json:"ranks_given"`
	Matching        *matchingJSON    `json:"matching"`
	ClockComparable *bool            `json:"clock_comparable"`
	ClockSkewNs     *int64           `json:"clock_skew_ns"`
	ClockOriginNs   *int64           `json:"clock_origin_ns"`
	Ranks           []rankJSON       `json:"ranks"`
	Collectives     []collJSON       `json:"collectives"`
	Bandwidth       []bwJSON         `json:"bandwidth"`
	Potential       *potentialJSON   `json:"potential_stragglers"`
	Verdict         *rankVerdictJSON `json:"verdict"`
	NoVerdict       *string          `json:"no_verdict_reason"`
	Notes           []string         `json:"notes"`
}

type stepDetailJSON struct {
	Step    int64 `json:"step"`
	StartNs int64 `json:"start_ns"`
	DurNs   int64 `json:"dur_ns"`
}

type arrivalJSON struct {
	Rank     int64  `json:"rank"`
	LaunchNs *int64 `json:"launch_ns"`
	StartNs  int64  `json:"start_ns"`
	EndNs    int64  `json:"end_ns"`
	DurNs    int64  `json:"dur_ns"`
	WaitNs   int64  `json:"wait_ns"`
	InStepNs *int64 `json:"in_step_ns"`
}

type collJSON struct {
	Index       int           `json:"index"`
	Name        string        `json:"name"`
	Occurrence  int           `json:"occurrence"`
	Step        *int64        `json:"step"`
	PG          *string       `json:"process_group"`
	Seq         *int64        `json:"seq"`
	LastRank    *int64        `json:"last_rank"`
	TiedRanks   []int64       `json:"tied_ranks"`
	LatestStart *int64        `json:"started_last_rank"`
	StartSkewNs *int64        `json:"start_skew_ns"`
	EndSkewNs   *int64        `json:"end_skew_ns"`
	CausedNs    int64         `json:"caused_wait_ns"`
	MinDurNs    int64         `json:"min_dur_ns"`
	Collective  *string       `json:"collective"`
	Kind        *string       `json:"kind"`
	Dtype       *string       `json:"dtype"`
	GroupSize   *int64        `json:"group_size"`
	Bytes       *int64        `json:"bytes"`
	AlgBW       *float64      `json:"algbw_gbps"`
	BusBW       *float64      `json:"busbw_gbps"`
	LinkPct     *float64      `json:"link_pct"`
	Ranks       []arrivalJSON `json:"ranks"`
}

type bwJSON struct {
	Rank      int64    `json:"rank"`
	Coll      string   `json:"collective"`
	Kind      *string  `json:"kind"`
	Dtype     string   `json:"dtype"`
	Bytes     int64    `json:"bytes"`
	GroupSize *int64   `json:"group_size"`
	Count     int      `json:"count"`
	TotalNs   int64    `json:"total_ns"`
	MedianNs  int64    `json:"median_ns"`
	AlgBW     *float64 `json:"algbw_gbps"`
	BusBW     *float64 `json:"busbw_gbps"`
	Nominal   *float64 `json:"nominal_link_gbps"`
	LinkPct   *float64 `json:"link_pct"`
}

type potentialJSON struct {
	Collective string          `json:"collective"`
	Steps      int             `json:"steps"`
	Counts     []potentialRank `json:"ranks"`
}

type potentialRank struct {
	Rank  int64 `json:"rank"`
	Steps int   `json:"steps"`
}

type lateJSON struct {
	Kind        string `json:"kind"`
	Step        *int64 `json:"step"`
	EntryNs     *int64 `json:"entry_ns"`
	EnteredLast int    `json:"entered_last_steps"`
	Shortest    int    `json:"shortest_step_steps"`
	Steps       int    `json:"steps"`
	InStepNs    *int64 `json:"in_step_delay_ns"`
	Text        string `json:"text"`
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
	Rank          int64            `json:"rank"`
	RankSource    string           `json:"rank_source"`
	WorldSize     *int64           `json:"world_size"`
	Backend       *string          `json:"backend"`
	File          string           `json:"file"`
	Device        *string          `json:"device_name"`
	Steps         []int64          `json:"steps"`
	StepsCount    int              `json:"steps_count"`
	StepDetail    []stepDetailJSON `json:"steps_detail"`
	MedianStepNs  *int64           `json:"median_step_ns"`
	GPU           bool             `json:"gpu"`
	Window        *string          `json:"window"`
	WindowNs      *int64           `json:"window_ns"`
	ComputeNs     *int64           `json:"compute_ns"`
	CommNs        *int64           `json:"communication_ns"`
	ExposedCommNs *int64           `json:"exposed_communication_ns"`
	IdleNs        *int64           `json:"idle_ns"`
	OverlapNs     *int64           `json:"comm_overlap_ns"`
	OverlapPct    *float64         `json:"comm_overlap_pct"`
	SizedOps      int              `json:"sized_ops"`
	SizedNoKernel int              `json:"sized_ops_without_kernel"`
	Potential     *int             `json:"potential_straggler_steps"`
	CommKernels   int              `json:"communication_kernels"`
	Collectives   int              `json:"collectives"`
	WaitNs        *int64           `json:"collective_wait_ns"`
	CausedWaitNs  *int64           `json:"caused_wait_ns"`
	Last          *int             `json:"last_arrivals"`
	TiedLast      *int             `json:"tied_last_arrivals"`
	EndSkewNs     *int64           `json:"end_skew_ns"`
}

type rankVerdictJSON struct {
	Class          string    `json:"class"`
	Rank           int64     `json:"rank"`
	Last           int       `json:"last_arrivals"`
	TiedLast       int       `json:"tied_last_arrivals"`
	Collectives    int       `json:"collectives"`
	CausedWaitNs   int64     `json:"caused_wait_ns"`
	PerRankStepNs  int64     `json:"caused_wait_per_rank_step_ns"`
	MedianStepNs   int64     `json:"median_step_ns"`
	SkewPct        float64   `json:"skew_pct"`
	MinSkewPct     float64   `json:"min_skew_pct"`
	RanksGiven     int64     `json:"ranks_given"`
	RanksNotGiven  *int64    `json:"ranks_not_given"`
	Text           string    `json:"text"`
	SlowestOfGiven bool      `json:"slowest_of_given_only"`
	Late           *lateJSON `json:"late"`
}

func ptr[T any](v T) *T { return &v }

// JSON writes the comparison as tracetab.ranks/1.
func JSON(w io.Writer, r *ranks.Report) error {
	j := ranksJSON{Schema: RanksSchema, Files: []string{}, RanksGiven: len(r.Ranks), Ranks: []rankJSON{}, Notes: r.Notes,
		Collectives: collsJSON(r), Bandwidth: bandwidthJSON(r)}
	if r.OriginNs >= 0 {
		j.ClockOriginNs = ptr(r.OriginNs)
	}
	if r.HTASteps > 0 {
		p := &potentialJSON{Collective: r.HTAName, Steps: r.HTASteps, Counts: []potentialRank{}}
		for i, n := range r.HTACounts {
			p.Counts = append(p.Counts, potentialRank{r.Ranks[i].Rank, n})
		}
		j.Potential = p
	}
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
			CommKernels: s.CommKernels, Collectives: w.Collectives, StepsCount: len(s.Steps), StepDetail: []stepDetailJSON{},
			SizedOps: s.SizedOps, SizedNoKernel: s.SizedOpsNoKernel}
		if s.Device != "" {
			x.Device = ptr(s.Device)
		}
		for k, n := range s.Steps {
			start := s.StepStart[k] - s.Origin
			if r.OriginNs >= 0 {
				start = s.StepStart[k] - r.OriginNs
			}
			x.StepDetail = append(x.StepDetail, stepDetailJSON{n, start, s.StepDur[k]})
		}
		if r.HTASteps > 0 {
			x.Potential = ptr(r.HTACounts[i])
		}
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
			x.OverlapNs = ptr(s.OverlapNs)
			if s.CommNs > 0 {
				x.OverlapPct = ptr(viewkit.Round2(100 * float64(s.OverlapNs) / float64(s.CommNs)))
			}
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
			CausedWaitNs: v.CausedWaitNs, PerRankStepNs: v.PerRankNs, MedianStepNs: v.MedianStepNs, SkewPct: viewkit.Round2(v.SkewPct),
			MinSkewPct: viewkit.Round2(v.MinSkewPct), RanksGiven: v.Given, Text: v.Text}
		if v.NotGiven >= 0 {
			vj.RanksNotGiven = ptr(v.NotGiven)
			vj.SlowestOfGiven = v.NotGiven > 0
		}
		if l := v.Late; l != nil {
			lj := &lateJSON{Kind: l.Kind, EnteredLast: l.EnteredLast, Shortest: l.Shortest, Steps: l.Steps, Text: l.Text}
			if l.Step >= 0 {
				lj.Step, lj.EntryNs = ptr(l.Step), ptr(l.EntryNs)
			}
			if l.InStep {
				lj.InStepNs = ptr(l.InStepNs)
			}
			vj.Late = lj
		}
		j.Verdict = vj
	} else {
		j.NoVerdict = ptr(r.NoVerdict)
	}
	return layout.JSON(w, j)
}

func optGBps(v float64) *float64 {
	if v < 0 {
		return nil
	}
	return ptr(round3(v))
}

func optPct(v float64) *float64 {
	if v < 0 {
		return nil
	}
	return ptr(viewkit.Round2(v))
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optNs(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

func collsJSON(r *ranks.Report) []collJSON {
	out := []collJSON{}
	for k, c := range r.Colls {
		j := collJSON{Index: k + 1, Name: c.Name, Occurrence: c.Occurrence, Step: optNs(c.Step), PG: optStr(c.PG), Seq: optNs(c.Seq),
			TiedRanks: []int64{}, StartSkewNs: optNs(c.StartSkewNs), EndSkewNs: optNs(c.EndSkewNs), CausedNs: c.CausedNs, MinDurNs: c.MinDurNs,
			Collective: optStr(c.Size.Coll), Kind: optStr(c.Kind), Dtype: optStr(c.Size.Dtype), GroupSize: optNs(c.Size.GroupSize),
			Bytes: optNs(c.Bytes), AlgBW: optGBps(c.AlgBW), BusBW: optGBps(c.BusBW), LinkPct: optPct(c.LinkPct), Ranks: []arrivalJSON{}}
		if c.Last >= 0 {
			j.LastRank = ptr(r.Ranks[c.Last].Rank)
		}
		for _, i := range c.Tied {
			j.TiedRanks = append(j.TiedRanks, r.Ranks[i].Rank)
		}
		if c.LatestStart >= 0 {
			j.LatestStart = ptr(r.Ranks[c.LatestStart].Rank)
		}
		for _, a := range c.Arrivals {
			aj := arrivalJSON{Rank: r.Ranks[a.Index].Rank, StartNs: a.StartNs, EndNs: a.EndNs, DurNs: a.DurNs, WaitNs: a.WaitNs, InStepNs: optNs(a.InStepNs)}
			if a.HasLaunch {
				aj.LaunchNs = ptr(a.LaunchNs)
			}
			j.Ranks = append(j.Ranks, aj)
		}
		out = append(out, j)
	}
	return out
}

func bandwidthJSON(r *ranks.Report) []bwJSON {
	out := []bwJSON{}
	for _, b := range r.Bandwidth {
		out = append(out, bwJSON{Rank: r.Ranks[b.Index].Rank, Coll: b.Coll, Kind: optStr(b.Kind), Dtype: b.Dtype, Bytes: b.Bytes,
			GroupSize: optNs(b.GroupSize), Count: b.Count, TotalNs: b.TotalNs, MedianNs: b.MedianNs, AlgBW: optGBps(b.AlgBW),
			BusBW: optGBps(b.BusBW), Nominal: optGBps(b.NominalGBps), LinkPct: optPct(b.LinkPct)})
	}
	return out
}
