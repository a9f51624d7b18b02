package chain

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

type walker struct {
	t        *trace.Trace
	l        *trace.Links
	launched map[int32][]int32 // launch call -> device ops, file order
	fwdLand  map[[2]int64]int64
	fwdFrom  map[int64][2]int64
	steps    []trace.Step
	maxDepth int
}

func newWalker(t *trace.Trace, maxDepth int) *walker {
	w := &walker{t: t, l: t.Links(), launched: map[int32][]int32{}, steps: t.StepWindows(), maxDepth: maxDepth,
		fwdLand: map[[2]int64]int64{}, fwdFrom: map[int64][2]int64{}}
	for i := 0; i < t.NumEvents(); i++ {
		if r := w.l.Launch[i]; r >= 0 && t.Ev(i).Kind.IsDevice() {
			w.launched[r] = append(w.launched[r], int32(i))
		}
	}
	for _, f := range t.Flows {
		if f.Kind != trace.FlowFwdBwd {
			continue
		}
		if f.Phase == 'f' {
			w.fwdLand[[2]int64{int64(f.Track), f.Ts}] = f.ID
		} else if f.Phase == 's' {
			w.fwdFrom[f.ID] = [2]int64{int64(f.Track), f.Ts}
		}
	}
	return w
}

// eventAt finds a CPU op on track tr starting at ts.
func (w *walker) eventAt(tr int32, ts int64) int32 {
	ord := w.l.Order[w.l.TrackStart[tr]:w.l.TrackStart[tr+1]]
	k, _ := slices.BinarySearchFunc(ord, ts, func(i int32, v int64) int { return cmp.Compare(w.t.Ev(int(i)).Start, v) })
	for ; k < len(ord) && w.t.Ev(int(ord[k])).Start == ts; k++ {
		if e := w.t.Ev(int(ord[k])); e.Kind == trace.KindCPUOp {
			return ord[k]
		}
	}
	return -1
}

func (w *walker) backwardOf(i int32) string {
	e := w.t.Ev(int(i))
	id, ok := w.fwdLand[[2]int64{int64(e.Track), e.Start}]
	if !ok {
		return ""
	}
	from, ok := w.fwdFrom[id]
	if !ok {
		return ""
	}
	if f := w.eventAt(int32(from[0]), from[1]); f >= 0 {
		return w.t.NameOf(int(f))
	}
	return ""
}

func (w *walker) deviceOp(d int32, launchStart int64) *DeviceOp {
	t := w.t
	e := t.Ev(int(d))
	tr := &t.Tracks[e.Track]
	op := &DeviceOp{Event: d, Name: t.NameOf(int(d)), Kind: e.Kind, Device: tr.Device, Stream: tr.Stream,
		DurNs: e.Dur, StartNs: e.Start - t.TraceStart, Regs: -1, SharedMem: -1, Bytes: -1}
	if launchStart != 0 {
		op.QueueNs = e.Start - launchStart
	}
	if a := t.AuxOf(int(d)); a != nil {
		if a.HasLaunch {
			g, b := a.Grid, a.Block
			op.Grid, op.Block = &g, &b
		}
		op.Regs, op.SharedMem, op.Bytes = a.Regs, a.SharedMem, a.Bytes
	}
	return op
}

// children lists the direct children of every event inside root.
func (w *walker) subtree(root int32) map[int32][]int32 {
	t, l := w.t, w.l
	re := t.Ev(int(root))
	tr := re.Track
	ord := l.Order[l.TrackStart[tr]:l.TrackStart[tr+1]]
	k, _ := slices.BinarySearchFunc(ord, re.Start, func(i int32, v int64) int { return cmp.Compare(t.Ev(int(i)).Start, v) })
	kids := map[int32][]int32{}
	inside := map[int32]bool{root: true}
	for ; k < len(ord); k++ {
		i := ord[k]
		e := t.Ev(int(i))
		if e.Start >= re.End() && i != root {
			break
		}
		if p := l.Parent[i]; p >= 0 && inside[p] {
			kids[p] = append(kids[p], i)
			inside[i] = true
		}
	}
	return kids
}

// down builds the tree under root.
func (w *walker) down(root int32) *Node {
	kids := w.subtree(root)
	var build func(i, parent int32, prev string, depth int) *Node
	build = func(i, parent int32, prev string, depth int) *Node {
		t := w.t
		e := t.Ev(int(i))
		n := &Node{Event: i, Name: t.NameOf(int(i)), Kind: e.Kind, StartNs: e.Start - t.TraceStart, DurNs: e.Dur, SelfNs: e.Dur}
		if parent >= 0 {
			n.OffsetNs = e.Start - t.Ev(int(parent)).Start
		}
		for _, d := range w.launched[i] {
			n.Launched = append(n.Launched, w.deviceOp(d, e.Start))
		}
		n.Marks = marks(t, n.Name, e.Kind, prev, n.Launched)
		n.BackwardOf = w.backwardOf(i)
		if w.maxDepth > 0 && depth >= w.maxDepth {
			return n
		}
		prevName := ""
		for _, c := range kids[i] {
			ce := t.Ev(int(c))
			n.SelfNs -= ce.Dur
			n.Children = append(n.Children, build(c, i, prevName, depth+1))
			prevName = t.NameOf(int(c))
		}
		markHiddenCopies(n)
		return n
	}
	return build(root, -1, "", 0)
}

