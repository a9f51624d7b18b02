package gaps

import (
	"cmp"
	"container/heap"

	"github.com/tracetab/tracetab/internal/trace"
)

// stepNames tells, once per distinct name, whether an op or annotation is
// a profiler-step marker or a DataLoader step.
type stepNames struct {
	t    *trace.Trace
	kind []int8 // 0 unknown, 1 step, 2 loader, 3 other
}

func newStepNames(t *trace.Trace) *stepNames {
	return &stepNames{t: t, kind: make([]int8, len(t.Strings))}
}

func (n *stepNames) of(id trace.StrID) int8 {
	if k := n.kind[id]; k != 0 {
		return k
	}
	name := n.t.Str(id)
	k := int8(3)
	if _, ok := trace.StepNumber(name); ok {
		k = 1
	} else if isLoaderStep(name) {
		k = 2
	}
	n.kind[id] = k
	return k
}

// roleOf is the role an event's time counts for, or numRoles when none
// (step markers, syncs, the profiler's own events).
func (n *stepNames) roleOf(e *trace.Event) Role {
	switch {
	case e.Kind == trace.KindKernel:
		return RoleKernel
	case e.Kind == trace.KindMemcpy:
		return RoleMemcpy
	case e.Kind == trace.KindMemset:
		return RoleMemset
	case e.Kind.IsLaunch():
		return RoleRuntime
	case e.Kind == trace.KindPython:
		return RoleCPUExec
	case e.Kind == trace.KindCPUOp || e.Kind == trace.KindAnnotation:
		switch n.of(e.Name) {
		case 1:
			return numRoles
		case 2:
			return RoleDataLoader
		}
		return RoleCPUExec
	}
	return numRoles
}

// cpuBusy reports whether an event counts for the launching threads' CPU
// runs (cpuRuns): CPU work with a length, step markers aside.
func (n *stepNames) cpuBusy(e *trace.Event) bool {
	return e.Kind.IsCPU() && e.Dur > 0 && !((e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp) && n.of(e.Name) == 1)
}

// run is a merged run of one track's intervals.
type run struct {
	s, e int64
	has  bool
}

// roleReader walks one track's events by start, keeping the open merged
// run of each role (and of its CPU busy time when it is a launcher).
type roleReader struct {
	ord    []int32
	k      int
	cur    [RoleOther]run
	active bool // in streamRoles' list of readers whose runs may reach a later step
	cpu    bool
	cpuCur run
	cpuOut ivs
}

type readerHeap struct {
	rs    []roleReader
	t     *trace.Trace
	order []int
}

func (h *readerHeap) next(i int) int64 { r := &h.rs[i]; return h.t.Ev(int(r.ord[r.k])).Start }
func (h *readerHeap) Len() int         { return len(h.order) }
func (h *readerHeap) Less(a, b int) bool {
	if x, y := h.next(h.order[a]), h.next(h.order[b]); x != y {
		return x < y
	}
	return h.order[a] < h.order[b]
}
func (h *readerHeap) Swap(a, b int) { h.order[a], h.order[b] = h.order[b], h.order[a] }
func (h *readerHeap) Push(x any)    { h.order = append(h.order, x.(int)) }
func (h *readerHeap) Pop() any {
	x := h.order[len(h.order)-1]
	h.order = h.order[:len(h.order)-1]
	return x
}

