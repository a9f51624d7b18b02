package kerneleff

import "strings"

// tcKernelMarks are the name fragments of kernels that use Tensor Cores,
// as the TensorBoard plugin lists them (after NVIDIA's PyProf): a kernel
// whose name contains one of them uses Tensor Cores.
var tcKernelMarks = []string{"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816",
	"dgrad_1x1_stride_2x2", "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
	"xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm", "xmma_gemm",
	"xmma_sparse_gemm", "c1688"}

// TensorCoresUsed reports whether a kernel uses Tensor Cores by the
// plugin's rule: its name contains one of a list of fragments.
func TensorCoresUsed(kernel string) bool {
	for _, m := range tcKernelMarks {
		if strings.Contains(kernel, m) {
			return true
		}
	}
	return false
}

// tcEligibleOps are the ops whose kernels may use Tensor Cores, as the
// TensorBoard plugin lists them: convolutions, matrix products, RNN cells
// and the backward ops they launch kernels from.
var tcEligibleOps = map[string]bool{}

func init() {
	for _, op := range strings.Fields(`aten::_convolution aten::_convolution_nogroup
		aten::conv1d aten::conv2d aten::conv3d aten::conv_tbc
		aten::conv_transpose1d aten::conv_transpose2d aten::conv_transpose3d
		aten::convolution aten::cudnn_convolution aten::cudnn_convolution_transpose
		aten::prelu aten::addmm aten::addmv aten::addr aten::matmul aten::mm aten::mv
		aten::linear aten::addbmm aten::baddbmm aten::bmm aten::chain_matmul aten::linalg_multi_dot
		aten::_thnn_fused_lstm_cell aten::_thnn_fused_gru_cell aten::lstm_cell
		aten::gru_cell aten::rnn_tanh_cell aten::rnn_relu_cell
		CudnnConvolutionBackward BmmBackward0
		aten::cudnn_convolution_transpose_backward CudnnConvolutionTransposeBackward
		MmBackward aten::cudnn_convolution_backward_weight aten::addmm_
		AddmvBackward MvBackward
		aten::cudnn_convolution_transpose_backward_weight
		aten::cudnn_convolution_transpose_backward_input
		AddmmBackward aten::cudnn_convolution_backward_input
		AddbmmBackward aten::cudnn_convolution_backward`) {
		tcEligibleOps[op] = true
	}
}

// TCEligibleOp reports whether an op is eligible to use Tensor Cores by
// the plugin's rule: its name is one of a list (exactly).
func TCEligibleOp(op string) bool { return tcEligibleOps[op] }
