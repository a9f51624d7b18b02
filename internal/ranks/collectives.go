package ranks

import (
	"slices"
)

// Arrival is one rank's kernel of a matched collective. Times are on the
// job's clock (ns from Report.OriginNs) when the clocks are comparable,
// else on the rank's own clock (ns from its own origin).
type Arrival struct {
	Index     int   // the summary (Report.Ranks) index
	LaunchNs  int64 // its launch call's start, when HasLaunch
	HasLaunch bool  // the launch call is in the trace
	StartNs   int64
	EndNs     int64
	DurNs     int64
	WaitNs    int64 // its duration minus the shortest one's
	// InStepNs is the kernel's start minus its own step's start (how far
	// into the step the rank reached the collective); -1 outside steps.
	InStepNs int64
}

// CollRow is one matched collective with every rank's kernel: the evidence
// behind the waits and the verdict.
type CollRow struct {
	Name       string
	PG         string // "" when matched without process groups
	Seq        int64  // -1 when matched without seq
	Step       int64  // -1 when matched over the whole trace
	Occurrence int    // the k-th collective of this name (in its process group and step), from 1
	Arrivals   []Arrival
	// Last is the summary index of the rank that arrived last (its kernel
	// the shortest); -1 on a tie, when Tied lists the tied ranks.
	Last int
	Tied []int
	// LatestStart is the summary index of the rank whose kernel started
	// last; -1 when the clocks are not comparable.
	LatestStart int
	// StartSkewNs and EndSkewNs are the latest minus the earliest start
	// (end) over the ranks; -1 when the clocks are not comparable.
	StartSkewNs, EndSkewNs int64
	CausedNs               int64 // the sum of the waits
	MinDurNs               int64 // the shortest kernel: the transfer time once every rank has arrived
	Size                   Size
	Bytes                  int64   // nccl-tests' S; -1 when the trace records no size
	Kind                   string  // KindAllReduce, ...; "" when unknown
	AlgBW, BusBW           float64 // GB/s (1e9 bytes/s) over MinDurNs; -1 when not measured
	LinkPct                float64 // BusBW as a share of the first rank's device's nominal NVLink bandwidth; -1 when unknown
}

// jobClock sets the origin of the job's clock: the earliest origin of the
// ranks when the clocks are comparable.
func (r *Report) jobClock() {
	r.OriginNs = -1
	if !r.ClockComparable {
		return
	}
	for i, s := range r.Ranks {
		if i == 0 || s.Origin < r.OriginNs {
			r.OriginNs = s.Origin
		}
	}
}

// clock converts an absolute time of rank i to the report's clock.
func (r *Report) clock(i int, abs int64) int64 {
	if r.ClockComparable {
		return abs - r.OriginNs
	}
	return abs - r.Ranks[i].Origin
}

// stepStart is rank i's absolute start of step n; ok is false when it has none.
func (s *Summary) stepStart(n int64) (int64, bool) {
	for k, x := range s.Steps {
		if x == n {
			return s.StepStart[k], true
		}
	}
	return 0, false
}

// collRows lays out every matched collective, in start order.
func (r *Report) collRows() {
	type occKey struct {
		name, pg string
		step     int64
	}
	occ := map[occKey]int{}
	for _, c := range r.Match.Collectives {
		k := occKey{c.Name, c.PG, c.Step}
		occ[k]++
		row := CollRow{Name: c.Name, PG: c.PG, Seq: c.Seq, Step: c.Step, Occurrence: occ[k], Last: -1, LatestStart: -1,
			StartSkewNs: -1, EndSkewNs: -1, Size: c.Size, Bytes: c.Size.Bytes(), Kind: KindOf(c.Size.Coll), AlgBW: -1, BusBW: -1, LinkPct: -1}
		if c.Nth > 0 {
			row.Occurrence = c.Nth
		}
		row.MinDurNs = slices.Min(c.Durs)
		var lo, hi [2]int64
		for j, i := range c.Ranks {
			a := Arrival{Index: i, StartNs: r.clock(i, c.Starts[j]), EndNs: r.clock(i, c.Starts[j]+c.Durs[j]),
				DurNs: c.Durs[j], WaitNs: c.Durs[j] - row.MinDurNs, InStepNs: -1}
			if c.Launches[j] >= 0 {
				a.LaunchNs, a.HasLaunch = r.clock(i, c.Launches[j]), true
			}
			if st, ok := r.Ranks[i].stepStart(c.Step); ok && c.Step >= 0 {
				a.InStepNs = c.Starts[j] - st
			}
			row.CausedNs += a.WaitNs
			if a.DurNs == row.MinDurNs {
				row.Tied = append(row.Tied, i)
			}
			end := c.Starts[j] + c.Durs[j]
			if j == 0 {
				lo, hi = [2]int64{c.Starts[j], end}, [2]int64{c.Starts[j], end}
			}
			if c.Starts[j] > hi[0] || j == 0 {
				row.LatestStart = i
			}
			lo = [2]int64{min(lo[0], c.Starts[j]), min(lo[1], end)}
			hi = [2]int64{max(hi[0], c.Starts[j]), max(hi[1], end)}
			row.Arrivals = append(row.Arrivals, a)
		}
		if len(row.Tied) == 1 {
			row.Last, row.Tied = row.Tied[0], nil
		}
		if r.ClockComparable {
			row.StartSkewNs, row.EndSkewNs = hi[0]-lo[0], hi[1]-lo[1]
		} else {
			row.LatestStart = -1
		}
		if row.Bytes >= 0 && row.MinDurNs > 0 {
			row.AlgBW = float64(row.Bytes) / float64(row.MinDurNs) // bytes per ns = GB/s
			if f, ok := BusFactor(row.Kind, row.Size.GroupSize); ok {
				row.BusBW = row.AlgBW * f
				if n, ok := NominalLink(r.Ranks[c.Ranks[0]].Device); ok {
					row.LinkPct = 100 * row.BusBW / n
				}
			}
		}
		r.Colls = append(r.Colls, row)
	}
}
