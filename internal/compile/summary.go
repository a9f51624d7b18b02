package compile

import (
	"cmp"
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// buckets of Split
const (
	bNone = iota
	bDynamo
	bPregraph
	bAOT
	bGraph
	bLaunch
)

// walk holds what Summarize derives per event.
type walk struct {
	t     *trace.Trace
	l     *trace.Links
	steps []trace.Step
	// root is, for CPU events, the outermost compiled call holding the
	// event (itself when it is one), or -1.
	root   []int32
	bucket []uint8
	kind   []string // marker kind per interned name
}

func newWalk(t *trace.Trace) *walk {
	w := &walk{t: t, l: t.Links(), steps: t.StepWindows(), kind: make([]string, len(t.Strings))}
	for id, s := range t.Strings {
		w.kind[id] = markerKind(s)
	}
	n := t.NumEvents()
	w.root = make([]int32, n)
	w.bucket = make([]uint8, n)
	for i := range w.root {
		w.root[i] = -1
	}
	l := w.l
	for k := range t.Tracks {
		if t.Tracks[k].Kind == trace.TrackDevice {
			continue
		}
		// parents come before their children in track order
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if !e.Kind.IsCPU() && e.Kind != trace.KindOther {
				continue
			}
			p := l.Parent[i]
			var pr int32 = -1
			var pb uint8
			if p >= 0 {
				pr, pb = w.root[p], w.bucket[p]
			}
			mk := ""
			if e.Kind.IsCPU() {
				mk = w.kind[e.Name]
			}
			switch {
			case pr >= 0:
				w.root[i] = pr
			case mk != "":
				w.root[i] = i
			}
			b := pb
			name := t.Str(e.Name)
			switch {
			case pb == bLaunch:
			case e.Kind.IsLaunch():
				b = bLaunch
			case mk == KindGraph || (e.Kind == trace.KindCPUOp && IsInductorKernel(name)):
				// the graph, and the launcher op Inductor's code records per Triton kernel
				b = bGraph
			case mk == KindAOTForward || mk == KindAOTBackward || isAOTWrapper(name):
				if pb != bGraph {
					b = bAOT
				}
			case name == "Pregraph bytecode":
				b = bPregraph
			case mk == KindDynamo:
				b = bDynamo
			}
			if w.root[i] < 0 {
				b = bNone
			}
			w.bucket[i] = b
		}
	}
	return w
}

func (w *walk) stepOf(ts int64) (int64, bool) {
	k := trace.StepAt(w.steps, ts)
	if k < 0 {
		return 0, false
	}
	return w.steps[k].N, true
}

// median is stats.MedianNs, the one median of every view.
func median(d []int64) int64 { return stats.MedianNs(d) }

func stepCounts(m map[int64]int) []StepCount {
	out := make([]StepCount, 0, len(m))
	for s, c := range m {
		out = append(out, StepCount{s, c})
	}
	slices.SortFunc(out, func(a, b StepCount) int { return cmp.Compare(a.Step, b.Step) })
	return out
}