// markHiddenCopies flags memcpys under ops the user did not write as copies.
func markHiddenCopies(n *Node) {
	if n.Kind != trace.KindCPUOp {
		return
	}
	switch n.Name {
	case "aten::copy_", "aten::to", "aten::_to_copy", "aten::clone", "aten::contiguous":
		return
	}
	for _, c := range n.Children {
		if !c.Kind.IsLaunch() {
			continue
		}
		for _, d := range c.Launched {
			if d.Kind == trace.KindMemcpy {
				c.Marks = append(c.Marks, "memcpy inside "+n.Name+": a copy the user did not write")
				break
			}
		}
	}
}

// up builds the chain from device op d outward.
func (w *walker) up(d int32) *Chain {
	t, l := w.t, w.l
	c := &Chain{Direction: "up", Step: -1}
	r := l.Launch[d]
	var ls int64
	if r >= 0 {
		ls = t.Ev(int(r)).Start
	}
	c.Kernel = w.deviceOp(d, ls)
	if r < 0 {
		c.Unlinked = true
		return c
	}
	child := t.Ev(int(d)).Start
	for p := r; p >= 0; p = l.Parent[p] {
		e := t.Ev(int(p))
		n := &Node{Event: p, Name: t.NameOf(int(p)), Kind: e.Kind, OffsetNs: child - e.Start, StartNs: e.Start - t.TraceStart, DurNs: e.Dur}
		if p == r {
			for _, x := range w.launched[r] {
				n.Launched = append(n.Launched, w.deviceOp(x, e.Start))
			}
			n.Marks = marks(t, n.Name, e.Kind, "", n.Launched)
		}
		n.BackwardOf = w.backwardOf(p)
		if s, ok := trace.StepNumber(n.Name); ok {
			c.Step = s
		}
		c.Up = append(c.Up, n)
		child = e.Start
	}
	if c.Step < 0 {
		if k := trace.StepAt(w.steps, ls); k >= 0 {
			c.Step = w.steps[k].N
		}
	}
	return c
}

// Follow finds the instances and follows each.
func Follow(t *trace.Trace, o Options) *Result {
	w := newWalker(t, o.MaxDepth)
	res := &Result{}
	type cand struct {
		i    int32
		at   int64
		step int
	}
	var cands []cand
	at := func(i int) int64 {
		if t.Ev(i).Kind.IsDevice() {
			return t.LaunchTime(i)
		}
		return t.Ev(i).Start
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		ok := false
		switch {
		case o.Pattern == nil:
			_, isStep := trace.StepNumber(t.NameOf(i))
			ok = isStep && (e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp)
		case e.Kind.IsCPU() || e.Kind.IsDeviceWork():
			ok = o.Pattern.MatchString(t.NameOf(i))
		}
		if ok {
			a := at(i)
			cands = append(cands, cand{int32(i), a, trace.StepAt(w.steps, a)})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.at, b.at) })
	res.Matches = len(cands)
	if o.Pattern != nil {
		res.Pattern = o.Pattern.String()
	}
	// Which instances: --step N; else the first step holding a match;
	// --all takes every instance (of the step when --step is given).
	switch {
	case o.HasStep:
		cands = slices.DeleteFunc(cands, func(c cand) bool { return c.step < 0 || w.steps[c.step].N != o.Step })
	case !o.All && len(w.steps) > 0:
		first := -1
		for _, c := range cands {
			if c.step >= 0 && (first < 0 || c.step < first) {
				first = c.step
			}
		}
		if first >= 0 {
			cands = slices.DeleteFunc(cands, func(c cand) bool { return c.step != first })
		}
	}
	if !o.All {
		k := max(o.Instance, 1) - 1
		if k >= len(cands) {
			cands = nil
		} else {
			cands = cands[k : k+1]
		}
	}
	for _, c := range cands {
		if t.Ev(int(c.i)).Kind.IsDevice() {
			res.Chains = append(res.Chains, w.up(c.i))
			continue
		}
		ch := &Chain{Direction: "down", Root: w.down(c.i), Step: -1}
		if c.step >= 0 {
			ch.Step = w.steps[c.step].N
		}
		res.Chains = append(res.Chains, ch)
	}
	return res
}
