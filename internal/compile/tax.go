package compile

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// addCompileWork counts an outermost compile event (one no other compile
// event holds): its interval, for the union, and the step it starts in.
// Nested compile events are inside that interval already.
func (m *summarizer) addCompileWork(i int32, name string, e *trace.Event) {
	if !m.isTax(name) {
		return
	}
	for p := m.l.Parent[i]; p >= 0; p = m.l.Parent[p] {
		if m.isTax(m.t.NameOf(int(p))) {
			return
		}
	}
	tax := &m.s.Tax
	tax.Events++
	if tax.First == "" {
		tax.First = name
	}
	m.taxIvs = append(m.taxIvs, [2]int64{e.Start, e.End()})
	if st, ok := m.stepOf(e.Start); ok {
		m.taxSteps[st] = true
	}
}

// compileWorkSteps is the steps holding compile work, sorted, and the
// compile work's wall time: the union of the outermost events' intervals
// (compile work on two threads at once counts once).
func (m *summarizer) compileWorkSteps() ([]int64, int64) {
	var steps []int64
	for st := range m.taxSteps {
		steps = append(steps, st)
	}
	slices.Sort(steps)
	total, _, _ := trace.Union(m.taxIvs)
	return steps, total
}
