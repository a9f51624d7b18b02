package reportview

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/gaps"
)

// RoleKeys are the JSON names of the step breakdown's roles, as
// tracetab gaps --format json writes them, in the roles' order.
var RoleKeys = []string{"kernel_ns", "memcpy_ns", "memset_ns", "runtime_ns", "dataloader_ns", "cpu_exec_ns", "other_ns"}

// RoleColors are the roles' colours, in the roles' order.
var RoleColors = []string{"#3f8f3a", "#e0a030", "#c8609c", "#d9603b", "#8a63c2", "#4a7fc1", "#a3a3a3"}

// StepChart is the step-time breakdown of gaps (the TensorBoard plugin's
// Overview) per step, with each step's row of the gaps step table.
type StepChart struct {
	Bars   []Bar
	Total  gaps.StepBreakdown
	Advice string
	Note   string
	// Rows are the gaps step rows (all steps, those the breakdown left out
	// included).
	Rows []gaps.StepLane
	// Shown are the bars drawn (indices into Bars): all of them up to
	// MaxBars; else every k-th from the first, and the longest and the
	// shortest step.
	Shown []int
}

// MaxBars is how many steps the chart draws at most.
const MaxBars = 150

// Bar is one step's breakdown: the step extended to the end of its GPU
// work, and its gaps step row when there is one.
type Bar struct {
	Step         int64
	StartNs      int64 // from the origin
	TotalNs      int64
	Ns           []int64 // per role, in RoleKeys' order
	ExtendedByNs int64
	Cold         bool
	Row          *gaps.StepLane
	HasBreakdown bool
}

// NewStepChart takes the breakdown and step rows of a gaps report; nil
// when the trace has no steps.
func NewStepChart(r *gaps.Report) *StepChart {
	if r == nil || r.Breakdown == nil {
		return nil
	}
	c := &StepChart{Total: r.Breakdown.Total, Advice: r.Breakdown.Advice, Note: r.Breakdown.Note, Rows: r.Steps}
	rows := map[int64]*gaps.StepLane{}
	for k := range r.Steps {
		rows[r.Steps[k].Step] = &r.Steps[k]
	}
	for _, s := range r.Breakdown.Steps {
		b := Bar{Step: s.Step, StartNs: s.StartNs, TotalNs: s.TotalNs, Ns: s.Ns[:], ExtendedByNs: s.ExtendedByNs,
			Row: rows[s.Step], HasBreakdown: true}
		if b.Row != nil {
			b.Cold = b.Row.Cold
		}
		c.Bars = append(c.Bars, b)
	}
	c.Shown = shownBars(c.Bars)
	return c
}

// shownBars picks the bars to draw: all when they fit in MaxBars, else
// every k-th (k = ceil(n / (MaxBars-2))) from the first, and the longest
// and the shortest.
func shownBars(bars []Bar) []int {
	n := len(bars)
	var out []int
	if n <= MaxBars {
		for k := range bars {
			out = append(out, k)
		}
		return out
	}
	every := (n + MaxBars - 3) / (MaxBars - 2)
	lo, hi := 0, 0
	for k, b := range bars {
		if b.TotalNs < bars[lo].TotalNs {
			lo = k
		}
		if b.TotalNs > bars[hi].TotalNs {
			hi = k
		}
	}
	for k := range bars {
		if k%every == 0 || k == lo || k == hi {
			out = append(out, k)
		}
	}
	return out
}

// ShownNote says which steps the chart draws, when not all.
func (c *StepChart) ShownNote() string {
	if len(c.Shown) == len(c.Bars) {
		return ""
	}
	every := (len(c.Bars) + MaxBars - 3) / (MaxBars - 2)
	return fmt.Sprintf("the chart draws %d of the %d steps: every %s from the first, and the longest and the shortest", len(c.Shown), len(c.Bars), ordinal(every))
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// Bar returns the bar of step n, or nil.
func (c *StepChart) Bar(n int64) *Bar {
	for k := range c.Bars {
		if c.Bars[k].Step == n {
			return &c.Bars[k]
		}
	}
	return nil
}

// MedianBar is the step of median length among the steps that are not
// cold (the shorter of the two middle ones for an even count).
func (c *StepChart) MedianBar() *Bar {
	var warm []*Bar
	for k := range c.Bars {
		if !c.Bars[k].Cold {
			warm = append(warm, &c.Bars[k])
		}
	}
	if len(warm) == 0 {
		warm = append(warm, &c.Bars[0])
	}
	slices.SortStableFunc(warm, func(a, b *Bar) int { return cmp.Compare(a.TotalNs, b.TotalNs) })
	return warm[(len(warm)-1)/2]
}

// MaxNs is the longest bar.
func (c *StepChart) MaxNs() int64 {
	var m int64
	for _, b := range c.Bars {
		m = max(m, b.TotalNs)
	}
	return m
}
