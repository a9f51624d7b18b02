package table

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// build turns the trace into torch's FunctionEvent list: which events
// become rows, their times, threads, links to launching ops, the kernels
// attached to each op, and the parent/child tree.
func build(t *trace.Trace, v Version) *fevents {
	l := t.Links()
	f := &fevents{}
	keyIDs := map[trace.StrID]int32{}
	stepKey := int32(-1)
	keyOf := func(name trace.StrID) int32 {
		if k, ok := keyIDs[name]; ok {
			return k
		}
		s := rewriteName(t.Str(name))
		var k int32
		if s == "ProfilerStep*" {
			if stepKey < 0 {
				stepKey = int32(len(f.keys))
				f.keys = append(f.keys, s)
			}
			k = stepKey
		} else {
			k = int32(len(f.keys))
			f.keys = append(f.keys, s)
		}
		keyIDs[name] = k
		return k
	}
	main := mainThread(t)
	start0 := t.TraceStart
	opExt := func(o int32) int64 {
		if o < 0 {
			return 0
		}
		e := t.Ev(int(o))
		if e.Kind != trace.KindCPUOp || !e.Has(trace.FlagExtID) {
			return 0
		}
		return e.ExtID
	}
	linkOf := func(i int) int64 {
		e := t.Ev(i)
		if e.Has(trace.FlagLowerExtID) {
			return e.ExtID
		}
		switch {
		case e.Kind.IsLaunch():
			return opExt(l.Launch[i])
		case e.Kind.IsDevice() && e.Kind != trace.KindGPUAnnotation:
			if r := l.Launch[i]; r >= 0 {
				re := t.Ev(int(r))
				if re.Has(trace.FlagLowerExtID) {
					return re.ExtID
				}
				return opExt(l.Launch[r])
			}
		}
		return 0
	}

	n := t.NumEvents()
	for i := 0; i < n; i++ {
		e := t.Ev(i)
		if !isFunctionEventKind(e.Kind) || isFiltered(t.Str(e.Name), v) {
			continue
		}
		ts, dur := e.Start, e.Dur
		if e.Kind == trace.KindGPUAnnotation {
			a, b := margin(t, l, i)
			ts, dur = ts+a, max(dur-b, 0)
		}
		rel := ts - start0
		f.ev = append(f.ev, int32(i))
		f.key = append(f.key, keyOf(e.Name))
		f.start = append(f.start, float64(rel)/1000)
		f.end = append(f.end, float64(rel+dur)/1000)
		f.absNs = append(f.absNs, [2]int64{t.Base + ts, t.Base + ts + dur})
		f.kind = append(f.kind, e.Kind)
		f.device = append(f.device, e.Kind.IsDevice())
		f.ann = append(f.ann, e.Kind == trace.KindAnnotation || e.Kind == trace.KindGPUAnnotation)
		var id int64
		switch {
		case e.Kind == trace.KindCPUOp || e.Kind == trace.KindAnnotation:
			if e.Has(trace.FlagExtID) {
				id = e.ExtID
			}
		case e.Kind.IsLaunch() && v.runtimeIDIsCorrelation() && e.Has(trace.FlagCorr):
			id = e.Corr
		}
		f.id = append(f.id, id)
		link := linkOf(i)
		f.link = append(f.link, link)
		th := e.Track
		if (e.Kind.IsLaunch() && link == 0) || e.Kind == trace.KindOverhead {
			th = main
			if !v.AtLeast(1, 13) {
				th = -1
			}
		}
		f.thread = append(f.thread, th)
	}
	m := f.n()
	f.firstKern = fill32(m, -1)
	f.lastKern = fill32(m, -1)
	f.nextKern = fill32(m, -1)
	f.kernDur = make([]float64, 0, 16)
	f.attach(v)
	f.attachMemory(t, v)
	f.sortList()
	f.buildTree()
	f.removeDupNodes()
	return f
}

