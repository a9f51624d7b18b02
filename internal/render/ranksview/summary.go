package ranksview

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// The per-rank tables grow with the job: above viewkit.SummaryRows ranks
// text and Markdown print each one's distribution and the ranks that
// stand out, always with the rank the verdict names (View.All: every
// rank). These are the numeric columns each table is summarised by, in
// the order ranksGrids lays the tables out.

// keepVerdict is the row of the rank the verdict names, if any.
func keepVerdict(r *ranks.Report) []int {
	if r.Verdict == nil {
		return nil
	}
	return []int{r.Verdict.Index}
}

func rankSummary(r *ranks.Report, cols []viewkit.Column) viewkit.Summary {
	why := ""
	if v := r.Verdict; v != nil {
		why = "rank " + strconv.FormatInt(v.Rank, 10) + " (the verdict's)"
	}
	return viewkit.Summary{Noun: "ranks", Label: 0, Cols: cols, Keep: keepVerdict(r), KeepWhy: why}
}

// stepsSummary: steps, median step, window time.
func stepsSummary(r *ranks.Report) viewkit.Summary {
	n := len(r.Ranks)
	steps, med, win := make([]int, n), make([]int64, n), make([]int64, n)
	hasMed, hasWin := make([]bool, n), make([]bool, n)
	for i, s := range r.Ranks {
		steps[i], med[i], win[i] = len(s.Steps), s.MedianStepNs, s.WindowNs
		hasMed[i], hasWin[i] = s.MedianStepNs >= 0, s.HasGPU
	}
	return rankSummary(r, []viewkit.Column{viewkit.CountColumn(2, steps, nil), viewkit.NsColumn(4, med, hasMed), viewkit.NsColumn(6, win, hasWin)})
}

// deviceSummary: compute, comm, exposed comm, overlap, idle.
func deviceSummary(r *ranks.Report) viewkit.Summary {
	n := len(r.Ranks)
	comp, comm, exp, idle := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	gpu, hasOver := make([]bool, n), make([]bool, n)
	over := viewkit.Column{Index: 4, Values: make([]float64, n), Has: hasOver, Format: func(x float64) string { return rkPctOf(x) }}
	for i, s := range r.Ranks {
		comp[i], comm[i], exp[i], idle[i], gpu[i] = s.ComputeNs, s.CommNs, s.ExposedCommNs, s.IdleNs, s.HasGPU
		if s.HasGPU && s.CommNs > 0 {
			hasOver[i], over.Values[i] = true, 100*float64(s.OverlapNs)/float64(s.CommNs)
		}
	}
	return rankSummary(r, []viewkit.Column{viewkit.NsColumn(1, comp, gpu), viewkit.NsColumn(2, comm, gpu), viewkit.NsColumn(3, exp, gpu), over, viewkit.NsColumn(5, idle, gpu)})
}

// collSummary: kernels, matched, waited, caused wait, last, tied, HTA
// last, end skew.
func collSummary(r *ranks.Report) viewkit.Summary {
	n := len(r.Ranks)
	kern, matched, last, tied, hta := make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	waited, caused, skew := make([]int64, n), make([]int64, n), make([]int64, n)
	hasW, hasHTA, hasSkew := make([]bool, n), make([]bool, n), make([]bool, n)
	for i, s := range r.Ranks {
		w := r.Waits[i]
		kern[i] = s.CommKernels
		if r.Match != nil && w.Collectives > 0 {
			matched[i], waited[i], caused[i], last[i], tied[i], hasW[i] = w.Collectives, w.WaitNs, w.CausedWaitNs, w.Last, w.TiedLast, true
		}
		if r.HTASteps > 0 {
			hta[i], hasHTA[i] = r.HTACounts[i], true
		}
		skew[i], hasSkew[i] = w.EndSkewNs, w.EndSkewNs >= 0
	}
	htaCol := viewkit.CountColumn(7, hta, hasHTA)
	htaCol.Format = func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + "/" + strconv.Itoa(r.HTASteps) }
	return rankSummary(r, []viewkit.Column{viewkit.CountColumn(1, kern, nil), viewkit.CountColumn(2, matched, nil),
		viewkit.NsColumn(3, waited, hasW), viewkit.NsColumn(4, caused, hasW), viewkit.CountColumn(5, last, hasW),
		viewkit.CountColumn(6, tied, hasW), htaCol, viewkit.NsColumn(8, skew, hasSkew)})
}

// bandwidthSummary: count, total, median, algbw, busbw, link of each
// rank's sized collectives (rows of every collective and size together).
func bandwidthSummary(r *ranks.Report) viewkit.Summary {
	n := len(r.Bandwidth)
	count := make([]int, n)
	total, med := make([]int64, n), make([]int64, n)
	gb := func(idx int) viewkit.Column {
		return viewkit.Column{Index: idx, Values: make([]float64, n), Has: make([]bool, n), Format: func(x float64) string { return rkGBps(x) }}
	}
	alg, bus := gb(8), gb(9)
	link := viewkit.Column{Index: 10, Values: make([]float64, n), Has: make([]bool, n), Format: func(x float64) string { return rkPctOf(x) }}
	var keep []int
	for i, b := range r.Bandwidth {
		count[i], total[i], med[i] = b.Count, b.TotalNs, b.MedianNs
		alg.Values[i], alg.Has[i] = b.AlgBW, b.AlgBW >= 0
		bus.Values[i], bus.Has[i] = b.BusBW, b.BusBW >= 0
		link.Values[i], link.Has[i] = b.LinkPct, b.LinkPct >= 0
		if r.Verdict != nil && b.Index == r.Verdict.Index {
			keep = append(keep, i)
		}
	}
	s := rankSummary(r, []viewkit.Column{viewkit.CountColumn(5, count, nil), viewkit.NsColumn(6, total, nil), viewkit.NsColumn(7, med, nil), alg, bus, link})
	s.Noun, s.Keep = "rows (rank, collective and size)", keep
	return s
}
