package ranks

import (
	"fmt"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/units"
)

// Verdict classes.
const (
	ClassStraggler = "straggler"
	ClassBalanced  = "balanced"
)

// DefaultMinSkewPct is --min-skew's default: a rank that makes each other
// rank wait less than this share of its median step time is no straggler.
const DefaultMinSkewPct = 5.0

// RankWait is what the matched collectives say about one rank.
type RankWait struct {
	Collectives  int   // matched collectives it took part in
	WaitNs       int64 // sum over them of its duration minus the shortest
	CausedWaitNs int64 // the others' waits charged to it (it arrived last)
	Last         int   // collectives it alone arrived last in
	TiedLast     int   // collectives whose shortest duration it shares
	EndSkewNs    int64 // median |end - end of the reference rank|; -1 when not measured
}

// Verdict names the slowest of the given ranks.
type Verdict struct {
	Class        string // ClassStraggler or ClassBalanced
	Index        int    // the summary of the rank that caused the most wait
	Rank         int64
	Last, Tied   int
	Collectives  int   // matched collectives it took part in
	CausedWaitNs int64 // the others' waits charged to it
	PerRankNs    int64 // caused wait per other rank per step
	MedianStepNs int64 // its median step time
	SkewPct      float64
	MinSkewPct   float64
	Given, World int64 // ranks given, world size (-1 when unknown)
	NotGiven     int64 // World - Given; -1 when the world size is unknown
	Text         string
	Late         *Lateness // why it was late; nil without common steps
}

// Report is the comparison of the ranks.
type Report struct {
	Ranks     []*Summary // in rank order
	Waits     []RankWait // per summary
	Match     *Matching
	WorldSize int64 // -1 when no trace says
	// ClockComparable: every rank's times are wall-clock times, so the
	// ends of a matched collective can be compared (EndSkewNs).
	ClockComparable bool
	ClockSkewNs     int64 // the largest EndSkewNs; -1 when not measured
	// OriginNs is the origin of the job's clock (absolute ns): the earliest
	// rank's origin when the clocks are comparable, else -1 (each rank's
	// times are then from its own origin).
	OriginNs  int64
	Colls     []CollRow   // every matched collective with each rank's kernel, in start order
	StepTable []StepEntry // the common steps on every rank
	Bandwidth []BWGroup   // per rank, its sized communication kernels by collective and size
	// HTACounts is, per summary, in how many of HTASteps common steps HTA's
	// potential-straggler rule names the rank (see htaStragglers); HTAName
	// is the collective the rule chose ("" when none).
	HTACounts []int
	HTASteps  int
	HTAName   string
	Verdict   *Verdict // nil when there is none: see NoVerdict
	NoVerdict string
	Notes     []string
}

// Compare matches the collectives of the ranks and names the slowest.
// ss must be in rank order, each rank once, with one world size.
func Compare(ss []*Summary, minSkewPct float64) *Report {
	r := &Report{Ranks: ss, Waits: make([]RankWait, len(ss)), WorldSize: -1, ClockSkewNs: -1, OriginNs: -1}
	for _, s := range ss {
		if s.WorldSize > 0 {
			r.WorldSize = s.WorldSize
		}
		if !s.HasGPU {
			r.Notes = append(r.Notes, fmt.Sprintf("rank %d (%s): no GPU lane (no kernels, memcpys or memsets): its device figures are n/a", s.Rank, s.File))
		} else if s.CommKernels == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("rank %d (%s): no communication kernels (nccl/rccl): it takes no part in the matching", s.Rank, s.File))
		}
		if s.HasGPU && s.Window == WindowDevice {
			r.Notes = append(r.Notes, fmt.Sprintf("rank %d (%s): no ProfilerStep#N: its device figures are over its device work window (first to last device op)", s.Rank, s.File))
		}
		if s.SizedOpsNoKernel > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("rank %d (%s): %s a collective's size (record_param_comms) but %s no communication kernel in the trace: no bandwidth for %s",
				s.Rank, s.File, units.Plural(s.SizedOpsNoKernel, "op records", "ops record"), plural(s.SizedOpsNoKernel, "launched", "launched"), plural(s.SizedOpsNoKernel, "it", "them")))
		}
	}
	for i := range r.Waits {
		r.Waits[i].EndSkewNs = -1
	}
	r.bandwidth()
	if len(ss) == 1 {
		r.NoVerdict = "one rank: nothing to compare"
		r.Notes = append(r.Notes, r.NoVerdict)
		return r
	}
	m := Match(ss)
	r.Match = m
	for _, x := range m.Excluded {
		r.Notes = append(r.Notes, fmt.Sprintf("not matched: %s (%s): %s left out", x.What, x.Reason, units.Plural(x.Kernels, "kernel", "kernels")))
	}
	if m.Outside > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s launched outside the common steps left out", units.Plural(m.Outside, "communication kernel", "communication kernels")))
	}
	r.ClockComparable = true
	for _, s := range ss {
		r.ClockComparable = r.ClockComparable && s.Epoch
	}
	waits(r)
	if r.ClockComparable {
		endSkew(r)
	}
	r.jobClock()
	r.collRows()
	r.stepEntries()
	r.htaStragglers()
	r.verdict(minSkewPct)
	if r.Verdict != nil {
		r.Verdict.Late = r.lateness(r.Verdict.Index)
	}
	return r
}

