package gaps

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// Role is a row of torch's step-time breakdown (the TensorBoard profiler
// plugin's Overview): each instant of a step counts once, for the first
// role in this order that is active then.
type Role uint8

// The roles, in priority order.
const (
	RoleKernel Role = iota
	RoleMemcpy
	RoleMemset
	RoleRuntime    // runtime and driver calls
	RoleDataLoader // enumerate(DataLoader)#...__next__, enumerate(DataPipe)#...
	RoleCPUExec    // other ops, annotations, Python functions
	RoleOther      // nothing of the above
	numRoles
)

var roleNames = [numRoles]string{"Kernel", "Memcpy", "Memset", "Runtime", "DataLoader", "CPU Exec", "Other"}

func (r Role) String() string { return roleNames[r] }

// Roles lists the roles in order.
func Roles() []Role {
	out := make([]Role, numRoles)
	for k := range out {
		out[k] = Role(k)
	}
	return out
}

// StepBreakdown is one step's time by role.
type StepBreakdown struct {
	Step         int64 // -1 for the total
	StartNs      int64 // offset from the trace start (the step extended to its GPU work)
	TotalNs      int64
	Ns           [numRoles]int64
	ExtendedByNs int64 // how far the step was extended past its CPU end
}

// Breakdown is the per-step breakdown and the total over the steps.
type Breakdown struct {
	Steps  []StepBreakdown
	Total  StepBreakdown
	Advice string // a recommendation that follows from the numbers, or ""
	Note   string // steps left out, and why
}

func isLoaderStep(name string) bool {
	return (strings.HasPrefix(name, "enumerate(DataLoader)#") && strings.HasSuffix(name, ".__next__")) ||
		strings.HasPrefix(name, "enumerate(DataPipe)#")
}

