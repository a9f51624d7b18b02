package compile

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// kernAgg is one kernel name's instances as they come.
type kernAgg struct {
	k    Kernel
	durs []int64
	via  map[string]int
	op   map[string]int
}

// readLaunchesAndDeviceOps is the pass over the events that counts the
// launch calls of compiled code, the graph replays and the kernels.
func (m *summarizer) readLaunchesAndDeviceOps() {
	t := m.t
	for i := range t.NumEvents() {
		e := t.Ev(i)
		switch {
		case e.Kind.IsLaunch():
			m.addLaunchCall(int32(i), e)
		case e.Kind.IsDeviceWork():
			m.addDeviceOp(int32(i), e)
		}
	}
}

// addLaunchCall counts a launch call inside a compiled call (and whether it
// launched device work) and a graph launch (a replay, even with no device
// op in the trace).
func (m *summarizer) addLaunchCall(i int32, e *trace.Event) {
	t, l := m.t, m.l
	if r := m.root[i]; r >= 0 {
		c := m.costs[t.NameOf(int(r))]
		c.c.LaunchCalls++
		if l.Launched[i] > 0 {
			c.c.Launches++
			c.c.DeviceOps += int(l.Launched[i])
		}
		if sr := m.stepRow(e.Start); sr != nil {
			sr.LaunchCalls++
		}
	}
	if trace.IsGraphLaunch(t.Str(e.Name)) {
		m.s.Graphs.Replays++
		if _, ok := m.graphOps[i]; !ok {
			m.graphOps[i] = nil
		}
		if sr := m.stepRow(e.Start); sr != nil {
			sr.GraphReplays++
		}
	}
}

// addDeviceOp counts a device op replayed by a graph launch, and a kernel
// by where it was launched (graph replay, compiled call, elsewhere) and by
// its class.
func (m *summarizer) addDeviceOp(i int32, e *trace.Event) {
	t, l := m.t, m.l
	r := l.Launch[i]
	inGraph := r >= 0 && trace.IsGraphLaunch(t.NameOf(int(r)))
	if inGraph {
		m.graphOps[r] = append(m.graphOps[r], i)
		m.s.Graphs.DeviceOps++
	}
	if e.Kind != trace.KindKernel {
		return
	}
	name := t.Str(e.Name)
	var root int32 = -1
	op := ""
	if r >= 0 {
		root = m.root[r]
		if o := l.Launch[r]; o >= 0 {
			op = t.NameOf(int(o))
		}
	}
	inCompiled := root >= 0 && !inGraph
	class := kernelClass(name, op, inGraph, inCompiled, m.family)
	m.s.Scope.add(class, inGraph, inCompiled, e.Dur)
	if inGraph {
		m.s.Graphs.Kernels++
	}
	if class == ClassInductor && inCompiled {
		m.costs[t.NameOf(int(root))].c.TritonLaunch++
	}
	if sr := m.stepRow(t.LaunchTime(int(i))); sr != nil {
		sr.countKernel(class)
	}
	if class == "" {
		return
	}
	a := m.kerns[name]
	if a == nil {
		a = &kernAgg{k: Kernel{Name: name, Class: class}, via: map[string]int{}, op: map[string]int{}}
		if class == ClassInductor {
			a.k.Decoded = Decode(name)
			a.k.Family = a.k.Decoded.Category
		}
		m.kerns[name] = a
		m.kernOrder = append(m.kernOrder, name)
	}
	a.add(class, e.Dur, inGraph, r, op, t)
}

// add counts one instance; a kernel name seen as library and other is a
// library kernel.
func (a *kernAgg) add(class string, dur int64, inGraph bool, launch int32, op string, t *trace.Trace) {
	if class == ClassLibrary && a.k.Class != ClassInductor {
		a.k.Class = ClassLibrary
	}
	a.k.Count++
	a.k.TotalNs += dur
	a.durs = append(a.durs, dur)
	if inGraph {
		a.k.InGraph++
	}
	if launch < 0 {
		a.k.Unlinked++
	} else {
		a.via[t.NameOf(int(launch))]++
	}
	if op != "" {
		a.op[op]++
	}
}

// kernelClass is a kernel's class: Inductor's Triton kernels wherever they
// ran; in a graph replay or a compiled call, a library kernel when its op or
// name says so (Family), else other; "" for a kernel of eager code.
// family is Family (or a memo of it).
func kernelClass(name, op string, inGraph, inCompiled bool, family func(kernel, op string) string) string {
	switch {
	case IsInductorKernel(name):
		return ClassInductor
	case inGraph || inCompiled:
		if family(name, op) != "" {
			return ClassLibrary
		}
		return ClassOther
	}
	return ""
}

// add counts a kernel in its scope (graph replay first, then compiled call,
// else outside) and, if Inductor's or a library's, in its class.
func (sc *Scope) add(class string, inGraph, inCompiled bool, dur int64) {
	switch {
	case inGraph:
		sc.GraphKernels++
		sc.GraphNs += dur
	case inCompiled:
		sc.CompiledKernels++
		sc.CompiledNs += dur
	default:
		sc.OutsideKernels++
		sc.OutsideNs += dur
	}
	switch class {
	case ClassInductor:
		sc.InductorKernels++
		sc.InductorNs += dur
	case ClassLibrary:
		sc.LibraryKernels++
		sc.LibraryNs += dur
	}
}

// countKernel counts a kernel launched in the step by its class; a kernel
// of eager code is Outside.
func (sr *StepRow) countKernel(class string) {
	switch class {
	case ClassInductor:
		sr.Inductor++
	case ClassLibrary:
		sr.Library++
	case ClassOther:
		sr.Other++
	default:
		sr.Outside++
	}
}

// kernelList is the kernels, Inductor's first, then library, then other,
// each by total time (longest first; ties in first-seen order), with the
// Inductor kernels whose names did not decode, sorted.
func (m *summarizer) kernelList() ([]Kernel, []string) {
	var ks []Kernel
	var undecoded []string
	for _, name := range m.kernOrder {
		a := m.kerns[name]
		a.k.MedianNs = median(a.durs)
		a.k.Via, a.k.Op = top(a.via), top(a.op)
		if a.k.Class == ClassLibrary {
			a.k.Family = Family(name, a.k.Op)
		}
		ks = append(ks, a.k)
		if a.k.Class == ClassInductor && !a.k.Decoded.OK {
			undecoded = append(undecoded, name)
		}
	}
	sortKernels(ks)
	slices.Sort(undecoded)
	return ks, undecoded
}

// sortKernels orders kernels by class rank, then by total time, longest
// first; ties keep their order.
func sortKernels(ks []Kernel) {
	slices.SortStableFunc(ks, func(a, b Kernel) int {
		if c := cmp.Compare(classRank(a.Class), classRank(b.Class)); c != 0 {
			return c
		}
		return cmp.Compare(b.TotalNs, a.TotalNs)
	})
}

func classRank(c string) int {
	switch c {
	case ClassInductor:
		return 0
	case ClassLibrary:
		return 1
	}
	return 2
}

// top is the most frequent key (ties: the smallest).
func top(m map[string]int) string {
	best, bn := "", 0
	for k, v := range m {
		if v > bn || (v == bn && k < best) {
			best, bn = k, v
		}
	}
	return best
}
