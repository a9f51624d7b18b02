package roofline

import "testing"

// convolution's recorded arguments: input, weight, bias, stride, padding,
// dilation, transposed, output_padding, groups.
const convTypes = `["c10::BFloat16","c10::BFloat16","c10::BFloat16","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"]`

// convTypesNoBias: bias None.
const convTypesNoBias = `["c10::BFloat16","c10::BFloat16","","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"]`

func convValues(stride, pad, dil, transposed, outPad, groups string) string {
	return `["","","","` + stride + `","` + pad + `","` + dil + `","` + transposed + `","` + outPad + `","` + groups + `"]`
}

// TestConv: 2·N·K·(C/groups)·ΠR·ΠO with O from stride, padding and
// dilation; transposed, grouped, 1-d and backward forms.
func TestConv(t *testing.T) {
	t.Parallel()
	const dims = `[[2,3,32,32],[8,3,3,3],[8],[],[],[],[],[],[]]`
	runCases(t, Conv, []modelCase{
		// O = (32 + 2 − 2 − 1)/1 + 1 = 32: 2·2·8·3·9·32·32 = 884736;
		// bytes (2·3·32·32 + 8·3·3·3 + 2·8·32·32 + 8)·2 = 45504
		{name: "3x3 same", op: "aten::convolution", dims: dims, types: convTypes,
			values: convValues("[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"), flops: 884736, bytes: 45504, prec: BF16},
		// O = floor((32 − 2 − 1)/2) + 1 = 15: 2·2·8·3·9·225 = 194400; bytes (6144 + 216 + 2·8·225 + 8)·2
		{name: "stride 2 no padding", op: "aten::convolution", dims: dims, types: convTypes,
			values: convValues("[2, 2]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1"), flops: 194400, bytes: (6144 + 216 + 3600 + 8) * 2},
		// dilation 2 and padding 2 keep 32: (32 + 4 − 2·2 − 1)/1 + 1
		{name: "dilation 2", op: "aten::convolution", dims: dims, types: convTypes,
			values: convValues("[1, 1]", "[2, 2]", "[2, 2]", "False", "[0, 0]", "1"), flops: 884736, bytes: 45504},
		// one value stands for every spatial dimension
		{name: "single-value lists", op: "aten::convolution", dims: dims, types: convTypes,
			values: convValues("[2]", "[0]", "[1]", "False", "[0]", "1"), flops: 194400, bytes: (6144 + 216 + 3600 + 8) * 2},
		// groups 4: weight [8, 8/4, 3, 3]; 2·1·8·2·9·16·16 = 73728
		{name: "groups 4", op: "aten::convolution", dims: `[[1,8,16,16],[8,2,3,3],[],[],[],[],[],[],[]]`, types: convTypesNoBias,
			values: convValues("[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "4"), flops: 73728, bytes: (2048 + 144 + 2048) * 2},
		// depthwise: groups = channels, 2·1·8·1·9·256 = 36864
		{name: "depthwise", op: "aten::convolution", dims: `[[1,8,16,16],[8,1,3,3],[],[],[],[],[],[],[]]`, types: convTypesNoBias,
			values: convValues("[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "8"), flops: 36864, bytes: (2048 + 72 + 2048) * 2},
		{name: "groups do not fit", op: "aten::convolution", dims: `[[1,8,16,16],[8,2,3,3],[],[],[],[],[],[],[]]`, types: convTypesNoBias,
			values: convValues("[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "2"), err: "groups"},
		// transposed: input [1,4,8,8], weight [4,2,3,3]: O = (8−1)·2 − 2 + 2 + 1 + 1 = 16;
		// each input element meets 2·9 weights: 2·1·4·2·9·64 = 9216; output [1,2,16,16]
		{name: "transposed stride 2", op: "aten::convolution", dims: `[[1,4,8,8],[4,2,3,3],[],[],[],[],[],[],[]]`, types: convTypesNoBias,
			values: convValues("[2, 2]", "[1, 1]", "[1, 1]", "True", "[1, 1]", "1"), flops: 9216, bytes: (256 + 72 + 512) * 2},
		// 1-d: input [2,4,10], weight [6,4,3]: O = 8, 2·2·6·4·3·8 = 2304
		{name: "conv1d", op: "aten::convolution", dims: `[[2,4,10],[6,4,3],[],[],[],[],[],[],[]]`, types: convTypesNoBias,
			values: convValues("[1]", "[0]", "[1]", "False", "[0]", "1"), flops: 2304, bytes: (80 + 72 + 96) * 2},
		// cudnn_convolution(self, weight, padding, stride, dilation, groups, ...) as owlv2's patch embedding:
		// 1008/14 = 72: 2·1·1024·3·14·14·72·72 = 6242697216
		{name: "cudnn_convolution patchify", op: "aten::cudnn_convolution", dims: `[[1,3,1008,1008],[1024,3,14,14],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","ScalarList","ScalarList","ScalarList","Scalar","Scalar","Scalar","Scalar"]`,
			values: `["","","[0, 0]","[14, 14]","[1, 1]","1","False","False","True"]`, flops: 6242697216,
			bytes: (3*1008*1008 + 1024*3*14*14 + 1024*72*72) * 2},
		// a 2021 trace records no Concrete Inputs: stride and padding are unknown
		{name: "no concrete inputs", op: "aten::convolution", dims: dims, types: convTypes, err: "not recorded"},
		// backward: grad_output gives the output sizes; input and weight gradients each cost the
		// forward's 884736, the bias gradient 2·8·32·32 = 16384
		{name: "backward all grads", op: "aten::convolution_backward",
			dims:   `[[2,8,32,32],[2,3,32,32],[8,3,3,3],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","ScalarList","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar","ScalarList"]`,
			values: `["","","","[8]","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1","[True, True, True]"]`,
			flops:  2*884736 + 16384, bytes: (16384 + 216 + 6144 + 6144 + 216 + 8) * 2},
		// the first layer needs no input gradient
		{name: "backward weight only", op: "aten::convolution_backward",
			dims:   `[[2,8,32,32],[2,3,32,32],[8,3,3,3],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","ScalarList","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar","ScalarList"]`,
			values: `["","","","[8]","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1","[False, True, False]"]`,
			flops:  884736, bytes: (16384 + 6144 + 216) * 2},
		// torch 1.x's backward_input of a 1x1 conv: 2·32·2048·512·1·1·7·7; self_size unrecorded: no bytes
		{name: "cudnn backward_input 2021", op: "aten::cudnn_convolution_backward_input",
			dims:  `[[],[32,2048,7,7],[2048,512,1,1],[],[],[],[],[],[],[]]`,
			types: `["GenericList","float","float","GenericList","GenericList","GenericList","Int","Bool","Bool","Bool"]`,
			flops: 3288334336, bytes: -1},
		{name: "cudnn backward_weight 2021", op: "aten::cudnn_convolution_backward_weight",
			dims:  `[[],[32,2048,7,7],[32,512,7,7],[],[],[],[],[],[],[]]`,
			types: `["GenericList","float","float","GenericList","GenericList","GenericList","Int","Bool","Bool","Bool"]`,
			err:   "weight_size was not recorded"},
	})
}
