package ranksview

import (
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// CSV writes one table: the per-rank table (times in ns), or with
// collectives one row per matched collective and rank.
func CSV(w io.Writer, r *ranks.Report, collectives bool) error {
	if collectives {
		return arrivalsCSV(w, r)
	}
	g := &layout.Grid{Headers: []string{"rank", "rank_source", "world_size", "file", "steps", "median_step_ns", "window", "window_ns", "compute_ns",
		"communication_ns", "exposed_communication_ns", "comm_overlap_ns", "comm_overlap_pct", "idle_ns", "communication_kernels", "collectives",
		"collective_wait_ns", "caused_wait_ns", "last_arrivals", "tied_last_arrivals", "potential_straggler_steps", "end_skew_ns"}}
	num := func(v int64, ok bool) string {
		if !ok {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	for i, s := range r.Ranks {
		w := r.Waits[i]
		src := "distributedInfo"
		if s.RankFromFile {
			src = "file order"
		}
		steps := make([]string, len(s.Steps))
		for k, n := range s.Steps {
			steps[k] = strconv.FormatInt(n, 10)
		}
		pct := ""
		if s.HasGPU && s.CommNs > 0 {
			pct = strconv.FormatFloat(viewkit.Round2(100*float64(s.OverlapNs)/float64(s.CommNs)), 'f', -1, 64)
		}
		win := ""
		if s.HasGPU {
			win = s.Window
		}
		m := r.Match != nil && w.Collectives > 0
		hta := ""
		if r.HTASteps > 0 {
			hta = strconv.Itoa(r.HTACounts[i])
		}
		g.Rows = append(g.Rows, []string{strconv.FormatInt(s.Rank, 10), src, num(s.WorldSize, s.WorldSize > 0), s.Path, strings.Join(steps, " "),
			num(s.MedianStepNs, s.MedianStepNs >= 0), win, num(s.WindowNs, s.HasGPU), num(s.ComputeNs, s.HasGPU), num(s.CommNs, s.HasGPU),
			num(s.ExposedCommNs, s.HasGPU), num(s.OverlapNs, s.HasGPU), pct, num(s.IdleNs, s.HasGPU), strconv.Itoa(s.CommKernels), strconv.Itoa(w.Collectives),
			num(w.WaitNs, m), num(w.CausedWaitNs, m), num(int64(w.Last), m), num(int64(w.TiedLast), m), hta, num(w.EndSkewNs, w.EndSkewNs >= 0)})
	}
	return g.Write(w, "csv")
}

func arrivalsCSV(w io.Writer, r *ranks.Report) error {
	g := &layout.Grid{Headers: []string{"collective_index", "name", "occurrence", "step", "process_group", "seq", "last_rank", "rank", "launch_ns", "start_ns",
		"end_ns", "dur_ns", "wait_ns", "in_step_ns", "bytes", "busbw_gbps"}}
	opt := func(v int64) string {
		if v < 0 {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	for k, c := range r.Colls {
		last := ""
		if c.Last >= 0 {
			last = strconv.FormatInt(r.Ranks[c.Last].Rank, 10)
		}
		bw := ""
		if c.BusBW >= 0 {
			bw = strconv.FormatFloat(round3(c.BusBW), 'f', -1, 64)
		}
		for _, a := range c.Arrivals {
			launch := ""
			if a.HasLaunch {
				launch = strconv.FormatInt(a.LaunchNs, 10)
			}
			g.Rows = append(g.Rows, []string{strconv.Itoa(k + 1), c.Name, strconv.Itoa(c.Occurrence), opt(c.Step), c.PG, opt(c.Seq), last,
				strconv.FormatInt(r.Ranks[a.Index].Rank, 10), launch, strconv.FormatInt(a.StartNs, 10), strconv.FormatInt(a.EndNs, 10),
				strconv.FormatInt(a.DurNs, 10), strconv.FormatInt(a.WaitNs, 10), opt(a.InStepNs), opt(c.Bytes), bw})
		}
	}
	return g.Write(w, "csv")
}
