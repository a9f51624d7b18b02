package ranks

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Size is what a trace records of a collective's size: torch writes
// "Collective name", "dtype", "In msg nelems", "Out msg nelems" and "Group
// size" on record_param_comms and, from torch 2.2, on the kernel too.
type Size struct {
	Coll      string // "Collective name" as written (allreduce, _allgather_base, ...); "" when absent
	Dtype     string // "Float", "BFloat16", ...; "" when absent
	In, Out   int64  // elements; -1 when absent
	GroupSize int64  // ranks in the communicator; -1 when absent
}

var noSize = Size{In: -1, Out: -1, GroupSize: -1}

// Known reports whether the trace recorded the element counts.
func (z Size) Known() bool { return z.In >= 0 || z.Out >= 0 }

func sizeOf(t *trace.Trace, a *trace.Aux) Size {
	return Size{Coll: t.Str(a.Coll), Dtype: t.Str(a.Dtype), In: a.InNelems, Out: a.OutNelems, GroupSize: a.GroupSize}
}

// Collective kinds, after nccl-tests (doc/PERFORMANCE.md): each has its
// bus bandwidth factor.
const (
	KindAllReduce     = "all-reduce"
	KindAllGather     = "all-gather"
	KindReduceScatter = "reduce-scatter"
	KindBroadcast     = "broadcast"
	KindReduce        = "reduce"
	KindAllToAll      = "all-to-all"
	KindSendRecv      = "send/recv"
)

// KindOf maps torch's "Collective name" (allreduce, all_reduce,
// _allgather_base, reduce_scatter_tensor_coalesced, all_to_allv, send,
// ...) to its kind; "" when the name is none of them (barrier, gather,
// scatter, or absent).
func KindOf(coll string) string {
	n := strings.ToLower(strings.ReplaceAll(strings.TrimLeft(coll, "_"), "_", ""))
	switch {
	case strings.HasPrefix(n, "allreduce"):
		return KindAllReduce
	case strings.HasPrefix(n, "allgather"):
		return KindAllGather
	case strings.HasPrefix(n, "reducescatter"):
		return KindReduceScatter
	case strings.HasPrefix(n, "alltoall"):
		return KindAllToAll
	case n == "broadcast":
		return KindBroadcast
	case n == "reduce":
		return KindReduce
	case n == "send" || n == "recv" || n == "sendrecv" || n == "isend" || n == "irecv":
		return KindSendRecv
	}
	return ""
}

// BusFactor is nccl-tests' bus bandwidth factor of a kind for n ranks:
// all-reduce 2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n;
// broadcast, reduce and point-to-point 1. ok is false for an unknown kind
// or n < 1.
func BusFactor(kind string, n int64) (float64, bool) {
	if n < 1 {
		return 0, false
	}
	f := float64(n-1) / float64(n)
	switch kind {
	case KindAllReduce:
		return 2 * f, true
	case KindAllGather, KindReduceScatter, KindAllToAll:
		return f, true
	case KindBroadcast, KindReduce, KindSendRecv:
		return 1, true
	}
	return 0, false
}

// dtypeBytes are the element sizes of torch's scalar types as the trace
// names them.
var dtypeBytes = map[string]int64{
	"Float": 4, "Double": 8, "Half": 2, "BFloat16": 2, "Int": 4, "Long": 8, "Short": 2, "Char": 1, "Byte": 1, "Bool": 1,
	"ComplexHalf": 4, "ComplexFloat": 8, "ComplexDouble": 16, "UInt16": 2, "UInt32": 4, "UInt64": 8,
	"Float8_e4m3fn": 1, "Float8_e5m2": 1, "Float8_e4m3fnuz": 1, "Float8_e5m2fnuz": 1, "Float8_e8m0fnu": 1,
}

// DtypeBytes is the size of one element of dtype; ok is false when unknown.
func DtypeBytes(dtype string) (int64, bool) {
	b, ok := dtypeBytes[dtype]
	return b, ok
}

// Bytes is the size S of the collective as nccl-tests counts it: the
// whole array (all-gather: the output; reduce-scatter, all-to-all: the
// input; all-reduce, broadcast, reduce: the buffer; point-to-point: the
// larger side). -1 when the trace lacks the counts, the dtype or the kind.
func (z Size) Bytes() int64 {
	eb, ok := DtypeBytes(z.Dtype)
	if !ok || !z.Known() {
		return -1
	}
	n := int64(-1)
	switch KindOf(z.Coll) {
	case KindAllGather:
		n = z.Out
	case KindReduceScatter, KindAllToAll, KindAllReduce, KindBroadcast, KindReduce:
		n = z.In
	case KindSendRecv:
		n = max(z.In, z.Out)
	}
	if n < 0 {
		return -1
	}
	return n * eb
}

// sizedOp is a CPU op that records a collective's size.
type sizedOp struct {
	start, end int64
	size       Size
	used       bool
}

// launches sets each communication kernel's launch time (its launch call,
// matched by correlation id) and, for a kernel that records no size, the
// size recorded by the innermost op that encloses its launch call
// (record_param_comms); it counts the sized ops and those that launched
// no communication kernel.
func launches(t *trace.Trace, s *Summary, byCorr map[int64]int) {
	type call struct {
		track int32
		ts    int64
		coll  int
	}
	var calls []call
	ops := map[int32][]sizedOp{}
	for _, chunk := range t.Events.Chunks() {
		for k := range chunk {
			e := &chunk[k]
			switch {
			case e.Kind.IsLaunch() && e.Has(trace.FlagCorr):
				if c, ok := byCorr[t.CorrOf(e)]; ok && s.Colls[c].Launch < 0 {
					s.Colls[c].Launch = t.Base + e.Start
					calls = append(calls, call{e.Track, e.Start, c})
				}
			case e.Kind == trace.KindCPUOp && e.Extra >= 0:
				x := t.Extras.At(int(e.Extra))
				if x.Aux < 0 {
					continue
				}
				if a := t.Aux.At(int(x.Aux)); a.InNelems >= 0 || a.OutNelems >= 0 {
					ops[e.Track] = append(ops[e.Track], sizedOp{start: e.Start, end: e.End(), size: sizeOf(t, a)})
				}
			}
		}
	}
	for _, l := range ops {
		s.SizedOps += len(l)
		slices.SortFunc(l, func(a, b sizedOp) int { return cmp.Compare(a.start, b.start) })
	}
	for _, c := range calls {
		l := ops[c.track]
		// the innermost enclosing op: the latest start at or before the call
		k, _ := slices.BinarySearchFunc(l, c.ts, func(o sizedOp, ts int64) int { return cmp.Compare(o.start, ts+1) })
		for j := k - 1; j >= 0 && j >= k-8; j-- { // sized ops nest a level or two deep
			if l[j].start <= c.ts && c.ts < l[j].end {
				l[j].used = true
				if !s.Colls[c.coll].Size.Known() {
					s.Colls[c.coll].Size = l[j].size
				}
				break
			}
		}
	}
	for _, l := range ops {
		for _, o := range l {
			if !o.used {
				s.SizedOpsNoKernel++
			}
		}
	}
}