// Summarize reads the compile view of a trace.
func Summarize(t *trace.Trace) *Summary {
	w := newWalk(t)
	l := w.l
	s := &Summary{}
	n := t.NumEvents()

	// self time of CPU events
	childSum := make([]int64, n)
	for i := 0; i < n; i++ {
		if p := l.Parent[i]; p >= 0 && w.root[i] >= 0 {
			childSum[p] += t.Ev(i).Dur
		}
	}

	type regAgg struct {
		r     Region
		durs  []int64
		steps map[int64]int
	}
	regs := map[string]*regAgg{}
	var regOrder []string
	parts := map[string]*Part{}
	var partOrder []string
	splits := map[int32]*Split{}
	stepRows := map[int64]*StepRow{}
	row := func(ts int64) *StepRow {
		st, ok := w.stepOf(ts)
		if !ok {
			return nil
		}
		r := stepRows[st]
		if r == nil {
			r = &StepRow{Step: st}
			stepRows[st] = r
		}
		return r
	}
	var taxIvs [][2]int64
	taxSteps := map[int64]bool{}

	for i := 0; i < n; i++ {
		e := t.Ev(i)
		if r := w.root[i]; r >= 0 {
			if splits[r] == nil {
				splits[r] = &Split{}
			}
			self := e.Dur - childSum[i]
			sp := splits[r]
			switch w.bucket[i] {
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
		if !e.Kind.IsCPU() {
			continue
		}
		name := t.Str(e.Name)
		if isPart(name) {
			p := parts[name]
			if p == nil {
				p = &Part{Name: name}
				parts[name] = p
				partOrder = append(partOrder, name)
			}
			p.Calls++
			p.TotalNs += e.Dur
		}
		if isTax(name) {
			outer := true
			for p := l.Parent[i]; p >= 0; p = l.Parent[p] {
				if isTax(t.NameOf(int(p))) {
					outer = false
					break
				}
			}
			if outer {
				s.Tax.Events++
				if s.Tax.First == "" {
					s.Tax.First = name
				}
				taxIvs = append(taxIvs, [2]int64{e.Start, e.End()})
				if st, ok := w.stepOf(e.Start); ok {
					taxSteps[st] = true
				}
			}
		}
		mk := w.kind[e.Name]
		if mk == "" {
			continue
		}
		a := regs[name]
		if a == nil {
			a = &regAgg{r: Region{Name: name, Kind: mk, Frame: -1, Compile: -1}, steps: map[int64]int{}}
			if f, c, ok := ParseRegion(name); ok {
				a.r.Frame, a.r.Compile = f, c
			}
			regs[name] = a
			regOrder = append(regOrder, name)
		}
		if a.r.Calls == 0 || e.Start < a.r.FirstNs {
			a.r.FirstNs = e.Start
		}
		a.r.Calls++
		a.r.TotalNs += e.Dur
		a.durs = append(a.durs, e.Dur)
		if st, ok := w.stepOf(e.Start); ok {
			a.steps[st]++
		}
		if w.root[i] == int32(i) {
			a.r.Outermost++
		}
	}

	// cache lookups: each goes to the next outermost compiled call on its
	// thread with the same parent
	lookupOf := map[int32]int64{}
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
			if t.Str(e.Name) == cacheLookup && w.root[i] < 0 {
				if pending >= 0 {
					s.UnattributedLookups++
				}
				pending = i
				continue
			}
			if pending >= 0 && w.root[i] == i {
				pe := t.Ev(int(pending))
				if l.Parent[i] == l.Parent[pending] && e.Start >= pe.End() {
					lookupOf[i] += pe.Dur
					pending = -1
				}
			}
		}
		if pending >= 0 {
			s.UnattributedLookups++
		}
	}

	// costs per outermost call name
	type costAgg struct {
		c    Cost
		durs []int64
	}
	costs := map[string]*costAgg{}
	var costOrder []string
	roots := make([]int32, 0, len(splits))
	for r := range splits {
		roots = append(roots, r)
	}
	slices.SortFunc(roots, func(a, b int32) int { return cmp.Compare(t.Ev(int(a)).Start, t.Ev(int(b)).Start) })
	for _, r := range roots {
		name := t.NameOf(int(r))
		c := costs[name]
		if c == nil {
			c = &costAgg{c: Cost{Name: name}}
			costs[name] = c
			costOrder = append(costOrder, name)
		}
		sp := *splits[r]
		sp.CacheLookupNs = lookupOf[r]
		c.c.Calls++
		c.c.Sum.add(sp)
		e := t.Ev(int(r))
		c.durs = append(c.durs, e.Dur)
		if sr := row(e.Start); sr != nil {
			sr.CompiledCalls++
			sr.CompiledCPUNs += e.Dur + lookupOf[r]
		}
	}

	// launch calls and device work
	graphOps := map[int32][]int32{}
	type kernAgg struct {
		k    Kernel
		durs []int64
		via  map[string]int
		op   map[string]int
	}
	kerns := map[string]*kernAgg{}
	var kernOrder []string
	for i := 0; i < n; i++ {
		e := t.Ev(i)
		if e.Kind.IsLaunch() {
			if r := w.root[i]; r >= 0 {
				c := costs[t.NameOf(int(r))]
				c.c.LaunchCalls++
				if l.Launched[i] > 0 {
					c.c.Launches++
					c.c.DeviceOps += int(l.Launched[i])
				}
				if sr := row(e.Start); sr != nil {
					sr.LaunchCalls++
				}
			}
			if trace.IsGraphLaunch(t.Str(e.Name)) {
				s.Graphs.Replays++
				if _, ok := graphOps[int32(i)]; !ok {
					graphOps[int32(i)] = nil
				}
				if sr := row(e.Start); sr != nil {
					sr.GraphReplays++
				}
			}
			continue
		}
		if !e.Kind.IsDeviceWork() {
			continue
		}
		r := l.Launch[i]
		inGraph := r >= 0 && trace.IsGraphLaunch(t.NameOf(int(r)))
		if inGraph {
			graphOps[r] = append(graphOps[r], int32(i))
			s.Graphs.DeviceOps++
		}
		if e.Kind != trace.KindKernel {
			continue
		}
		name := t.Str(e.Name)
		var root int32 = -1
		op := ""
		if r >= 0 {
			root = w.root[r]
			if o := l.Launch[r]; o >= 0 {
				op = t.NameOf(int(o))
			}
		}
		inCompiled := root >= 0 && !inGraph
		class := ""
		switch {
		case IsInductorKernel(name):
			class = ClassInductor
		case inGraph || inCompiled:
			class = ClassOther
			if Family(name, op) != "" {
				class = ClassLibrary
			}
		}
		sc := &s.Scope
		switch {
		case inGraph:
			sc.GraphKernels++
			sc.GraphNs += e.Dur
			s.Graphs.Kernels++
		case inCompiled:
			sc.CompiledKernels++
			sc.CompiledNs += e.Dur
		default:
			sc.OutsideKernels++
			sc.OutsideNs += e.Dur
		}
		sr := row(t.LaunchTime(i))
		switch class {
		case ClassInductor:
			sc.InductorKernels++
			sc.InductorNs += e.Dur
			if inCompiled {
				costs[t.NameOf(int(root))].c.TritonLaunch++
			}
		case ClassLibrary:
			sc.LibraryKernels++
			sc.LibraryNs += e.Dur
		}
		if sr != nil {
			switch {
			case class == ClassInductor:
				sr.Inductor++
			case class == ClassLibrary:
				sr.Library++
			case class == ClassOther:
				sr.Other++
			default:
				sr.Outside++
			}
		}
		if class == "" {
			continue
		}
		a := kerns[name]
		if a == nil {
			a = &kernAgg{k: Kernel{Name: name, Class: class}, via: map[string]int{}, op: map[string]int{}}
			if class == ClassInductor {
				a.k.Decoded = Decode(name)
				a.k.Family = a.k.Decoded.Category
			}
			kerns[name] = a
			kernOrder = append(kernOrder, name)
		}
		if class == ClassLibrary && a.k.Class != ClassInductor {
			a.k.Class = ClassLibrary
		}
		a.k.Count++
		a.k.TotalNs += e.Dur
		a.durs = append(a.durs, e.Dur)
		if inGraph {
			a.k.InGraph++
		}
		if r < 0 {
			a.k.Unlinked++
		} else {
			a.via[t.NameOf(int(r))]++
		}
		if op != "" {
			a.op[op]++
		}
	}

	for _, name := range regOrder {
		a := regs[name]
		a.r.MedianNs = median(a.durs)
		a.r.PerStep = stepCounts(a.steps)
		s.Regions = append(s.Regions, a.r)
	}
	frames := map[int]*Frame{}
	for _, r := range s.Regions {
		if r.Kind != KindDynamo {
			continue
		}
		f := frames[r.Frame]
		if f == nil {
			f = &Frame{ID: r.Frame}
			frames[r.Frame] = f
		}
		f.Calls += r.Calls
		if !slices.Contains(f.Compiles, r.Compile) {
			f.Compiles = append(f.Compiles, r.Compile)
		}
	}
	for _, f := range frames {
		slices.Sort(f.Compiles)
		for _, c := range f.Compiles {
			if c > 0 {
				f.Recompiles++
			}
		}
		s.Frames = append(s.Frames, *f)
	}
	slices.SortFunc(s.Frames, func(a, b Frame) int { return cmp.Compare(a.ID, b.ID) })
	for _, name := range costOrder {
		c := costs[name]
		c.c.PerCall = c.c.Sum.div(c.c.Calls)
		c.c.MedianNs = median(c.durs)
		s.Costs = append(s.Costs, c.c)
	}
	for _, name := range partOrder {
		s.Parts = append(s.Parts, *parts[name])
	}
	for _, name := range kernOrder {
		a := kerns[name]
		a.k.MedianNs = median(a.durs)
		a.k.Via, a.k.Op = top(a.via), top(a.op)
		if a.k.Class == ClassLibrary {
			a.k.Family = Family(name, a.k.Op)
		}
		s.Kernels = append(s.Kernels, a.k)
		if a.k.Class == ClassInductor && !a.k.Decoded.OK {
			s.Undecoded = append(s.Undecoded, name)
		}
	}
	slices.SortStableFunc(s.Kernels, func(a, b Kernel) int {
		if c := cmp.Compare(classRank(a.Class), classRank(b.Class)); c != 0 {
			return c
		}
		return cmp.Compare(b.TotalNs, a.TotalNs)
	})
	slices.Sort(s.Undecoded)
	s.Graphs.finish(t, graphOps, w)
	for st := range taxSteps {
		s.Tax.Steps = append(s.Tax.Steps, st)
	}
	slices.Sort(s.Tax.Steps)
	s.Tax.TotalNs, _, _ = trace.Union(taxIvs)
	for _, r := range stepRows {
		s.Steps = append(s.Steps, *r)
	}
	slices.SortFunc(s.Steps, func(a, b StepRow) int { return cmp.Compare(a.Step, b.Step) })
	s.HasCompile = len(s.Regions) > 0 || s.Scope.InductorKernels > 0 || s.Graphs.Replays > 0
	if !s.HasCompile {
		s.Steps = nil
	}
	s.Capture = captures(w)
	s.Recompiles = recompiles(s, w, taxIvs)
	return s
}

