package reportview

import (
	"testing"

	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestEveryCategoryHasAColor: every category the classifier can return
// has a colour of its own (a category opclass learns later needs one, or
// its segments would be drawn without a fill, like another's).
func TestEveryCategoryHasAColor(t *testing.T) {
	seen := map[string]opclass.Category{}
	for _, c := range opclass.Categories {
		col, ok := CategoryColors[c]
		if !ok || col == "" {
			t.Errorf("category %s has no colour", c)
			continue
		}
		if o, dup := seen[col]; dup {
			t.Errorf("categories %s and %s share the colour %s", o, c, col)
		}
		seen[col] = c
	}
	if len(CategoryColors) != len(opclass.Categories) {
		t.Errorf("%d colours for %d categories", len(CategoryColors), len(opclass.Categories))
	}
	// what Of returns, over every kind and a spread of names, is one of them
	kernels := []string{"", "ampere_sgemm_128x64_nn", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "triton_poi_fused_add_0", "flash_fwd_kernel",
		"void at::native::vectorized_elementwise_kernel<4>", "Memcpy HtoD (Pageable -> Device)", "cudaStreamWaitEvent", "reduce_kernel", "x"}
	ops := []string{"", "aten::mm", "aten::addmm", "aten::_scaled_dot_product_flash_attention", "aten::convolution", "aten::add", "aten::layer_norm",
		"aten::sum", "nccl:all_reduce", "aten::copy_", "aten::nonzero", "x"}
	for k := trace.Kind(0); k.String() != "invalid"; k++ {
		for _, kn := range kernels {
			for _, op := range ops {
				if c := opclass.Of(k, kn, op); CategoryColors[c] == "" {
					t.Errorf("Of(%s, %q, %q) = %q, which has no colour", k, kn, op, c)
				}
			}
		}
	}
}
