// Package opclass is the one rule that says what kind of work a device op
// is: its category (table --by category) and, for an aten op, its family
// (roofline's performance-model families). trace.DeviceClass decides
// communication and memory; the op that launched the kernel decides the
// rest where the trace links it, the kernel's name where it does not.
package opclass

import (
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Family is the kind of computation an aten op does: roofline's model
// families, named by the op alone.
type Family string

// The families.
const (
	GEMM        Family = "gemm"
	Conv        Family = "conv"
	Attention   Family = "attention"
	Elementwise Family = "elementwise"
	Norm        Family = "norm"
	Reduction   Family = "reduction"
)

// Category is what a device op's time is filed under in table --by
// category.
type Category string

// The categories, in the order every view lists them.
const (
	CatGEMM          Category = "gemm"
	CatAttention     Category = "attention"
	CatConv          Category = "conv"
	CatElementwise   Category = "elementwise"
	CatReduction     Category = "reduction/norm"
	CatCommunication Category = "communication"
	CatMemory        Category = "memcpy/memset"
	CatOther         Category = "other"
)

// Categories lists every category in the views' order.
var Categories = []Category{CatGEMM, CatAttention, CatConv, CatElementwise, CatReduction, CatCommunication, CatMemory, CatOther}

// Of is the category of one device op of kind k named kernel, launched
// by the op named op ("" when the trace links it to no op):
//
//  1. trace.DeviceClass first: a copy or set is memcpy/memset, a
//     communication kernel (NCCL, RCCL, the collectives ranks matches) is
//     communication, a wait is other;
//  2. then the launching op's family (OfOp), as TraceLens files a kernel
//     under its parent op's category;
//  3. then the kernel's own name (OfKernel): graph replays, Triton
//     kernels, kernels launched before the profiler started;
//  4. else other.
func Of(k trace.Kind, kernel, op string) Category {
	switch trace.DeviceClass(k, kernel) {
	case "memory":
		return CatMemory
	case "communication":
		return CatCommunication
	case "wait":
		return CatOther
	}
	if f := OfOp(op); f != "" {
		return f.Category()
	}
	if f := OfKernel(kernel); f != "" {
		return f.Category()
	}
	return CatOther
}

// Category is the category a family's time is filed under: norm and
// reduction share one.
func (f Family) Category() Category {
	switch f {
	case GEMM:
		return CatGEMM
	case Conv:
		return CatConv
	case Attention:
		return CatAttention
	case Elementwise:
		return CatElementwise
	case Norm, Reduction:
		return CatReduction
	}
	return CatOther
}

// OfOp is the family of the aten op with this name, "" when it is none of
// them (index_select, cat, arange, embedding, a user's op, ...).
func OfOp(name string) Family {
	base, ok := strings.CutPrefix(name, "aten::")
	if !ok {
		return ""
	}
	switch {
	case gemmOps[base]:
		return GEMM
	case isConvOp(base):
		return Conv
	case strings.Contains(base, "attention") || strings.Contains(base, "scaled_dot_product"):
		return Attention
	case reductionOps[base]:
		return Reduction
	case normOps[base] || strings.Contains(base, "softmax") || strings.HasSuffix(strings.TrimSuffix(base, "_backward"), "_norm"):
		return Norm
	case elementwiseOps[base] || elementwiseOps[strings.TrimSuffix(base, "_")]:
		return Elementwise
	}
	return ""
}

func isConvOp(base string) bool {
	if strings.Contains(base, "convolution") {
		return true
	}
	b := strings.TrimPrefix(base, "conv_transpose")
	if b == base {
		b = strings.TrimPrefix(base, "conv")
	}
	return b != base && len(b) == 2 && b[0] >= '1' && b[0] <= '3' && b[1] == 'd'
}

// gemmOps are the matrix products (bases, without "aten::"), with the
// composites that reach them (linear, matmul).
var gemmOps = set(`mm _int_mm addmm _addmm_activation bmm baddbmm addbmm _scaled_mm matmul linear addmv mv`)

// reductionOps reduce a tensor along dimensions (norm here is the
// p-norm, not a normalisation layer).
var reductionOps = set(`sum mean amax amin max min prod argmax argmin logsumexp var std var_mean std_mean all any
	nansum norm linalg_vector_norm count_nonzero`)

// normOps are the normalisation layers and their backward ops; names with
// "softmax" or ending in "_norm" are norms too.
var normOps = set(`layer_norm native_layer_norm group_norm native_group_norm batch_norm native_batch_norm
	_batch_norm_impl_index cudnn_batch_norm miopen_batch_norm _native_batch_norm_legit
	_native_batch_norm_legit_no_training instance_norm rms_norm _fused_rms_norm native_layer_norm_backward
	native_group_norm_backward native_batch_norm_backward cudnn_batch_norm_backward miopen_batch_norm_backward
	_fused_rms_norm_backward`)

// elementwiseOps are the pointwise ops (an in-place "op_" is op too).
var elementwiseOps = set(`copy fill zero where masked_fill eq ne lt le gt ge addcmul addcdiv lerp
	abs neg exp exp2 expm1 log log2 log10 log1p sqrt rsqrt reciprocal sin cos tan tanh sigmoid relu relu6 gelu silu
	mish elu selu celu softplus hardtanh hardswish hardsigmoid leaky_relu erf erfinv floor ceil round trunc sign sgn
	clamp clamp_min clamp_max threshold nan_to_num bitwise_not logical_not frac square
	add sub mul div rsub pow maximum minimum fmod remainder atan2 hypot logical_and logical_or logical_xor
	bitwise_and bitwise_or bitwise_xor floor_divide threshold_backward gelu_backward silu_backward sigmoid_backward
	tanh_backward hardtanh_backward leaky_relu_backward hardswish_backward hardsigmoid_backward softplus_backward
	mish_backward elu_backward _to_copy clone contiguous`)

func set(fields string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(fields) {
		m[f] = true
	}
	return m
}
