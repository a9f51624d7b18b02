package roofline

import (
	"strings"

	"github.com/tracetab/tracetab/internal/opclass"
)

// composites are ops whose work is done by the ops they call, which the
// trace records below them: they are never modelled themselves, so their
// children are (linear's addmm, matmul's mm or bmm, conv2d's convolution,
// torch 1.x's cudnn_convolution_backward's _input and _weight).
var composites = map[string]bool{
	"aten::linear": true, "aten::matmul": true, "aten::einsum": true,
	"aten::conv1d": true, "aten::conv2d": true, "aten::conv3d": true,
	"aten::conv_transpose1d": true, "aten::conv_transpose2d": true, "aten::conv_transpose3d": true,
	"aten::cudnn_convolution_backward": true, "aten::miopen_convolution_backward": true,
	"aten::miopen_depthwise_convolution_backward": true,
}

// modelOf returns the performance model of the op with this name, nil
// when the op has none.
func modelOf(name string) modelFunc {
	if composites[name] {
		return nil
	}
	switch name {
	case "aten::mm", "aten::_int_mm":
		return mm
	case "aten::addmm", "aten::_addmm_activation":
		return addmm
	case "aten::bmm":
		return bmm
	case "aten::baddbmm":
		return baddbmm(false)
	case "aten::addbmm":
		return baddbmm(true)
	case "aten::_scaled_mm":
		return scaledMM
	case "aten::convolution", "aten::_convolution", "aten::convolution_overrideable":
		return convForward(convolutionArgs)
	case "aten::cudnn_convolution":
		return cudnnConvolution
	case "aten::cudnn_convolution_transpose":
		return convForward(cudnnConvTArgs)
	case "aten::miopen_convolution", "aten::miopen_depthwise_convolution":
		return convForward(miopenConvArgs)
	case "aten::miopen_convolution_transpose":
		return convForward(miopenConvTArgs)
	case "aten::convolution_backward", "aten::convolution_backward_overrideable":
		return convolutionBackward
	case "aten::cudnn_convolution_backward_input", "aten::miopen_convolution_backward_input",
		"aten::miopen_depthwise_convolution_backward_input":
		return convBackwardInput
	case "aten::cudnn_convolution_backward_weight", "aten::miopen_convolution_backward_weight",
		"aten::miopen_depthwise_convolution_backward_weight":
		return convBackwardWeight
	}
	if a, ok := attentionOps[name]; ok {
		return attention(a)
	}
	if f, ok := normOps[name]; ok {
		return norm(f)
	}
	if d, ok := reductionOps[name]; ok {
		return reduction(d)
	}
	if base, ok := strings.CutPrefix(name, "aten::"); ok {
		if k, ok := elementwiseOps[base]; ok {
			return elementwise(k, false)
		}
		if b, ok := strings.CutSuffix(base, "_"); ok {
			if k, ok := elementwiseOps[b]; ok {
				return elementwise(k, k.special == 0)
			}
		}
	}
	return nil
}

// FamilyOf is the family of the op with this name, "" when it has no
// model. The family is opclass's, the one rule table --by category files
// device time by (family_test.go checks that it names every modelled op
// as its model does).
func FamilyOf(name string) Family {
	if modelOf(name) == nil {
		return ""
	}
	return Family(opclass.OfOp(name))
}

// Model computes the estimate of one call of op name from its recorded
// arguments (the compact JSON of Input Dims, Input type and Concrete
// Inputs). A nil error with a zero Family means the op has no model.
func Model(name, dims, types, values string) (Estimate, error) {
	f := modelOf(name)
	if f == nil {
		return Estimate{}, nil
	}
	c, ok := ParseCall(dims, types, values)
	if !ok {
		return noModel("no input shapes (record_shapes=True records them)")
	}
	return f(&c)
}
