package compile

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// finish reads the graph replays: per launch (by start), its device ops in
// start order; replays with the same kernel names in the same order are one
// sequence.
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
