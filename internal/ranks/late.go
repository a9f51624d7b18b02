package ranks

import (
	"fmt"
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/units"
)

// Why a rank was late.
const (
	LateBeforeStep = "before the step" // it entered its steps last: the delay is before ProfilerStep#N begins
	LateInStep     = "inside the step" // it entered with the others and reached its collectives later into the step
	LateUnknown    = "unknown"         // the clocks are not comparable: the two cannot be told apart
)

// StepEntry is one common step on every rank: its start on the report's
// clock (-1 for a rank that does not have it) and its CPU duration.
type StepEntry struct {
	Step   int64
	Starts []int64 // per summary
	Durs   []int64 // per summary; -1 when the rank does not have the step
}

// Lateness explains the verdict rank's lateness from the step starts and
// the arrivals.
type Lateness struct {
	Kind string
	// Step is the common step it entered latest in, EntryNs how long after
	// the earliest rank (-1 when the clocks are not comparable).
	Step    int64
	EntryNs int64
	// EnteredLast counts the common steps it entered last with the
	// shortest step; Shortest those in which its step was the shortest;
	// Steps the common steps.
	EnteredLast, Shortest, Steps int
	// InStepNs is the median, over its matched collectives in steps, of
	// how much later into its step it reached the collective than the
	// median of the other ranks (negative: earlier); InStep says whether
	// it was measured.
	InStepNs int64
	InStep   bool
	Text     string
}

// stepEntries lists the common steps of the matching.
func (r *Report) stepEntries() {
	for _, n := range r.Match.CommonSteps {
		e := StepEntry{Step: n}
		for i, s := range r.Ranks {
			e.Starts, e.Durs = append(e.Starts, -1), append(e.Durs, -1)
			for k, x := range s.Steps {
				if x == n {
					e.Starts[i], e.Durs[i] = r.clock(i, s.StepStart[k]), s.StepDur[k]
					break
				}
			}
		}
		r.StepTable = append(r.StepTable, e)
	}
}

// lateness explains why rank v (a summary index) was late.
func (r *Report) lateness(v int) *Lateness {
	if len(r.StepTable) == 0 {
		return nil
	}
	l := &Lateness{Kind: LateUnknown, Step: -1, EntryNs: -1, Steps: len(r.StepTable)}
	for _, e := range r.StepTable {
		if e.Durs[v] < 0 {
			continue
		}
		earliest, latest, shortest := int64(math.MaxInt64), int64(math.MinInt64), int64(math.MaxInt64)
		others := false
		for i := range r.Ranks {
			if e.Durs[i] < 0 || r.Waits[i].Collectives == 0 {
				continue
			}
			earliest, latest, shortest = min(earliest, e.Starts[i]), max(latest, e.Starts[i]), min(shortest, e.Durs[i])
			others = others || i != v
		}
		if !others {
			continue
		}
		short := e.Durs[v] == shortest
		if short {
			l.Shortest++
		}
		if r.ClockComparable {
			if entry := e.Starts[v] - earliest; entry > l.EntryNs {
				l.EntryNs, l.Step = entry, e.Step
			}
			if short && e.Starts[v] == latest && latest > earliest {
				l.EnteredLast++
			}
		}
	}
	var deltas []int64
	for _, c := range r.Colls {
		own := int64(-1)
		var others []int64
		for _, a := range c.Arrivals {
			switch {
			case a.InStepNs < 0:
			case a.Index == v:
				own = a.InStepNs
			default:
				others = append(others, a.InStepNs)
			}
		}
		if own >= 0 && len(others) > 0 {
			deltas = append(deltas, own-stats.MedianNs(others))
		}
	}
	if len(deltas) > 0 {
		l.InStepNs, l.InStep = stats.MedianNs(deltas), true
	}
	rank := r.Ranks[v].Rank
	switch {
	case !r.ClockComparable:
		l.Text = fmt.Sprintf("the clocks are not comparable, so a late start of the step cannot be told from late work inside it; rank %d's step was the shortest in %d of %d common steps", rank, l.Shortest, l.Steps)
	case l.EnteredLast*2 > l.Steps:
		l.Kind = LateBeforeStep
		l.Text = fmt.Sprintf("late before the step: rank %d entered ProfilerStep#%d %s after the earliest rank (it entered last, with the shortest step, in %d of %d common steps)",
			rank, l.Step, units.Dur(l.EntryNs), l.EnteredLast, l.Steps)
	default:
		l.Kind = LateInStep
		in := ""
		switch {
		case l.InStep && l.InStepNs > 0:
			in = fmt.Sprintf(" and reached its collectives a median %s later into the step than the others", units.Dur(l.InStepNs))
		case l.InStep:
			in = fmt.Sprintf(" and reached its collectives no later into the step than the others (a median %s earlier)", units.Dur(-l.InStepNs))
		}
		l.Text = fmt.Sprintf("late inside the step: rank %d entered its steps at most %s after the earliest rank%s", rank, units.Dur(max(l.EntryNs, 0)), in)
	}
	return l
}

// htaStragglers counts, per rank, the common steps in which HTA's
// get_potential_stragglers (one candidate) names it: of the matched
// collectives whose longest kernel lasts at least 1% of the mean step,
// the name (and process group) whose kernel durations differ most across
// the ranks (the largest mean over the steps of their standard deviation)
// is chosen; in each step the rank that arrived last at its last
// occurrence counts: the latest start where the clocks are comparable (as
// HTA), else the shortest kernel (every tied rank counts).
func (r *Report) htaStragglers() {
	r.HTACounts = make([]int, len(r.Ranks))
	var stepSum, stepN int64
	for _, e := range r.StepTable {
		for _, d := range e.Durs {
			if d >= 0 {
				stepSum += d
				stepN++
			}
		}
	}
	if stepN == 0 {
		return
	}
	minDur := float64(stepSum) / float64(stepN) * 0.01
	type key struct{ name, pg string }
	last := map[key]map[int64]*CollRow{}
	var keys []key
	for i := range r.Colls {
		c := &r.Colls[i]
		if c.Step < 0 || float64(slices.Max(durs(c))) < minDur {
			continue
		}
		k := key{c.Name, c.PG}
		if last[k] == nil {
			last[k] = map[int64]*CollRow{}
			keys = append(keys, k)
		}
		last[k][c.Step] = c // rows are in start order: the last one stays
	}
	best, bestStd := -1, -1.0
	for j, k := range keys {
		var sum float64
		for _, c := range last[k] {
			sum += stdDev(durs(c))
		}
		if m := sum / float64(len(last[k])); m > bestStd {
			best, bestStd = j, m
		}
	}
	if best < 0 {
		return
	}
	r.HTAName = keys[best].name
	for _, c := range last[keys[best]] {
		r.HTASteps++
		switch {
		case r.ClockComparable:
			r.HTACounts[c.LatestStart]++
		case c.Last >= 0:
			r.HTACounts[c.Last]++
		default:
			for _, i := range c.Tied {
				r.HTACounts[i]++
			}
		}
	}
}

func durs(c *CollRow) []int64 {
	d := make([]int64, len(c.Arrivals))
	for i, a := range c.Arrivals {
		d[i] = a.DurNs
	}
	return d
}

// stdDev is the sample standard deviation (pandas' std, n-1); 0 for fewer
// than two values.
func stdDev(d []int64) float64 {
	if len(d) < 2 {
		return 0
	}
	var m float64
	for _, x := range d {
		m += float64(x)
	}
	m /= float64(len(d))
	var v float64
	for _, x := range d {
		v += (float64(x) - m) * (float64(x) - m)
	}
	return math.Sqrt(v / float64(len(d)-1))
}
