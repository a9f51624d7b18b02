package trace

import (
	"math/rand"
	"regexp"
	"testing"
)

// commRegexp is the definition IsCommKernel's scan replaced: the scan must
// agree with it on every name made of ASCII (the regexp also folded a few
// non-ASCII letters, such as the long s, that no kernel name uses).
var commRegexp = regexp.MustCompile(`(?i)nccl|rccl|allreduce|all_reduce|allgather|reducescatter|cross_device_reduce`)

func TestIsCommKernelAgreesWithRegexp(t *testing.T) {
	names := []string{
		"", "n", "ncc", "nccl", "NCCL", "ncclKernel_AllReduce_RING_LL_Sum_float",
		"ncclDevKernel_Generic", "void rcclGenericKernel<1>", "custom_ALLREDUCE_kernel",
		"all_gather", "AllGather", "reduce_scatter", "ReduceScatter", "cross_device_reduce_1stage",
		"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
		"ampere_sgemm_128x64_nn", "nnccl", "xxncclyy", "rcc", "all_reduc",
	}
	letters := []byte("ncNClLrRaAduUeE_gGsStTo ")
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.Intn(24))
		for j := range b {
			b[j] = letters[rng.Intn(len(letters))]
		}
		names = append(names, string(b))
	}
	// Plant each needle in random case inside random text.
	for _, n := range commNeedles {
		for i := 0; i < 50; i++ {
			b := []byte(n)
			for j := range b {
				if rng.Intn(2) == 0 && b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			names = append(names, "xy"+string(b)+"z", string(b), string(b[:len(b)-1]))
		}
	}
	matched := 0
	for _, n := range names {
		want := commRegexp.MatchString(n)
		if got := IsCommKernel(n); got != want {
			t.Fatalf("IsCommKernel(%q) = %v, the regexp says %v", n, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 300 {
		t.Fatalf("only %d of %d names matched: the test plants too few", matched, len(names))
	}
}

func BenchmarkIsCommKernel(b *testing.B) {
	name := "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*)"
	b.Run("scan", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			IsCommKernel(name)
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			commRegexp.MatchString(name)
		}
	})
}
