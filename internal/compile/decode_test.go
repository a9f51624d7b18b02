package compile

import (
	"slices"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name, cat string
		ops       []string
		unknown   []string
		ok        bool
	}{
		{"triton_poi_fused__unsafe_view_mul_silu_2", "pointwise", []string{"_unsafe_view", "mul", "silu"}, nil, true},
		{"triton_red_fused_add_mean_mul_pow_rsqrt_0", "reduction", []string{"add", "mean", "mul", "pow", "rsqrt"}, nil, true},
		{"triton_per_fused__log_softmax_native_layer_norm_12", "persistent_reduction", []string{"_log_softmax", "native_layer_norm"}, nil, true},
		{"triton_poi_fused__to_copy_1", "pointwise", []string{"_to_copy"}, nil, true},
		{"triton_poi_fused_constant_pad_nd_moe_forward_0", "pointwise", []string{"constant_pad_nd", "moe", "forward"}, []string{"moe", "forward"}, true},
		{"triton_tem_fused_addmm_relu_3", "template", []string{"addmm", "relu"}, nil, true},
		{"triton_poi_fused_0", "pointwise", nil, nil, false},
		{"triton__0d1d2d3d", "", nil, nil, false},
		{"ampere_sgemm_32x32_sliced1x4_nn", "", nil, nil, false},
	} {
		d := Decode(c.name)
		if d.OK != c.ok || d.Category != c.cat || !slices.Equal(d.Ops, c.ops) || !slices.Equal(d.Unknown, c.unknown) {
			t.Errorf("%s: %+v", c.name, d)
		}
		if !d.OK && d.Why == "" {
			t.Errorf("%s: no reason given", c.name)
		}
	}
}

func TestParseRegion(t *testing.T) {
	if f, c, ok := ParseRegion("Torch-Compiled Region: 3/12"); !ok || f != 3 || c != 12 {
		t.Errorf("%d %d %v", f, c, ok)
	}
	for _, s := range []string{"Torch-Compiled Region", "Torch-Compiled Region: x/1", "CompiledFunction"} {
		if _, _, ok := ParseRegion(s); ok {
			t.Errorf("%q parsed", s)
		}
	}
}

func TestFamily(t *testing.T) {
	for _, c := range [][3]string{
		{"ampere_sgemm_32x32_sliced1x4_nn", "", "gemm"},
		{"attn_fwd", "aten::_flash_attention_forward", "attention"},
		{"Cijk_Alik_Bljk_BBS_BH", "", "gemm"},
		{"some_kernel", "aten::mm", "gemm"},
		{"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "", "collective"},
		{"void at::native::vectorized_elementwise_kernel<4>", "aten::fill_", ""},
		{"void fbgemm_gpu::permute_indices_weights_kernel<false, int>", "", ""},
		{"volta_sgemm_128x32_nt", "", "gemm"},
	} {
		if got := Family(c[0], c[1]); got != c[2] {
			t.Errorf("%v: %q", c, got)
		}
	}
}