// streamRoles fills each selected step's role times (steps[sel[j]] for
// out[j], the windows one after another) in one pass over every track's
// events, holding only the current step's intervals; it returns the
// launching threads' CPU runs (cpuRuns) when launchers is set.
func streamRoles(t *trace.Trace, l *trace.Links, names *stepNames, steps [][2]int64, sel []int, out []StepBreakdown, launchers []bool) ivs {
	h := &readerHeap{t: t}
	for k := range t.Tracks {
		ord := l.Order[l.TrackStart[k]:l.TrackStart[k+1]]
		if len(ord) == 0 {
			continue
		}
		h.rs = append(h.rs, roleReader{ord: ord, cpu: launchers != nil && launchers[k]})
		h.order = append(h.order, len(h.rs)-1)
	}
	heap.Init(h)
	var s, e int64
	var bufs [numRoles]ivs
	emit := func(r Role, x run) {
		if x.e > s && x.s < e {
			bufs[r] = append(bufs[r], [2]int64{max(x.s, s), min(x.e, e)})
		}
	}
	consume := func(rd *roleReader, ev *trace.Event, roles bool) {
		if rd.cpu && names.cpuBusy(ev) {
			c := &rd.cpuCur
			if c.has && ev.Start <= c.e {
				c.e = max(c.e, ev.End())
			} else {
				if c.has {
					rd.cpuOut = append(rd.cpuOut, [2]int64{c.s, c.e})
				}
				*c = run{ev.Start, ev.End(), true}
			}
		}
		if !roles {
			return
		}
		r := names.roleOf(ev)
		if r >= RoleOther {
			return
		}
		c := &rd.cur[r]
		if c.has && ev.Start <= c.e {
			c.e = max(c.e, ev.End())
			return
		}
		if c.has {
			emit(r, *c)
		}
		*c = run{ev.Start, ev.End(), true}
	}
	var active []int
	for j, k := range sel {
		s, e = steps[k][0], steps[k][1]
		for r := range bufs {
			bufs[r] = bufs[r][:0]
		}
		// Every event starting before the step's end is read (those
		// between selected steps only close runs).
		for h.Len() > 0 && h.next(h.order[0]) < e {
			ri := heap.Pop(h).(int)
			rd := &h.rs[ri]
			for rd.k < len(rd.ord) {
				ev := t.Ev(int(rd.ord[rd.k]))
				if ev.Start >= e {
					break
				}
				consume(rd, ev, true)
				rd.k++
			}
			if rd.k < len(rd.ord) {
				heap.Push(h, ri)
			}
			if !rd.active {
				rd.active = true
				active = append(active, ri)
			}
		}
		// The open runs count for the step; those reaching past it stay.
		still := active[:0]
		for _, ri := range active {
			rd := &h.rs[ri]
			reach := false
			for r := range rd.cur {
				if c := rd.cur[r]; c.has {
					emit(Role(r), c)
					reach = reach || c.e > e
				}
			}
			if reach {
				still = append(still, ri)
			} else {
				rd.active = false
			}
		}
		active = still
		for r := range bufs {
			bufs[r] = mergeIvs(bufs[r])
		}
		sb := &out[j]
		sb.Ns[RoleOther] = sb.TotalNs - sweepRoles(&bufs, s, e, &sb.Ns)
	}
	if launchers == nil {
		return nil
	}
	var lists [][][2]int64
	for ri := range h.rs {
		rd := &h.rs[ri]
		if !rd.cpu {
			continue
		}
		for ; rd.k < len(rd.ord); rd.k++ {
			consume(rd, t.Ev(int(rd.ord[rd.k])), false)
		}
		if rd.cpuCur.has {
			rd.cpuOut = append(rd.cpuOut, [2]int64{rd.cpuCur.s, rd.cpuCur.e})
		}
		lists = append(lists, rd.cpuOut)
	}
	all := mergeLists(lists, func(x, y [2]int64) int { return cmp.Compare(x[0], y[0]) })
	return mergeIvs(all)
}

// listRoles fills each selected step's role times from the merged lists of
// every role over the whole trace: for windows that overlap.
func listRoles(t *trace.Trace, l *trace.Links, names *stepNames, steps [][2]int64, sel []int, out []StepBreakdown) {
	var roles [numRoles]roleAcc
	for k := range t.Tracks {
		for _, i32 := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i32))
			if r := names.roleOf(e); r < RoleOther {
				roles[r].add(e.Start, e.End())
			}
		}
		for r := range roles {
			roles[r].endRun()
		}
	}
	var merged [numRoles]ivs
	for r := RoleKernel; r < RoleOther; r++ {
		merged[r] = roles[r].merged()
		roles[r] = roleAcc{}
	}
	for j, k := range sel {
		sb := &out[j]
		sb.Ns[RoleOther] = sb.TotalNs - sweepRoles(&merged, steps[k][0], steps[k][1], &sb.Ns)
	}
}
