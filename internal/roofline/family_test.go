package roofline

import "testing"

// TestFamilyOfEveryModel checks that opclass, the one rule both roofline
// and table --by category use, names every op roofline models as that
// model's family: the matrix products, the convolutions, and every name
// in the attention, norm, reduction and elementwise tables (an in-place
// "op_" as its op).
func TestFamilyOfEveryModel(t *testing.T) {
	want := map[string]Family{}
	for _, n := range []string{"aten::mm", "aten::_int_mm", "aten::addmm", "aten::_addmm_activation", "aten::bmm",
		"aten::baddbmm", "aten::addbmm", "aten::_scaled_mm"} {
		want[n] = GEMM
	}
	for _, n := range []string{"aten::convolution", "aten::_convolution", "aten::convolution_overrideable",
		"aten::cudnn_convolution", "aten::cudnn_convolution_transpose", "aten::miopen_convolution",
		"aten::miopen_depthwise_convolution", "aten::miopen_convolution_transpose", "aten::convolution_backward",
		"aten::convolution_backward_overrideable", "aten::cudnn_convolution_backward_input",
		"aten::miopen_convolution_backward_input", "aten::miopen_depthwise_convolution_backward_input",
		"aten::cudnn_convolution_backward_weight", "aten::miopen_convolution_backward_weight",
		"aten::miopen_depthwise_convolution_backward_weight"} {
		want[n] = Conv
	}
	for n := range attentionOps {
		want[n] = Attention
	}
	for n := range normOps {
		want[n] = Norm
	}
	for n := range reductionOps {
		want[n] = Reduction
	}
	for n := range elementwiseOps {
		want["aten::"+n] = Elementwise
		want["aten::"+n+"_"] = Elementwise
	}
	checked := 0
	for n, f := range want {
		if modelOf(n) == nil {
			continue // "aten::where_" and the like: no model, no family
		}
		checked++
		if got := FamilyOf(n); got != f {
			t.Errorf("%s: family %q, want %q", n, got, f)
		}
	}
	if checked < 150 {
		t.Fatalf("checked %d modelled ops, want the whole tables (150 or more)", checked)
	}
	for _, n := range []string{"aten::linear", "aten::matmul", "aten::conv2d", "aten::index_select", "aten::cat"} {
		if got := FamilyOf(n); got != "" {
			t.Errorf("%s has no model of its own, family %q, want none", n, got)
		}
	}
}
