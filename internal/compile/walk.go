package compile

import (
	"cmp"
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