// recompiles lists the compiles of each Dynamo frame after its first, with
// the compile work the window shows before each.
func recompiles(s *Summary, w *walk, tax [][2]int64) []Recompile {
	byFrame := map[int][]Region{}
	for _, r := range s.Regions {
		if r.Kind == KindDynamo {
			byFrame[r.Frame] = append(byFrame[r.Frame], r)
		}
	}
	var out []Recompile
	for _, rs := range byFrame {
		slices.SortFunc(rs, func(a, b Region) int { return cmp.Compare(a.FirstNs, b.FirstNs) })
		for k, r := range rs {
			if r.Compile <= 0 {
				continue
			}
			x := Recompile{Name: r.Name, Frame: r.Frame, Compile: r.Compile, Calls: r.Calls, FirstNs: r.FirstNs - w.t.TraceStart, Step: -1}
			if st, ok := w.stepOf(r.FirstNs); ok {
				x.Step = st
			}
			lo := int64(math.MinInt64)
			if k > 0 {
				lo = rs[k-1].FirstNs
			}
			var in [][2]int64
			for _, iv := range tax {
				if iv[0] >= lo && iv[0] < r.FirstNs {
					in = append(in, iv)
				}
			}
			x.CompileNs, _, _ = trace.Union(in)
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b Recompile) int { return cmp.Compare(a.FirstNs, b.FirstNs) })
	return out
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

func (g *Graphs) finish(t *trace.Trace, ops map[int32][]int32, w *walk) {
	type seqAgg struct {
		s    GraphSeq
		busy []int64
	}
	seqs := map[string]*seqAgg{}
	var order []string
	var counts []int64
	steps := map[int64]int{}
	launches := make([]int32, 0, len(ops))
	for r := range ops {
		launches = append(launches, r)
	}
	slices.SortFunc(launches, func(a, b int32) int { return cmp.Compare(t.Ev(int(a)).Start, t.Ev(int(b)).Start) })
	for _, r := range launches {
		if st, ok := w.stepOf(t.Ev(int(r)).Start); ok {
			steps[st]++
		}
		d := ops[r]
		if len(d) == 0 {
			g.Empty++
			counts = append(counts, 0)
			continue
		}
		slices.SortFunc(d, func(a, b int32) int {
			if c := cmp.Compare(t.Ev(int(a)).Start, t.Ev(int(b)).Start); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		key := ""
		kernels := 0
		var ivs [][2]int64
		for _, i := range d {
			e := t.Ev(int(i))
			key += t.Str(e.Name) + "\x00"
			if e.Kind == trace.KindKernel {
				kernels++
			}
			ivs = append(ivs, [2]int64{e.Start, e.End()})
		}
		counts = append(counts, int64(kernels))
		busy, _, _ := trace.Union(ivs)
		a := seqs[key]
		if a == nil {
			a = &seqAgg{s: GraphSeq{Kernels: kernels, First: t.NameOf(int(d[0])), Last: t.NameOf(int(d[len(d)-1]))}}
			seqs[key] = a
			order = append(order, key)
		}
		a.s.Replays++
		a.busy = append(a.busy, busy)
	}
	if len(counts) > 0 {
		slices.Sort(counts)
		g.MinKernels, g.MedianKernels, g.MaxKernels = int(counts[0]), int(stats.MedianSortedNs(counts)), int(counts[len(counts)-1])
	}
	for _, k := range order {
		a := seqs[k]
		a.s.MedianGPUNs = median(a.busy)
		g.Sequences = append(g.Sequences, a.s)
	}
	slices.SortStableFunc(g.Sequences, func(a, b GraphSeq) int { return cmp.Compare(b.Replays, a.Replays) })
	g.PerStep = stepCounts(steps)
}
