package compile

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// disappeared lists the eager ops and kernels the compiled side never
// runs: ops before kernels, then the most time first, then by name.
func disappeared(es, cs *side) []Gone {
	var out []Gone
	for n, cnt := range es.opN {
		if cs.opN[n] == 0 {
			out = append(out, Gone{n, "op", cnt, es.opNs[n]})
		}
	}
	for n, cnt := range es.kerN {
		if cs.kerN[n] == 0 {
			out = append(out, Gone{n, "kernel", cnt, es.kerNs[n]})
		}
	}
	slices.SortFunc(out, goneCmp)
	return out
}

func goneCmp(a, b Gone) int {
	if a.Kind != b.Kind {
		return cmp.Compare(b.Kind, a.Kind) // ops first
	}
	if a.TotalNs != b.TotalNs {
		return cmp.Compare(b.TotalNs, a.TotalNs)
	}
	return cmp.Compare(a.Name, b.Name)
}

// compiledKernels sorts the compiled side's kernels: a non-Inductor kernel
// the eager side runs too stays (communication kernels in comm), an
// Inductor kernel is a fusion; a non-Inductor kernel new to the compiled
// side is neither. Each list is sorted (stayedCmp, fusionCmp).
func compiledKernels(es, cs *side) (stayed, comm []Stayed, fused []Fusion) {
	for n, cnt := range cs.kerN {
		if IsInductorKernel(n) {
			fused = append(fused, fusionOf(n, cnt, es, cs))
			continue
		}
		if es.kerN[n] == 0 {
			continue
		}
		st := stayedOf(n, cnt, es, cs)
		if st.Family == "collective" {
			comm = append(comm, st)
		} else {
			stayed = append(stayed, st)
		}
	}
	slices.SortFunc(fused, fusionCmp)
	slices.SortFunc(stayed, stayedCmp)
	slices.SortFunc(comm, stayedCmp)
	return stayed, comm, fused
}

// stayedOf is kernel n on both sides; its family is named by the op that
// launched it most on the eager side (else on the compiled side), and is
// "collective" for a communication kernel whatever the op.
func stayedOf(n string, cnt int, es, cs *side) Stayed {
	op := top(es.kerOp[n])
	if op == "" {
		op = top(cs.kerOp[n])
	}
	st := Stayed{Name: n, Family: Family(n, op), EagerCount: es.kerN[n], CompiledCount: cnt,
		EagerTotalNs: es.kerNs[n], CompiledTotalNs: cs.kerNs[n], EagerMedianNs: median(es.kerDur[n]), CompiledMedianNs: median(cs.kerDur[n])}
	if trace.IsCommKernel(n) {
		st.Family = "collective"
	}
	return st
}

// fusionOf is Inductor kernel n with the eager ops its name decodes to:
// each op found on the eager side as aten::<op> with the kernels launched
// below it there (sorted), the others missing.
func fusionOf(n string, cnt int, es, cs *side) Fusion {
	d := Decode(n)
	f := Fusion{Kernel: n, Ops: d.Ops, Count: cnt, TotalNs: cs.kerNs[n]}
	for _, op := range d.Ops {
		name := "aten::" + op
		if es.opN[name] == 0 {
			f.Missing = append(f.Missing, op)
			continue
		}
		var ks []string
		for kn := range es.below[name] {
			ks = append(ks, kn)
		}
		slices.Sort(ks)
		f.EagerOps = append(f.EagerOps, EagerOp{Name: name, Calls: es.opN[name], KernelNs: es.belowNs[name], Kernels: ks})
	}
	return f
}

// fusionCmp: the most compiled time first, then by kernel name.
func fusionCmp(a, b Fusion) int {
	if a.TotalNs != b.TotalNs {
		return cmp.Compare(b.TotalNs, a.TotalNs)
	}
	return strings.Compare(a.Kernel, b.Kernel)
}

// stayedCmp: kernels with a family first, then the most compiled time,
// then by name.
func stayedCmp(a, b Stayed) int {
	if (a.Family != "") != (b.Family != "") {
		if a.Family != "" {
			return -1
		}
		return 1
	}
	if a.CompiledTotalNs != b.CompiledTotalNs {
		return cmp.Compare(b.CompiledTotalNs, a.CompiledTotalNs)
	}
	return strings.Compare(a.Name, b.Name)
}

// headline is the kept library kernel the closing sentence names: of the
// GEMM kernels that are not helpers (IsGEMMHelper) the one with the most
// eager time (the first in the list on a tie), else the attention, then
// the convolution kernel; nil when none.
func headline(stayed []Stayed) *Stayed {
	var h *Stayed
	for _, fam := range []string{"gemm", "attention", "conv"} {
		for i := range stayed {
			s := &stayed[i]
			if s.Family == fam && !IsGEMMHelper(s.Name) && (h == nil || s.EagerTotalNs > h.EagerTotalNs) {
				h = s
			}
		}
		if h != nil {
			return h
		}
	}
	return nil
}
