package compile

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// summarizer holds what Summarize aggregates, phase by phase: the CPU
// events (splits, parts, compile work, regions), the cache lookups, the
// costs of the outermost calls, then the launch calls and device ops.
type summarizer struct {
	*walk
	s *Summary

	childNs []int64 // per event: the summed durations of its compiled children

	splits   map[int32]*Split // per outermost compiled call
	lookupOf map[int32]int64  // per outermost compiled call: its cache lookup

	regs     map[string]*regAgg
	regOrder []string

	parts     map[string]*Part
	partOrder []string

	costs     map[string]*costAgg
	costOrder []string

	kerns     map[string]*kernAgg
	kernOrder []string

	graphOps map[int32][]int32 // per graph launch: the device ops it replayed

	stepRows map[int64]*StepRow
	taxIvs   [][2]int64
	taxSteps map[int64]bool

	families map[[2]string]string // Family by kernel and op name (memo.go)
	taxNames map[string]bool      // isTax by name (memo.go)
}

// Summarize reads the compile view of a trace.
func Summarize(t *trace.Trace) *Summary {
	m := &summarizer{
		walk: newWalk(t), s: &Summary{},
		splits: map[int32]*Split{}, lookupOf: map[int32]int64{},
		regs: map[string]*regAgg{}, parts: map[string]*Part{}, costs: map[string]*costAgg{},
		kerns: map[string]*kernAgg{}, graphOps: map[int32][]int32{},
		stepRows: map[int64]*StepRow{}, taxSteps: map[int64]bool{},
		families: map[[2]string]string{}, taxNames: map[string]bool{},
	}
	m.childNs = compiledChildNs(m.walk)
	m.readCPUEvents()
	m.attributeCacheLookups()
	m.addCosts()
	m.readLaunchesAndDeviceOps()
	m.finish()
	return m.s
}

// readCPUEvents is the pass over the events that splits each compiled
// call's CPU time and counts the parts, the compile work and the regions.
func (m *summarizer) readCPUEvents() {
	t := m.t
	for i := range t.NumEvents() {
		e := t.Ev(i)
		m.addSelfTime(int32(i), e)
		if !e.Kind.IsCPU() {
			continue
		}
		name := t.Str(e.Name)
		m.addPart(name, e)
		m.addCompileWork(int32(i), name, e)
		m.addRegion(int32(i), name, e)
	}
}

// addPart counts an event torch.compile records in and around a compiled
// call, as torch's table does: every call, nested or not.
func (m *summarizer) addPart(name string, e *trace.Event) {
	if !isPart(name) {
		return
	}
	p := m.parts[name]
	if p == nil {
		p = &Part{Name: name}
		m.parts[name] = p
		m.partOrder = append(m.partOrder, name)
	}
	p.Calls++
	p.TotalNs += e.Dur
}

// stepRow is the row of the profiler step holding ts, made on first use;
// nil outside the steps.
func (m *summarizer) stepRow(ts int64) *StepRow {
	st, ok := m.stepOf(ts)
	if !ok {
		return nil
	}
	r := m.stepRows[st]
	if r == nil {
		r = &StepRow{Step: st}
		m.stepRows[st] = r
	}
	return r
}

// finish turns the aggregates into the summary's lists.
func (m *summarizer) finish() {
	s := m.s
	s.Regions = m.regionList()
	s.Frames = frames(s.Regions)
	s.Costs = m.costList()
	for _, name := range m.partOrder {
		s.Parts = append(s.Parts, *m.parts[name])
	}
	s.Kernels, s.Undecoded = m.kernelList()
	s.Graphs.finish(m.t, m.graphOps, m.walk)
	s.Tax.Steps, s.Tax.TotalNs = m.compileWorkSteps()
	for _, r := range m.stepRows {
		s.Steps = append(s.Steps, *r)
	}
	slices.SortFunc(s.Steps, func(a, b StepRow) int { return cmp.Compare(a.Step, b.Step) })
	s.HasCompile = len(s.Regions) > 0 || s.Scope.InductorKernels > 0 || s.Graphs.Replays > 0
	if !s.HasCompile {
		s.Steps = nil
	}
	s.Capture = captures(m.walk)
	s.Recompiles = recompiles(s, m.walk, m.taxIvs)
}