func fill32(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// attach gives each op the device ops linked to it (torch's
// device_corr_map), in file order, and moves linked runtime calls to their
// op's thread.
func (f *fevents) attach(v Version) {
	m := f.n()
	byLink := map[int64][]int32{}
	for i := 0; i < m; i++ {
		if f.link[i] > 0 {
			byLink[f.link[i]] = append(byLink[f.link[i]], int32(i))
		}
	}
	if len(byLink) == 0 {
		return
	}
	var kernIdx []int32 // kernel list entries point back to device events
	_ = kernIdx
	for i := 0; i < m; i++ {
		if f.device[i] || f.id[i] == 0 {
			continue
		}
		if v.frontendOnlyAttach() && f.link[i] != 0 {
			continue
		}
		if v.skipsUnlinkedRuntime() && (f.kind[i] == trace.KindOverhead || f.kind[i].IsLaunch()) {
			continue
		}
		for _, d := range byLink[f.id[i]] {
			if f.device[d] {
				f.appendKernel(int32(i), f.end[d]-f.start[d])
			} else {
				f.thread[d] = f.thread[i]
			}
		}
	}
}

func (f *fevents) appendKernel(i int32, dur float64) {
	k := int32(len(f.kernDur))
	f.kernDur = append(f.kernDur, dur)
	f.nextKern = append(f.nextKern, -1)
	if f.lastKern[i] < 0 {
		f.firstKern[i] = k
	} else {
		f.nextKern[f.lastKern[i]] = k
	}
	f.lastKern[i] = k
}

// sortList puts the list in torch's order: stable by (start, -end).
func (f *fevents) sortList() {
	m := f.n()
	perm := make([]int32, m)
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(a, b int32) int {
		if c := cmp.Compare(f.start[a], f.start[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(f.end[b], f.end[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	f.permute(perm)
}

// permute reorders every per-event column by perm (new i = old perm[i]).
func (f *fevents) permute(perm []int32) {
	f.ev = permuted(f.ev, perm)
	f.key = permuted(f.key, perm)
	f.start = permuted(f.start, perm)
	f.end = permuted(f.end, perm)
	f.absNs = permuted(f.absNs, perm)
	f.kind = permuted(f.kind, perm)
	f.device = permuted(f.device, perm)
	f.ann = permuted(f.ann, perm)
	f.thread = permuted(f.thread, perm)
	f.id = permuted(f.id, perm)
	f.link = permuted(f.link, perm)
	f.firstKern = permuted(f.firstKern, perm)
	f.lastKern = permuted(f.lastKern, perm)
	f.cpuMem = permuted(f.cpuMem, perm)
	f.devMem = permuted(f.devMem, perm)
}

func permuted[T any](s []T, perm []int32) []T {
	out := make([]T, len(s))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}

// buildTree is torch's _populate_cpu_children: per thread, a stack over
// events sorted by (start, -end); an event is the child of the innermost
// open event that contains it, half-open.
func (f *fevents) buildTree() {
	m := f.n()
	f.parent = fill32(m, -1)
	f.firstChild = fill32(m, -1)
	f.lastChild = fill32(m, -1)
	f.nextSib = fill32(m, -1)
	f.nChildren = make([]int32, m)
	f.deleted = make([]bool, m)
	stacks := map[int32][]int32{}
	for i := 0; i < m; i++ {
		if f.device[i] {
			continue
		}
		th := f.thread[i]
		st := stacks[th]
		for len(st) > 0 {
			p := st[len(st)-1]
			if f.start[i] >= f.end[p] || f.end[i] > f.end[p] {
				st = st[:len(st)-1]
				continue
			}
			f.addChild(p, int32(i))
			break
		}
		stacks[th] = append(st, int32(i))
	}
}

func (f *fevents) addChild(p, c int32) {
	f.parent[c] = p
	if f.lastChild[p] < 0 {
		f.firstChild[p] = c
	} else {
		f.nextSib[f.lastChild[p]] = c
	}
	f.lastChild[p] = c
	f.nChildren[p]++
}

// removeDupNodes is torch's _remove_dup_nodes: a child with its parent's
// name that is the parent's only child is merged into the parent, which
// takes over the child's children and kernels. Repeated until stable.
func (f *fevents) removeDupNodes() {
	for {
		removed := false
		for i := 0; i < f.n(); i++ {
			if f.deleted[i] {
				continue
			}
			p := f.parent[i]
			if p < 0 || f.key[p] != f.key[i] || f.nChildren[p] != 1 {
				continue
			}
			f.firstChild[p], f.lastChild[p], f.nChildren[p] = f.firstChild[i], f.lastChild[i], f.nChildren[i]
			f.firstKern[p], f.lastKern[p] = f.firstKern[i], f.lastKern[i]
			for c := f.firstChild[i]; c >= 0; c = f.nextSib[c] {
				f.parent[c] = p
			}
			f.deleted[i] = true
			removed = true
		}
		if !removed {
			return
		}
	}
}
