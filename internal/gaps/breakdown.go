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
	b, _ := stepBreakdownRuns(t, l, keep, nil)
	return b
}

// stepBreakdownRuns is stepBreakdown that, in the same pass over each
// thread, also finds cpuRuns(t, l, launchers) when launchers is set.
func stepBreakdownRuns(t *trace.Trace, l *trace.Links, keep func(n int64) bool, launchers []bool) (*Breakdown, ivs) {
	win := t.StepWindows()
	if len(win) == 0 {
		if launchers == nil {
			return nil, nil
		}
		return nil, cpuRuns(t, l, launchers)
	}
	var cpu roleAcc // the launching threads' CPU runs (cpuRuns)
	var roles [numRoles]roleAcc
	// Room for the lists that keep about one interval per op up front
	// (kernels and launch calls seldom overlap on their own track). CPU
	// intervals nest, so their merged runs are far fewer than their
	// events: those lists grow as needed.
	roles[RoleKernel].out = make([][2]int64, 0, l.DeviceOps)
	roles[RoleRuntime].out = make([][2]int64, 0, l.LaunchCalls)
	// The step and loader names are decided once per distinct name.
	nameKind := make([]int8, len(t.Strings)) // 0 unknown, 1 step, 2 loader, 3 other
	kindOf := func(id trace.StrID) int8 {
		if k := nameKind[id]; k != 0 {
			return k
		}
		name := t.Str(id)
		k := int8(3)
		if _, ok := trace.StepNumber(name); ok {
			k = 1
		} else if isLoaderStep(name) {
			k = 2
		}
		nameKind[id] = k
		return k
	}
	// Each track's events come sorted by start: its intervals merge as they
	// come, so only the merged lists of all tracks are sorted.
	for k := range t.Tracks {
		runs := launchers != nil && launchers[k]
		for _, i32 := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i32))
			s, en := e.Start, e.End()
			if runs && e.Kind.IsCPU() && e.Dur > 0 && !((e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp) && kindOf(e.Name) == 1) {
				cpu.add(s, en)
			}
			switch {
			case e.Kind == trace.KindKernel:
				roles[RoleKernel].add(s, en)
			case e.Kind == trace.KindMemcpy:
				roles[RoleMemcpy].add(s, en)
			case e.Kind == trace.KindMemset:
				roles[RoleMemset].add(s, en)
			case e.Kind.IsLaunch():
				roles[RoleRuntime].add(s, en)
			case e.Kind == trace.KindPython:
				roles[RoleCPUExec].add(s, en)
			case e.Kind == trace.KindCPUOp || e.Kind == trace.KindAnnotation:
				switch kindOf(e.Name) {
				case 1:
				case 2:
					roles[RoleDataLoader].add(s, en)
				default:
					roles[RoleCPUExec].add(s, en)
				}
			}
		}
		for r := range roles {
			roles[r].endRun()
		}
		if runs {
			cpu.endRun()
		}
	}
	// The device span of each step: runtime calls wholly inside it. A call
	// belongs to the first step that ends after it starts (the steps come
	// by start; a cursor over calls in start order finds the same one), if
	// it lies wholly inside that step. Each device op is looked up alone:
	// no list of calls is kept.
	n := len(win)
	endMax := make([]int64, n) // the latest step end so far: ascending
	for k, w := range win {
		endMax[k] = w.End
		if k > 0 {
			endMax[k] = max(endMax[k], endMax[k-1])
		}
	}
	// Only for a zero-length call at a step's end: the first longer call
	// starting there (by event index), found once per trace.
	var firstLonger map[int64]int32
	passedAt := func(s int64, r int32) bool {
		if firstLonger == nil {
			firstLonger = map[int64]int32{}
			for _, w := range win {
				firstLonger[w.End] = -1
			}
			for i := 0; i < t.NumEvents(); i++ {
				e := t.Ev(i)
				if e.Kind.IsLaunch() && e.Dur > 0 {
					if f, ok := firstLonger[e.Start]; ok && f < 0 {
						firstLonger[e.Start] = int32(i)
					}
				}
			}
		}
		f, ok := firstLonger[s]
		return ok && f >= 0 && f < r
	}
	stepOfCall := func(r int32) int {
		if r < 0 {
			return -1
		}
		c := t.Ev(int(r))
		if !c.Kind.IsLaunch() {
			return -1
		}
		return callStep(win, endMax, c.Start, c.End(), func(s int64) bool { return passedAt(s, r) })
	}
	const none = int64(1<<63 - 1)
	dmin, dmax, matched := make([]int64, n), make([]int64, n), make([]int, n)
	for k := range dmin {
		dmin[k], dmax[k] = none, -none
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		if k := stepOfCall(l.Launch[i]); k >= 0 {
			dmin[k], dmax[k] = min(dmin[k], e.Start), max(dmax[k], e.End())
			matched[k]++
		}
	}
	// Find the end of unmatched device work before the first step's
	// device work.
	anyMatched := false
	prevEnd := win[0].Start
	for k := range matched {
		anyMatched = anyMatched || matched[k] > 0
	}
	if anyMatched && dmin[0] != none {
		for i := 0; i < t.NumEvents(); i++ {
			e := t.Ev(i)
			if !e.Kind.IsDeviceWork() || stepOfCall(l.Launch[i]) >= 0 {
				continue
			}
			if d := e.End(); d < dmin[0] {
				prevEnd = max(prevEnd, d)
			}
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

	// Each instant counts once, for the first role active then: a role's
	// time in a step is how much the union of it and the roles before it
	// covers, less what the roles before it cover. Only the running union
	// is kept (two buffers, linear merges).
	var sel []int
	for k := range steps {
		if keep(win[k].N) {
			sel = append(sel, k)
			b.Steps = append(b.Steps, StepBreakdown{Step: win[k].N, StartNs: steps[k][0] - t.TraceStart,
				TotalNs: steps[k][1] - steps[k][0], ExtendedByNs: max(0, steps[k][1]-win[k].End)})
		}
	}
	prev := make([]int64, len(sel))
	var merged [numRoles]ivs
	for r := RoleKernel; r < RoleOther; r++ {
		merged[r] = roles[r].merged()
		roles[r] = roleAcc{} // its runs are merged: let them go
	}
	// Two buffers serve the rounds, each grown only when the next union
	// may not fit (the lists already merged are let go meanwhile).
	var union, spare ivs
	for r := RoleKernel; r < RoleOther; r++ {
		union, spare = unionInto(spare[:0], union, merged[r]), union
		merged[r] = nil // in the union now
		// The steps come by start: one cursor walks the union.
		c := 0
		for j, k := range sel {
			s, e := steps[k][0], steps[k][1]
			if j > 0 && s < steps[sel[j-1]][0] {
				c = 0 // not by start (never for step windows): restart
			}
			for c < len(union) && union[c][1] <= s {
				c++
			}
			var cur int64
			if e > s {
				for x := c; x < len(union) && union[x][0] < e; x++ {
					cur += min(e, union[x][1]) - max(s, union[x][0])
				}
			}
			b.Steps[j].Ns[r] = cur - prev[j]
			prev[j] = cur
		}
	}
	for j := range b.Steps {
		sb := &b.Steps[j]
		sb.Ns[RoleOther] = sb.TotalNs - prev[j]
		b.Total.TotalNs += sb.TotalNs
		for r := range sb.Ns {
			b.Total.Ns[r] += sb.Ns[r]
		}
	}
	b.Advice = breakdownAdvice(&b.Total)
	var busy ivs
	if launchers != nil {
		busy = cpu.merged()
	}
	return b, busy
}

// callStep is the step a runtime call from s to e lies in, or -1: the
// step at which a cursor stops that walks the calls in (start, event
// index) order over the steps (by start), moving to the next step when a
// call starts at or after the step's end and ends after it; the call
// counts when it lies wholly inside that step. endMax[k] is the latest
// end of win[:k+1]. The cursor's place depends on the calls before only
// for a zero-length call exactly at a step's end: passedAt(s) reports
// whether a call before it in that order starts at s and lasts longer.
func callStep(win []trace.Step, endMax []int64, s, e int64, passedAt func(s int64) bool) int {
	k, _ := slices.BinarySearch(endMax, s) // the first step ending at or after s
	if k < len(win) && endMax[k] == s && (e > s || passedAt(s)) {
		k, _ = slices.BinarySearch(endMax, s+1) // passed: the first ending after s
	}
	if k == len(win) || s < win[k].Start || e > win[k].End {
		return -1
	}
	return k
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

// roleAcc merges a track's intervals (sorted by start) as they come; each
// track leaves one sorted run, and the runs are merged pairwise at the end
// (n log tracks, no general sort).
type roleAcc struct {
	out  [][2]int64
	runs []int // start of each run in out
	cur  [2]int64
	has  bool
}

func (a *roleAcc) add(s, e int64) {
	if a.has && s <= a.cur[1] {
		a.cur[1] = max(a.cur[1], e)
		return
	}
	if a.has {
		a.out = append(a.out, a.cur)
	}
	a.cur, a.has = [2]int64{s, e}, true
}

// endRun closes the current track's run.
func (a *roleAcc) endRun() {
	if a.has {
		a.out = append(a.out, a.cur)
		a.has = false
	}
	if n := len(a.runs); n == 0 || a.runs[n-1] != len(a.out) {
		a.runs = append(a.runs, len(a.out))
	}
}

// merged is the union of all runs.
func (a *roleAcc) merged() ivs {
	m := mergeRuns(a.out, a.runs, func(x, y [2]int64) int { return cmp.Compare(x[0], y[0]) })
	return mergeIvs(m) // sorted already: one linear pass
}

// unionInto writes the union of two sorted disjoint lists into out.
func unionInto(out, a, b ivs) ivs {
	if cap(out) < len(a)+len(b) {
		out = make(ivs, 0, len(a)+len(b))
	}
	push := func(v [2]int64) {
		if n := len(out); n > 0 && v[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], v[1])
			return
		}
		out = append(out, v)
	}
	for len(a) > 0 && len(b) > 0 {
		if b[0][0] < a[0][0] {
			push(b[0])
			b = b[1:]
		} else {
			push(a[0])
			a = a[1:]
		}
	}
	for _, v := range a {
		push(v)
	}
	for _, v := range b {
		push(v)
	}
	return out
}
