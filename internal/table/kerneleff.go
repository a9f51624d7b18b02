package table

import (
	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/trace"
)

// kernelEff gathers a kernel name's efficiency columns over its calls.
type kernelEff struct {
	means               kerneleff.Means
	opCalls, tcEligible int64
}

func (k *kernelEff) add(t *trace.Trace, l *trace.Links, i int) {
	k.means.Add(t.Ev(i).Dur, t.AuxOf(i))
	// the op that launched it: the innermost cpu_op around its launch call
	if r := l.Launch[i]; r >= 0 {
		if op := l.Launch[r]; op >= 0 && t.Ev(int(op)).Kind == trace.KindCPUOp {
			k.opCalls++
			if kerneleff.TCEligibleOp(t.NameOf(int(op))) {
				k.tcEligible++
			}
		}
	}
}

// fill sets r's efficiency columns; tensorCores is
// kerneleff.TensorCoresUsed(r.Name).
func (k *kernelEff) fill(r *KernelRow, tensorCores bool) {
	r.TensorCores = tensorCores
	r.BlocksPerSM, r.HasBlocksPerSM = k.means.BlocksPerSM()
	r.OccupancyPct, r.HasOccupancy = k.means.OccupancyPct()
	r.OpCalls, r.TCEligibleCalls = k.opCalls, k.tcEligible
}