// stepBreakdown follows the plugin's Overview: a step runs from its CPU
// start (or the end of the step before it) to the later of its CPU end and
// the end of the last device op launched by a runtime call that lies wholly
// inside it; trailing steps that launched nothing (or under 80% of the
// step before them) are left out, as the profiler may have missed their
// kernels. Communication kernels count as Kernel.
func stepBreakdown(t *trace.Trace, l *trace.Links, keep func(n int64) bool) *Breakdown {
	win := t.StepWindows()
	if len(win) == 0 {
		return nil
	}
	var roles [numRoles][][2]int64
	type call struct {
		s, e   int64
		dmin   int64
		dmax   int64
		hasDev bool
		ev     int32
	}
	callAt := map[int32]int{}
	var calls []call
	var devs []struct {
		s, e int64
		call int32
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		iv := [2]int64{e.Start, e.End()}
		switch {
		case e.Kind == trace.KindKernel:
			roles[RoleKernel] = append(roles[RoleKernel], iv)
		case e.Kind == trace.KindMemcpy:
			roles[RoleMemcpy] = append(roles[RoleMemcpy], iv)
		case e.Kind == trace.KindMemset:
			roles[RoleMemset] = append(roles[RoleMemset], iv)
		case e.Kind.IsLaunch():
			roles[RoleRuntime] = append(roles[RoleRuntime], iv)
			callAt[int32(i)] = len(calls)
			calls = append(calls, call{s: e.Start, e: e.End(), ev: int32(i)})
		case e.Kind == trace.KindCPUOp || e.Kind == trace.KindAnnotation || e.Kind == trace.KindPython:
			name := t.Str(e.Name)
			if _, ok := trace.StepNumber(name); ok && e.Kind != trace.KindPython {
				continue
			}
			if isLoaderStep(name) && e.Kind != trace.KindPython {
				roles[RoleDataLoader] = append(roles[RoleDataLoader], iv)
			} else {
				roles[RoleCPUExec] = append(roles[RoleCPUExec], iv)
			}
		}
		if e.Kind.IsDeviceWork() {
			devs = append(devs, struct {
				s, e int64
				call int32
			}{e.Start, e.End(), l.Launch[i]})
		}
	}
	for _, d := range devs {
		if d.call < 0 {
			continue
		}
		c := &calls[callAt[d.call]]
		if !c.hasDev {
			c.dmin, c.dmax, c.hasDev = d.s, d.e, true
		} else {
			c.dmin, c.dmax = min(c.dmin, d.s), max(c.dmax, d.e)
		}
	}
	slices.SortStableFunc(calls, func(a, b call) int { return cmp.Compare(a.s, b.s) })

	// The device span of each step: runtime calls wholly inside it.
	n := len(win)
	const none = int64(1<<63 - 1)
	dmin, dmax, matched := make([]int64, n), make([]int64, n), make([]int, n)
	for k := range dmin {
		dmin[k], dmax[k] = none, -none
	}
	isMatched := map[int]bool{} // call index -> its device ops are matched
	ic := 0
	for k := 0; k < n && ic < len(calls); {
		c := &calls[ic]
		switch {
		case c.s < win[k].Start:
			ic++
		case c.e <= win[k].End:
			if c.hasDev {
				dmin[k], dmax[k] = min(dmin[k], c.dmin), max(dmax[k], c.dmax)
				isMatched[ic] = true
			}
			ic++
		case c.s < win[k].End:
			ic++
		default:
			k++
		}
	}
	// Count matched device ops per step, and find the end of unmatched
	// device work before the first step's device work.
	anyMatched := false
	callIdx := make(map[int32]int, len(calls)) // launch call event -> sorted position
	for pos, c := range calls {
		callIdx[c.ev] = pos
	}
	prevEnd := win[0].Start
	for _, d := range devs {
		pos, ok := -1, false
		if d.call >= 0 {
			pos = callIdx[d.call]
			ok = isMatched[pos]
		}
		if ok {
			anyMatched = true
			k := trace.StepAt(win, calls[pos].s)
			if k >= 0 {
				matched[k]++
			}
			continue
		}
		if dmin[0] != none && d.e < dmin[0] {
			prevEnd = max(prevEnd, d.e)
		}
	}
	steps := make([][2]int64, n)
	for k, w := range win {
		steps[k] = [2]int64{w.Start, w.End}
	}
	keepN := n
	if anyMatched {
		for k := range steps {
			s := max(prevEnd, steps[k][0])
			e := steps[k][1]
			if dmin[k] == none {
				e = max(e, s)
			} else {
				e = max(e, dmax[k])
				if e < s {
					e = s
				}
			}
			steps[k] = [2]int64{s, e}
			prevEnd = e
		}
		if n > 1 {
			k := n - 1
			for k >= 0 && matched[k] == 0 {
				k--
			}
			if k >= 0 {
				keepN = k + 1
				if k > 0 && float64(matched[k-1])*0.8 > float64(matched[k]) {
					keepN = k
				}
			}
		}
	}
	b := &Breakdown{Total: StepBreakdown{Step: -1}}
	if keepN < n {
		b.Note = "the last steps launched no (or too few) device ops: left out, as the TensorBoard plugin does"
	}
	steps = steps[:keepN]

	// Each instant counts once, for the first role active then.
	var cost [numRoles]ivs
	var slots ivs
	all := mergeIvs(slices.Clone(steps))
	for r := RoleKernel; r < RoleOther; r++ {
		role := mergeIvs(roles[r])
		rng := role
		if len(slots) > 0 {
			rng = intersectIvs(slots, role)
		} else {
			slots = all
		}
		cost[r] = rng
		slots = subtractIvs(slots, rng)
	}
	cost[RoleOther] = slots
	for k, s := range steps {
		if !keep(win[k].N) {
			continue
		}
		sb := StepBreakdown{Step: win[k].N, StartNs: s[0] - t.TraceStart, TotalNs: s[1] - s[0], ExtendedByNs: max(0, s[1]-win[k].End)}
		for r := range cost {
			sb.Ns[r] = cost[r].overlap(s[0], s[1])
		}
		b.Steps = append(b.Steps, sb)
		b.Total.TotalNs += sb.TotalNs
		for r := range sb.Ns {
			b.Total.Ns[r] += sb.Ns[r]
		}
	}
	b.Advice = breakdownAdvice(&b.Total)
	return b
}

// breakdownAdvice is the recommendation that follows from the totals.
func breakdownAdvice(t *StepBreakdown) string {
	if t.TotalNs == 0 {
		return ""
	}
	share := func(r Role) float64 { return float64(t.Ns[r]) * 100 / float64(t.TotalNs) }
	switch {
	case share(RoleDataLoader) >= 5:
		return "DataLoader takes " + fmtPct(share(RoleDataLoader)) + " of the step time: raise num_workers and set pin_memory=True"
	case share(RoleRuntime)+share(RoleCPUExec) > share(RoleKernel) && share(RoleKernel) < 50:
		return "launch calls and CPU work take longer than the kernels: CUDA graphs or torch.compile would cut launch overhead"
	}
	return ""
}

func fmtPct(p float64) string { return units.Pct(p) + "%" }
