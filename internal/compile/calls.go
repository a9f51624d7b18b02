package compile

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// costAgg is one outermost call name's cost with its calls' durations.
type costAgg struct {
	c    Cost
	durs []int64
}

// compiledChildNs is, per event, the summed durations of its children that
// lie inside a compiled call: what its self time leaves out.
func compiledChildNs(w *walk) []int64 {
	n := w.t.NumEvents()
	childNs := make([]int64, n)
	for i := 0; i < n; i++ {
		if p := w.l.Parent[i]; p >= 0 && w.root[i] >= 0 {
			childNs[p] += w.t.Ev(i).Dur
		}
	}
	return childNs
}

// addSelfTime gives the self time of an event inside a compiled call to the
// part of its outermost call's Split that the event's bucket names (the
// nearest enclosing part: launch call, graph, AOT wrapper, pregraph
// bytecode, Dynamo region).
func (m *summarizer) addSelfTime(i int32, e *trace.Event) {
	r := m.root[i]
	if r < 0 {
		return
	}
	sp := m.splits[r]
	if sp == nil {
		sp = &Split{}
		m.splits[r] = sp
	}
	self := e.Dur - m.childNs[i]
	switch m.bucket[i] {
	case bDynamo:
		sp.DynamoNs += self
	case bPregraph:
		sp.PregraphNs += self
	case bAOT:
		sp.AOTNs += self
	case bGraph:
		sp.GraphNs += self
	case bLaunch:
		sp.LaunchNs += self
	}
}

// attributeCacheLookups gives each TorchDynamo Cache Lookup outside
// compiled code to the next outermost compiled call on its thread with the
// same parent that starts after the lookup ends. A lookup followed by
// another lookup, or by no such call, is unattributed.
func (m *summarizer) attributeCacheLookups() {
	t, l := m.t, m.l
	for k := range t.Tracks {
		if t.Tracks[k].Kind == trace.TrackDevice {
			continue
		}
		var pending int32 = -1
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if !e.Kind.IsCPU() {
				continue
			}
			if t.Str(e.Name) == cacheLookup && m.root[i] < 0 {
				if pending >= 0 {
					m.s.UnattributedLookups++
				}
				pending = i
				continue
			}
			if pending >= 0 && m.root[i] == i {
				pe := t.Ev(int(pending))
				if l.Parent[i] == l.Parent[pending] && e.Start >= pe.End() {
					m.lookupOf[i] += pe.Dur
					pending = -1
				}
			}
		}
		if pending >= 0 {
			m.s.UnattributedLookups++
		}
	}
}

// addCosts sums the outermost compiled calls per name, in the order of
// their first call, and counts them (cache lookup included) in their step.
func (m *summarizer) addCosts() {
	t := m.t
	roots := make([]int32, 0, len(m.splits))
	for r := range m.splits {
		roots = append(roots, r)
	}
	slices.SortFunc(roots, func(a, b int32) int { return cmp.Compare(t.Ev(int(a)).Start, t.Ev(int(b)).Start) })
	for _, r := range roots {
		name := t.NameOf(int(r))
		c := m.costs[name]
		if c == nil {
			c = &costAgg{c: Cost{Name: name}}
			m.costs[name] = c
			m.costOrder = append(m.costOrder, name)
		}
		sp := *m.splits[r]
		sp.CacheLookupNs = m.lookupOf[r]
		c.c.Calls++
		c.c.Sum.add(sp)
		e := t.Ev(int(r))
		c.durs = append(c.durs, e.Dur)
		if sr := m.stepRow(e.Start); sr != nil {
			sr.CompiledCalls++
			sr.CompiledCPUNs += e.Dur + m.lookupOf[r]
		}
	}
}

// costList is the costs in first-call order, with the mean split per call
// and the median call duration.
func (m *summarizer) costList() []Cost {
	var out []Cost
	for _, name := range m.costOrder {
		c := m.costs[name]
		c.c.PerCall = c.c.Sum.div(c.c.Calls)
		c.c.MedianNs = median(c.durs)
		out = append(out, c.c)
	}
	return out
}
