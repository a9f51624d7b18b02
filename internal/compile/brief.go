package compile

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// Brief is the short compile block of tracetab info: one pass over the
// events, no derived structure.
type Brief struct {
	Frames          int `json:"frames"`           // Dynamo frame ids
	Regions         int `json:"regions"`          // distinct Torch-Compiled Region F/C names
	Recompiles      int `json:"recompiles"`       // distinct F/C with C > 0
	RegionCalls     int `json:"region_calls"`     // Torch-Compiled Region events
	AOTCalls        int `json:"aot_calls"`        // CompiledFunction and CompiledFunctionBackward events
	GraphCalls      int `json:"graph_calls"`      // ## Call CompiledFxGraph ## events
	InductorKernels int `json:"inductor_kernels"` // kernels named triton_*
}

// Any reports whether the trace shows torch.compile at all.
func (b Brief) Any() bool { return b.RegionCalls+b.AOTCalls+b.GraphCalls+b.InductorKernels > 0 }

// BriefOf counts compiled activity in one pass.
func BriefOf(t *trace.Trace) Brief {
	kind := make([]string, len(t.Strings))
	triton := make([]bool, len(t.Strings))
	for id, s := range t.Strings {
		kind[id] = markerKind(s)
		triton[id] = IsInductorKernel(s)
	}
	var b Brief
	seen := map[trace.StrID]bool{}
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			switch {
			case e.Kind == trace.KindKernel:
				if triton[e.Name] {
					b.InductorKernels++
				}
			case e.Kind.IsCPU():
				switch kind[e.Name] {
				case KindDynamo:
					b.RegionCalls++
					seen[e.Name] = true
				case KindAOTForward, KindAOTBackward:
					b.AOTCalls++
				case KindGraph:
					b.GraphCalls++
				}
			}
		}
	}
	var frames []int
	for id := range seen {
		if f, c, ok := ParseRegion(t.Str(id)); ok {
			b.Regions++
			if c > 0 {
				b.Recompiles++
			}
			if !slices.Contains(frames, f) {
				frames = append(frames, f)
			}
		}
	}
	b.Frames = len(frames)
	return b
}
