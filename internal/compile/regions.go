package compile

import (
	"cmp"
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// regAgg is one compiled entry point's calls as they come.
type regAgg struct {
	r     Region
	durs  []int64
	steps map[int64]int
}

// addRegion counts a call of a compiled entry point (every call, nested or
// not; Outermost only those not inside another compiled call).
func (m *summarizer) addRegion(i int32, name string, e *trace.Event) {
	mk := m.kind[e.Name]
	if mk == "" {
		return
	}
	a := m.regs[name]
	if a == nil {
		a = &regAgg{r: Region{Name: name, Kind: mk, Frame: -1, Compile: -1}, steps: map[int64]int{}}
		if f, c, ok := ParseRegion(name); ok {
			a.r.Frame, a.r.Compile = f, c
		}
		m.regs[name] = a
		m.regOrder = append(m.regOrder, name)
	}
	if a.r.Calls == 0 || e.Start < a.r.FirstNs {
		a.r.FirstNs = e.Start
	}
	a.r.Calls++
	a.r.TotalNs += e.Dur
	a.durs = append(a.durs, e.Dur)
	if st, ok := m.stepOf(e.Start); ok {
		a.steps[st]++
	}
	if m.root[i] == i {
		a.r.Outermost++
	}
}

// regionList is the regions in first-call order.
func (m *summarizer) regionList() []Region {
	var out []Region
	for _, name := range m.regOrder {
		a := m.regs[name]
		a.r.MedianNs = median(a.durs)
		a.r.PerStep = stepCounts(a.steps)
		out = append(out, a.r)
	}
	return out
}

// frames groups the Dynamo regions by frame id F: the distinct compile ids
// C seen for it, and its recompiles, the compiles with C > 0 (a frame seen
// only at C = 1 and 2 has two recompiles: its first compile happened before
// the window).
func frames(regions []Region) []Frame {
	byID := map[int]*Frame{}
	for _, r := range regions {
		if r.Kind != KindDynamo {
			continue
		}
		f := byID[r.Frame]
		if f == nil {
			f = &Frame{ID: r.Frame}
			byID[r.Frame] = f
		}
		f.Calls += r.Calls
		if !slices.Contains(f.Compiles, r.Compile) {
			f.Compiles = append(f.Compiles, r.Compile)
		}
	}
	var out []Frame
	for _, f := range byID {
		slices.Sort(f.Compiles)
		for _, c := range f.Compiles {
			if c > 0 {
				f.Recompiles++
			}
		}
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Frame) int { return cmp.Compare(a.ID, b.ID) })
	return out
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
