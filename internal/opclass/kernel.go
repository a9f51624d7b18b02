package opclass

import (
	"regexp"
	"strings"
)

// Kernel names by family, for kernels the trace links to no op (or to an
// op OfOp does not know). The order of the checks is the order of the
// patterns: attention and convolution kernels are often built on GEMM
// tiles (fmha, implicit_gemm), so they are tried first.
var (
	attnKernel = regexp.MustCompile(`(?i)flash|fmha|attn|attention|sdpa`)
	convKernel = regexp.MustCompile(`(?i)conv|implicit_gemm|wgrad|dgrad|fprop`)
	gemmKernel = regexp.MustCompile(`(?i)(^|[^b])gemm|^Cijk_|cutlass|xmma|wgmma|nvjet|cublas|hipblas|matmul|triton_tem_`) // not fbgemm
	normKernel = regexp.MustCompile(`(?i)layer_?norm|rms_?norm|batch_?norm|group_?norm|instance_?norm|softmax`)
	// at::native's reduce_kernel; Inductor's triton_red_ and triton_per_
	// (persistent reductions)
	reduceKernel = regexp.MustCompile(`(?i)reduce_kernel|^triton_(red|per)_|reduction`)
	// at::native's elementwise kernels; Inductor's triton_poi_ (pointwise)
	elementwiseKernel = regexp.MustCompile(`(?i)elementwise|^triton_poi_`)
)

// OfKernel is the family of a kernel by its name alone, "" when the name
// says none.
func OfKernel(name string) Family {
	name = strings.TrimPrefix(name, "void ")
	switch {
	case attnKernel.MatchString(name):
		return Attention
	case convKernel.MatchString(name):
		return Conv
	case gemmKernel.MatchString(name):
		return GEMM
	case normKernel.MatchString(name):
		return Norm
	case reduceKernel.MatchString(name):
		return Reduction
	case elementwiseKernel.MatchString(name):
		return Elementwise
	}
	return ""
}
