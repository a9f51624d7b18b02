package opclass

import (
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		kind       trace.Kind
		kernel, op string
		want       Category
	}{
		// DeviceClass first, whatever the op
		{trace.KindMemcpy, "Memcpy DtoD (Device -> Device)", "aten::copy_", CatMemory},
		{trace.KindMemset, "Memset (Device)", "aten::zero_", CatMemory},
		{trace.KindKernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "nccl:all_reduce", CatCommunication},
		{trace.KindKernel, "cross_device_reduce_1stage<half, 8>", "", CatCommunication},
		{trace.KindKernel, "event_wait", "", CatOther},
		// the launching op, then the kernel's name
		{trace.KindKernel, "splitKreduce_kernel", "aten::mm", CatGEMM},
		{trace.KindKernel, "sm90_xmma_gemm_bf16bf16", "aten::linear", CatGEMM},
		{trace.KindKernel, "flash_fwd_kernel", "aten::_flash_attention_forward", CatAttention},
		{trace.KindKernel, "fmha_cutlassF", "aten::_scaled_dot_product_efficient_attention", CatAttention},
		{trace.KindKernel, "implicit_convolve_sgemm", "aten::cudnn_convolution", CatConv},
		{trace.KindKernel, "whatever", "aten::conv2d", CatConv},
		{trace.KindKernel, "vectorized_elementwise_kernel", "aten::add_", CatElementwise},
		{trace.KindKernel, "cunn_SoftMaxForward", "aten::_softmax", CatReduction},
		{trace.KindKernel, "vectorized_layer_norm_kernel", "aten::native_layer_norm", CatReduction},
		{trace.KindKernel, "reduce_kernel<512, 1>", "aten::sum", CatReduction},
		{trace.KindKernel, "reduce_kernel<512, 1>", "aten::linalg_vector_norm", CatReduction},
		{trace.KindKernel, "void at::native::index_elementwise_kernel<128, 4>", "aten::index", CatElementwise},
		{trace.KindKernel, "indexSelectLargeIndex", "aten::index_select", CatOther},
		{trace.KindKernel, "CatArrayBatchedCopy", "aten::cat", CatOther},
		// no op: the kernel's name
		{trace.KindKernel, "Cijk_Alik_Bljk_BBS_BH", "", CatGEMM},
		{trace.KindKernel, "triton_poi_fused_add_0", "", CatElementwise},
		{trace.KindKernel, "triton_red_fused_mean_1", "", CatReduction},
		{trace.KindKernel, "triton_per_fused_sum_2", "", CatReduction},
		{trace.KindKernel, "void cudnn::bn_fw_tr_1C11_kernel_NCHW", "", CatOther},
		{trace.KindKernel, "void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel normal", "", CatElementwise},
		{trace.KindKernel, "fbgemm::embedding_forward", "", CatOther},
		{trace.KindKernel, "attn_fwd", "aten::_flash_attention_forward", CatAttention},
	} {
		if got := Of(c.kind, c.kernel, c.op); got != c.want {
			t.Errorf("Of(%v, %q, %q) = %q, want %q", c.kind, c.kernel, c.op, got, c.want)
		}
	}
}

func TestOfOpNames(t *testing.T) {
	for name, want := range map[string]Family{
		"aten::conv_transpose2d": Conv, "aten::conv4d": "", "aten::_convert_indices_from_coo_to_csr": "",
		"aten::convolution_backward": Conv, "aten::rms_norm": Norm, "aten::group_norm_backward": Norm,
		"aten::norm": Reduction, "aten::mul_": Elementwise, "mm": "", "aten::embedding": "",
		"aten::scaled_dot_product_attention": Attention, "aten::sum_": "",
	} {
		if got := OfOp(name); got != want {
			t.Errorf("OfOp(%q) = %q, want %q", name, got, want)
		}
	}
}