// plural is one or many for a count of n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// waits charges each matched collective: the rank with the shortest
// duration arrived last (NCCL kernels end together on every rank of a
// communicator, so a rank that starts early waits inside the kernel);
// every other rank waited its duration minus the shortest, and the sum of
// those waits is charged to the last rank. When several ranks share the
// shortest duration the sum is split evenly between them (the remainder
// ns to the lowest ranks) and each counts a tie.
func waits(r *Report) {
	for _, c := range r.Match.Collectives {
		lo := slices.Min(c.Durs)
		var tied []int
		var total int64
		for j, i := range c.Ranks {
			w := &r.Waits[i]
			w.Collectives++
			w.WaitNs += c.Durs[j] - lo
			total += c.Durs[j] - lo
			if c.Durs[j] == lo {
				tied = append(tied, i)
			}
		}
		if len(tied) == 1 {
			r.Waits[tied[0]].Last++
			r.Waits[tied[0]].CausedWaitNs += total
			continue
		}
		share, rest := total/int64(len(tied)), total%int64(len(tied))
		for k, i := range tied {
			r.Waits[i].TiedLast++
			r.Waits[i].CausedWaitNs += share
			if int64(k) < rest {
				r.Waits[i].CausedWaitNs++
			}
		}
	}
}

// endSkew measures, per rank, the median |end - end of the first rank| of
// the collectives both took part in: on comparable clocks the ends of one
// collective coincide, so this is the clocks' disagreement.
func endSkew(r *Report) {
	ref := -1
	d := make([][]int64, len(r.Ranks))
	for _, c := range r.Match.Collectives {
		if ref < 0 {
			ref = c.Ranks[0]
		}
		j0 := slices.Index(c.Ranks, ref)
		if j0 < 0 {
			continue
		}
		end0 := c.Starts[j0] + c.Durs[j0]
		for j, i := range c.Ranks {
			x := c.Starts[j] + c.Durs[j] - end0
			d[i] = append(d[i], max(x, -x))
		}
	}
	for i := range d {
		if len(d[i]) == 0 {
			continue
		}
		r.Waits[i].EndSkewNs = stats.MedianNs(d[i])
		r.ClockSkewNs = max(r.ClockSkewNs, r.Waits[i].EndSkewNs)
	}
}

func (r *Report) verdict(minSkewPct float64) {
	m := r.Match
	if len(m.Collectives) == 0 {
		switch {
		case len(m.NoComm) == len(r.Ranks):
			r.NoVerdict = "no rank has communication kernels: no collective to compare"
		case len(r.Ranks)-len(m.NoComm) < 2:
			r.NoVerdict = "only one rank has communication kernels: no collective to compare"
		default:
			r.NoVerdict = "no collective matched across the ranks (see the notes): no straggler verdict"
		}
		return
	}
	best := -1
	for i, w := range r.Waits {
		if w.Collectives > 0 && (best < 0 || w.CausedWaitNs > r.Waits[best].CausedWaitNs) {
			best = i
		}
	}
	s, w := r.Ranks[best], r.Waits[best]
	if s.MedianStepNs <= 0 || len(s.Steps) == 0 {
		r.NoVerdict = fmt.Sprintf("rank %d caused the most wait (%s over %s), but its trace has no ProfilerStep#N to set it against: no verdict",
			s.Rank, units.Dur(w.CausedWaitNs), units.Plural(w.Collectives, "collective", "collectives"))
		return
	}
	others := int64(0)
	for _, x := range r.Waits {
		if x.Collectives > 0 {
			others++
		}
	}
	others--
	steps := int64(len(m.CommonSteps))
	if !m.PerStep {
		steps = int64(len(s.Steps))
	}
	v := &Verdict{Index: best, Rank: s.Rank, Last: w.Last, Tied: w.TiedLast, Collectives: w.Collectives,
		CausedWaitNs: w.CausedWaitNs, MedianStepNs: s.MedianStepNs, MinSkewPct: minSkewPct,
		Given: int64(len(r.Ranks)), World: r.WorldSize}
	v.NotGiven = -1
	if v.World > 0 {
		v.NotGiven = v.World - v.Given
	}
	v.PerRankNs = w.CausedWaitNs / others / steps
	v.SkewPct = 100 * float64(v.PerRankNs) / float64(s.MedianStepNs)
	v.Class = ClassStraggler
	if v.SkewPct < minSkewPct {
		v.Class = ClassBalanced
	}
	v.Text = verdictText(v, others, steps)
	r.Verdict = v
}

func verdictText(v *Verdict, others, steps int64) string {
	prefix := ""
	if v.NotGiven > 0 {
		prefix = fmt.Sprintf("slowest of the %d given ranks; %s not given may be slower: ", v.Given, units.Plural(int(v.NotGiven), "rank", "ranks"))
	}
	tied := ""
	if v.Tied > 0 {
		tied = fmt.Sprintf(" (and tied in %d)", v.Tied)
	}
	other := "the other rank waited"
	if others > 1 {
		other = fmt.Sprintf("the other %d ranks waited", others)
	}
	per := "per step"
	if steps == 1 {
		per = "in its one step"
	}
	each := ""
	if others > 1 || steps > 1 {
		each = fmt.Sprintf(", %s per rank %s", units.Dur(v.PerRankNs), per)
	}
	fig := fmt.Sprintf("rank %d arrived last in %d of %d collectives%s; %s %s for it%s, %s%% of its median step time (%s)",
		v.Rank, v.Last, v.Collectives, tied, other, units.Dur(v.CausedWaitNs), each, units.Pct(v.SkewPct), units.Dur(v.MedianStepNs))
	if v.Class == ClassBalanced && v.CausedWaitNs == 0 {
		return fmt.Sprintf("balanced: %sin %s no rank waited for another (each collective's kernels are equally long on every rank)", prefix, units.Plural(v.Collectives, "matched collective", "matched collectives"))
	}
	if v.Class == ClassBalanced {
		return fmt.Sprintf("balanced: %sno rank holds the others back by %s%% of a step or more (--min-skew); the most: %s", prefix, units.Pct(v.MinSkewPct), fig)
	}
	return "straggler: " + prefix + fig
}
