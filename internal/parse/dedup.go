package parse

import "github.com/tracetab/tracetab/internal/trace"

// Shared Extras and Auxes.
//
// The launch parameters of kernels, the bytes of memcpys and the shapes of
// ops repeat across a trace: a 1 GB trace has 1.5 M Extras and 0.56 M Auxes
// (64 MB) but a few thousand distinct ones. Events that carry equal values
// point at one stored copy, found through a small direct-mapped cache: the
// slot of a value's hash remembers the last index stored there; a value equal
// to it is shared, any other is appended and takes the slot. The cache never
// grows (a trace of all-distinct values costs what it did), and the result
// depends only on the sequence of values met, so the parallel reading, which
// passes every event's value through the main parser's cache in file order
// (merge), stores exactly what the sequential one does.
const (
	auxSlots   = 1 << 12
	extraSlots = 1 << 14
)

type dedup struct {
	aux   [auxSlots]int32 // index+1 into Trace.Aux, 0 = empty
	extra [extraSlots]int32
}

func mix(h, v uint64) uint64 {
	h ^= v
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>31
}

func hashAux(a *trace.Aux) uint64 {
	h := uint64(0x243f6a8885a308d3)
	for _, v := range a.Grid {
		h = mix(h, uint64(uint32(v)))
	}
	for _, v := range a.Block {
		h = mix(h, uint64(uint32(v)))
	}
	h = mix(h, uint64(uint32(a.Regs)))
	h = mix(h, uint64(a.SharedMem))
	h = mix(h, uint64(a.Bytes))
	h = mix(h, uint64(a.PG)|uint64(a.Seq)<<32)
	h = mix(h, uint64(a.Coll)|uint64(a.Dtype)<<32)
	h = mix(h, uint64(a.InNelems)^uint64(a.OutNelems)<<20^uint64(a.GroupSize)<<40)
	h = mix(h, uint64(a.WaitStream)^uint64(a.WaitRecord)<<20)
	h = mix(h, uint64(a.BlocksPerSM)^uint64(a.OccupancyPct)<<24)
	if a.HasLaunch {
		h = mix(h, 1)
	}
	return h
}

func hashExtra(x *trace.Extra) uint64 {
	h := uint64(0x13198a2e03707344)
	h = mix(h, uint64(x.InputDims)|uint64(x.InputTypes)<<32)
	h = mix(h, uint64(x.Stack)|uint64(uint32(x.Aux))<<32)
	h = mix(h, uint64(x.Concrete))
	return h
}

// addAux stores a (or finds an equal stored one) and returns its index.
func (p *parser) addAux(a trace.Aux) int32 {
	if p.dd == nil {
		p.dd = new(dedup)
	}
	slot := &p.dd.aux[hashAux(&a)%auxSlots]
	if i := *slot - 1; i >= 0 && *p.t.Aux.At(int(i)) == a {
		return i
	}
	i := int32(p.t.Aux.Append(a))
	*slot = i + 1
	return i
}

// addExtra stores x (or finds an equal stored one) and returns its index.
func (p *parser) addExtra(x trace.Extra) int32 {
	if p.dd == nil {
		p.dd = new(dedup)
	}
	slot := &p.dd.extra[hashExtra(&x)%extraSlots]
	if i := *slot - 1; i >= 0 && *p.t.Extras.At(int(i)) == x {
		return i
	}
	i := int32(p.t.Extras.Append(x))
	*slot = i + 1
	return i
}
