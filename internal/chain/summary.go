package chain

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// Summary is what every instance of the matched ops launched, per device op
// name (compare HTA's aten-op kernels and delay table).
type Summary struct {
	Ops       []string // the distinct names that matched
	Instances int
	Kernels   []KernelSummary
}

// KernelSummary aggregates one device op name over all instances.
type KernelSummary struct {
	Name       string
	Kind       trace.Kind
	Count      int
	PerCall    float64
	MedQueueNs int64 // launch-to-start delay
	MedDurNs   int64
	MinDurNs   int64
	MaxDurNs   int64
}

func median(d []int64) int64 {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// Summarize follows every instance of the ops matching o.Pattern (down
// direction only) and aggregates the device work they launched.
func Summarize(t *trace.Trace, o Options) *Summary {
	w := newWalker(t, 0)
	s := &Summary{}
	type agg struct {
		kind  trace.Kind
		queue []int64
		dur   []int64
	}
	by := map[string]*agg{}
	names := map[string]bool{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsCPU() || o.Pattern == nil || !o.Pattern.MatchString(t.NameOf(i)) {
			continue
		}
		if o.HasStep {
			if k := trace.StepAt(w.steps, e.Start); k < 0 || w.steps[k].N != o.Step {
				continue
			}
		}
		s.Instances++
		if !names[t.NameOf(i)] {
			names[t.NameOf(i)] = true
			s.Ops = append(s.Ops, t.NameOf(i))
		}
		var visit func(n *Node)
		visit = func(n *Node) {
			for _, d := range n.Launched {
				a := by[d.Name]
				if a == nil {
					a = &agg{kind: d.Kind}
					by[d.Name] = a
				}
				a.queue = append(a.queue, d.QueueNs)
				a.dur = append(a.dur, d.DurNs)
			}
			for _, c := range n.Children {
				visit(c)
			}
		}
		visit(w.down(int32(i)))
	}
	for name, a := range by {
		k := KernelSummary{Name: name, Kind: a.kind, Count: len(a.dur), PerCall: float64(len(a.dur)) / float64(s.Instances),
			MedQueueNs: median(a.queue), MedDurNs: median(a.dur)}
		k.MinDurNs, k.MaxDurNs = a.dur[0], a.dur[len(a.dur)-1] // median sorted them
		s.Kernels = append(s.Kernels, k)
	}
	slices.SortFunc(s.Kernels, func(a, b KernelSummary) int {
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return s
}
