package ranks

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// How collectives are matched across ranks.
const (
	ByPGSeq  = "process group and seq"                   // every kernel has Process Group Name and Seq
	ByPGName = "process group, name and occurrence"      // every kernel has Process Group Name
	ByName   = "kernel name and occurrence"              // the k-th kernel of a name on each rank
	perStep  = " within each common ProfilerStep#N"      // appended when every rank has steps
	noSteps  = " over the whole trace (no common steps)" // appended otherwise
)

// Collective is one collective matched across the ranks that took part.
type Collective struct {
	Name     string
	PG       string // "" when matched without process groups
	Seq      int64  // -1 when matched without seq
	Step     int64  // -1 when matched over the whole trace
	Nth      int    // occurrence of Name (in PG and Step), from 1; 0 with seq
	Ranks    []int  // indices into the summaries, ascending
	Starts   []int64
	Durs     []int64
	Launches []int64 // -1 where the launch call is not in the trace
	Size     Size    // the first given rank's recorded size (noSize when none records one)
}

// Exclusion is a group of communication kernels that could not be matched.
type Exclusion struct {
	What    string // "ncclKernel_AllReduce... in step 10"
	Reason  string // "3 on rank 0, 2 on rank 1"
	Kernels int    // kernels left out, over all ranks
}

// Matching is how the ranks' communication kernels were paired.
type Matching struct {
	By          string
	PerStep     bool
	CommonSteps []int64
	Collectives []Collective
	Excluded    []Exclusion
	Outside     int   // kernels launched outside the common steps, left out
	NoComm      []int // summaries without communication kernels, left out
}

type groupKey struct {
	pg, name string
	step     int64
	seq      int64
}

// Match pairs the communication kernels of the ranks (summaries in rank
// order). A rank without communication kernels takes no part.
func Match(ss []*Summary) *Matching {
	m := &Matching{}
	var in []int
	for i, s := range ss {
		if len(s.Colls) == 0 {
			m.NoComm = append(m.NoComm, i)
			continue
		}
		in = append(in, i)
	}
	allPG, allSeq := true, true
	for _, i := range in {
		for _, c := range ss[i].Colls {
			allPG = allPG && c.PG != ""
			allSeq = allSeq && c.Seq >= 0
		}
	}
	switch {
	case allPG && allSeq:
		m.By = ByPGSeq
	case allPG:
		m.By = ByPGName
	default:
		m.By = ByName
	}
	m.CommonSteps = commonSteps(ss, in)
	m.PerStep = len(m.CommonSteps) > 0
	if m.PerStep {
		m.By += perStep
	} else {
		m.By += noSteps
	}
	common := map[int64]bool{}
	for _, n := range m.CommonSteps {
		common[n] = true
	}
	// per rank: the kernels of each group, in start order
	groups := make([]map[groupKey][]Coll, len(ss))
	var keys []groupKey
	seen := map[groupKey]bool{}
	for _, i := range in {
		groups[i] = map[groupKey][]Coll{}
		for _, c := range ss[i].Colls {
			if m.PerStep && !common[c.Step] {
				m.Outside++
				continue
			}
			k := groupKey{step: -1, seq: -1}
			if m.PerStep {
				k.step = c.Step
			}
			switch {
			case allPG && allSeq:
				k.pg, k.seq = c.PG, c.Seq
			case allPG:
				k.pg, k.name = c.PG, c.Name
			default:
				k.name = c.Name
			}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
			groups[i][k] = append(groups[i][k], c)
		}
	}
	for _, k := range keys {
		m.matchGroup(ss, in, groups, k, allPG)
	}
	slices.SortStableFunc(m.Collectives, func(a, b Collective) int { return cmp.Compare(a.Starts[0], b.Starts[0]) })
	return m
}

// matchGroup matches the kernels of one group across the ranks that have
// it: all ranks when kernels carry no process group, else the ranks of
// the group that were given (two or more).
func (m *Matching) matchGroup(ss []*Summary, in []int, groups []map[groupKey][]Coll, k groupKey, byPG bool) {
	var ranks []int
	var counts []string
	total := 0
	for _, i := range in {
		n := len(groups[i][k])
		total += n
		if n > 0 {
			ranks = append(ranks, i)
		}
		if n > 0 || !byPG {
			counts = append(counts, fmt.Sprintf("%d on rank %d", n, ss[i].Rank))
		}
	}
	what := describe(k, groups[ranks[0]][k][0].Name)
	exclude := func(reason string) {
		m.Excluded = append(m.Excluded, Exclusion{What: what, Reason: reason, Kernels: total})
	}
	if len(ranks) < 2 {
		exclude(fmt.Sprintf("only on rank %d: its peers' traces were not given", ss[ranks[0]].Rank))
		return
	}
	if !byPG && len(ranks) < len(in) {
		exclude(strings.Join(counts, ", "))
		return
	}
	n := len(groups[ranks[0]][k])
	for _, i := range ranks[1:] {
		if len(groups[i][k]) != n {
			exclude(strings.Join(counts, ", ") + ": different counts")
			return
		}
	}
	if k.seq >= 0 {
		if n != 1 {
			exclude(fmt.Sprintf("seq %d occurs %d times on rank %d", k.seq, n, ss[ranks[0]].Rank))
			return
		}
		name := groups[ranks[0]][k][0].Name
		for _, i := range ranks[1:] {
			if groups[i][k][0].Name != name {
				exclude(fmt.Sprintf("different kernels: %s on rank %d, %s on rank %d", name, ss[ranks[0]].Rank, groups[i][k][0].Name, ss[i].Rank))
				return
			}
		}
	}
	for j := 0; j < n; j++ {
		c := Collective{Name: groups[ranks[0]][k][j].Name, PG: k.pg, Seq: k.seq, Step: k.step, Ranks: ranks, Size: noSize}
		if k.seq < 0 {
			c.Nth = j + 1
		}
		for _, i := range ranks {
			x := groups[i][k][j]
			c.Starts = append(c.Starts, x.Start)
			c.Durs = append(c.Durs, x.Dur)
			c.Launches = append(c.Launches, x.Launch)
			if !c.Size.Known() && x.Size.Known() {
				c.Size = x.Size
			}
		}
		m.Collectives = append(m.Collectives, c)
	}
}

func describe(k groupKey, name string) string {
	var b strings.Builder
	if k.name != "" {
		b.WriteString(k.name)
	} else {
		b.WriteString(name)
	}
	if k.pg != "" {
		b.WriteString(" in process group " + k.pg)
	}
	if k.seq >= 0 {
		b.WriteString(" seq " + strconv.FormatInt(k.seq, 10))
	}
	if k.step >= 0 {
		b.WriteString(" in step " + strconv.FormatInt(k.step, 10))
	}
	return b.String()
}

// commonSteps are the step numbers every rank in `in` has; nil when a rank
// has none.
func commonSteps(ss []*Summary, in []int) []int64 {
	if len(in) == 0 {
		return nil
	}
	count := map[int64]int{}
	for _, i := range in {
		if len(ss[i].Steps) == 0 {
			return nil
		}
		own := map[int64]bool{}
		for _, n := range ss[i].Steps {
			if !own[n] {
				own[n] = true
				count[n]++
			}
		}
	}
	var out []int64
	for n, c := range count {
		if c == len(in) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
