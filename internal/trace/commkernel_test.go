package trace

import (
	"math/rand"
	"strings"
	"testing"
)

// TestIsCommKernelMatchesRegexp: the ASCII fast path answers as the
// regexp on named cases and on 20,000 random names built from pieces of
// the alternatives in random case (with non-ASCII ones going to the
// regexp).
func TestIsCommKernelMatchesRegexp(t *testing.T) {
	named := []string{"", "ncclKernel_AllReduce_RING_LL_Sum_float", "ncclDevKernel_Generic", "RCCL", "void at::native::vectorized_elementwise_kernel<4>",
		"cross_device_reduce_1stage", "all_gather", "AllGather", "reduce_scatter", "ReduceScatter", "nccL", "ncc", "all_reducx",
		"reduceſcatter", "ſ", "custom_all_reduce", "aten::allreduce"}
	pieces := []string{"n", "c", "cl", "nccl", "rccl", "all", "reduce", "_", "gather", "scatter", "cross", "device", "Ä", "x", "ſ"}
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		var b strings.Builder
		for range r.Intn(8) {
			p := pieces[r.Intn(len(pieces))]
			if r.Intn(2) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		named = append(named, b.String())
	}
	matched := 0
	for _, n := range named {
		want := commKernel.MatchString(n)
		if got := IsCommKernel(n); got != want {
			t.Fatalf("IsCommKernel(%q) = %v, the regexp says %v", n, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 1000 || matched > len(named)-1000 {
		t.Fatalf("%d of %d names match: the cases do not test both answers", matched, len(named))
	}
}
