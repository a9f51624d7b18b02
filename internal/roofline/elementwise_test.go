package roofline

import "testing"

// TestElementwise: inputs read at their own size, the broadcast result
// written once; in place, copies and fills.
func TestElementwise(t *testing.T) {
	t.Parallel()
	runCases(t, Elementwise, []modelCase{
		// [4,8] + [8] -> [4,8]: 32 FLOPs; (32 + 8 + 32)·2 bytes
		{name: "add broadcast", op: "aten::add", dims: `[[4,8],[8],[]]`, types: `["c10::BFloat16","c10::BFloat16","Scalar"]`,
			values: `["","","1"]`, flops: 32, bytes: 144, prec: FP32},
		// in place reads and writes self: (32 + 32 + 32)·4
		{name: "add_ in place", op: "aten::add_", dims: `[[4,8],[4,8],[]]`, types: `["float","float","Scalar"]`, flops: 32, bytes: 384},
		{name: "mul by a scalar", op: "aten::mul", dims: `[[4,8],[]]`, types: `["float","Scalar"]`, flops: 32, bytes: 256},
		// copy_ reads src (fp32) and writes self (bf16): 40 + 20, no FLOPs
		{name: "copy_ cast", op: "aten::copy_", dims: `[[10],[10],[]]`, types: `["c10::BFloat16","float","Scalar"]`, flops: 0, bytes: 60},
		{name: "fill_", op: "aten::fill_", dims: `[[10],[]]`, types: `["float","Scalar"]`, flops: 0, bytes: 40},
		// a comparison writes bool: 16·8 + 16·8 + 16
		{name: "eq", op: "aten::eq", dims: `[[16],[16]]`, types: `["long int","long int"]`, flops: 16, bytes: 272},
		{name: "where selects", op: "aten::where", dims: `[[16],[16],[16]]`, types: `["bool","float","float"]`, flops: 0, bytes: 16 + 64 + 64 + 16},
		{name: "no broadcast", op: "aten::mul", dims: `[[4,8],[3]]`, types: `["float","float"]`, err: "do not broadcast"},
		{name: "gelu fp16", op: "aten::gelu", dims: `[[1,141,2048],[]]`, types: `["c10::Half",""]`, flops: 288768, bytes: 288768 * 4},
		// max(self, other) is elementwise, not a reduction
		{name: "max of two", op: "aten::max", dims: `[[8],[8]]`, types: `["float","float"]`, flops: 8, bytes: 96},
	})
}

// TestNorm: every tensor read once, an output the size of the first
// written; FLOPs per element 5 (layer/batch/group norm, softmax), 4 (RMS).
func TestNorm(t *testing.T) {
	t.Parallel()
	runCases(t, Norm, []modelCase{
		// [2,10,16] with weight and bias [16]: 5·320 = 1600; (320 + 16 + 16 + 320)·2 = 1344
		{name: "layer_norm", op: "aten::layer_norm", dims: `[[2,10,16],[],[16],[16],[],[]]`,
			types:  `["c10::BFloat16","ScalarList","c10::BFloat16","c10::BFloat16","Scalar","Scalar"]`,
			values: `["","[16]","","","1e-05","True"]`, flops: 1600, bytes: 1344, prec: FP32},
		{name: "rms_norm", op: "aten::rms_norm", dims: `[[2,10,16],[],[16],[]]`,
			types: `["c10::BFloat16","ScalarList","c10::BFloat16","Scalar"]`, flops: 1280, bytes: (320 + 16 + 320) * 2},
		{name: "softmax", op: "aten::_softmax", dims: `[[4,32],[],[]]`, types: `["float","Scalar","Scalar"]`, flops: 640, bytes: 1024},
		// backward: twice the forward's FLOPs; grad_output and output read, grad_input written
		{name: "softmax backward", op: "aten::_softmax_backward_data", dims: `[[4,32],[4,32],[],[]]`,
			types: `["float","float","Scalar","Scalar"]`, flops: 1280, bytes: 1536},
	})
}

// TestReduction: the input read, the reduced result written, 1 FLOP per
// input element.
func TestReduction(t *testing.T) {
	t.Parallel()
	runCases(t, Reduction, []modelCase{
		{name: "sum dim 1", op: "aten::sum", dims: `[[8,16],[],[],[]]`, types: `["float","ScalarList","Scalar",""]`,
			values: `["","[1]","False",""]`, flops: 128, bytes: (128 + 8) * 4},
		{name: "mean dim -1", op: "aten::mean", dims: `[[8,16],[],[],[]]`, types: `["float","ScalarList","Scalar",""]`,
			values: `["","[-1]","True",""]`, flops: 128, bytes: (128 + 8) * 4},
		{name: "sum of everything", op: "aten::sum", dims: `[[8,16]]`, types: `["float"]`, flops: 128, bytes: (128 + 1) * 4},
		{name: "amax dim unrecorded", op: "aten::amax", dims: `[[8,16],[],[]]`, types: `["float","ScalarList","Scalar"]`, flops: 128, bytes: -1},
	})
}
