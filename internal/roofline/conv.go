package roofline

// Convolutions. A forward convolution of input [N, C, *I] with weight
// [K, C/groups, *R] computes N·K·ΠO outputs of C/groups·ΠR multiply-adds
// each: FLOPs 2·N·K·(C/groups)·ΠR·ΠO, the output sizes
// O = floor((I + 2·padding − dilation·(R−1) − 1) / stride) + 1 read from
// the recorded stride, padding and dilation ("Concrete Inputs", torch
// 2.1+). C/groups is the weight's second size, so groups only checks the
// input. A transposed convolution (input [N, Cin, *I], weight
// [Cin, K/groups, *R]) is the backward of a forward one: each input element
// meets K/groups·ΠR weights, FLOPs 2·N·Cin·(K/groups)·ΠR·ΠI. Each gradient
// of the backward (input, weight) costs the forward's FLOPs, and the
// backward's recorded grad_output gives the output sizes directly, so no
// stride is needed; the bias gradient adds N·K·ΠO. Bytes: each tensor read
// once and each result written once.

// convArgs says where an op's convolution arguments are (-1: absent).
type convArgs struct {
	bias, stride, padding, dilation, transposed, outPadding, groups int
	isTransposed                                                    bool // a *_transpose op
}

// The argument positions of each forward op, from its schema.
var (
	convolutionArgs  = convArgs{bias: 2, stride: 3, padding: 4, dilation: 5, transposed: 6, outPadding: 7, groups: 8}
	cudnnConvArgs    = convArgs{bias: -1, padding: 2, stride: 3, dilation: 4, groups: 5, transposed: -1, outPadding: -1}
	cudnnConvOldArgs = convArgs{bias: 2, padding: 3, stride: 4, dilation: 5, groups: 6, transposed: -1, outPadding: -1}
	cudnnConvTArgs   = convArgs{bias: -1, padding: 2, outPadding: 3, stride: 4, dilation: 5, groups: 6, transposed: -1, isTransposed: true}
	miopenConvArgs   = convArgs{bias: 2, padding: 3, stride: 4, dilation: 5, groups: 6, transposed: -1, outPadding: -1}
	miopenConvTArgs  = convArgs{bias: 2, padding: 3, outPadding: 4, stride: 5, dilation: 6, groups: 7, transposed: -1, isTransposed: true}
)

// convParam reads a per-dimension list argument, one value standing for
// every spatial dimension (as torch expands it); def when the op has none.
func convParam(c *Call, i, spatial int, def int64) ([]int64, bool) {
	if i < 0 {
		out := make([]int64, spatial)
		for k := range out {
			out[k] = def
		}
		return out, true
	}
	v, ok := c.intsValue(i)
	if !ok {
		return nil, false
	}
	switch len(v) {
	case spatial:
		return v, true
	case 1:
		out := make([]int64, spatial)
		for k := range out {
			out[k] = v[0]
		}
		return out, true
	}
	return nil, false
}

// convShapes splits input and weight into batch, channels and spatial
// sizes; an unbatched input [C, *I] has N = 1.
func convShapes(in, w []int64) (n, cin int64, spatialIn []int64, ok bool) {
	s := len(w) - 2
	if s < 1 {
		return 0, 0, nil, false
	}
	switch len(in) {
	case s + 2:
		return in[0], in[1], in[2:], true
	case s + 1:
		return 1, in[0], in[1:], true
	}
	return 0, 0, nil, false
}

// convForward models the forward ops; cudnnConvolution picks its layout.
func convForward(pos convArgs) modelFunc {
	return func(c *Call) (Estimate, error) { return convFwd(c, pos) }
}

// cudnnConvolution: torch 1.8+ writes (self, weight, padding, stride, ...),
// older torch (self, weight, bias, padding, stride, ...): the recorded
// value at position 2 tells which.
func cudnnConvolution(c *Call) (Estimate, error) {
	if _, ok := c.intsValue(2); !ok {
		if _, old := c.intsValue(3); old {
			return convFwd(c, cudnnConvOldArgs)
		}
	}
	return convFwd(c, cudnnConvArgs)
}

func convFwd(c *Call, pos convArgs) (Estimate, error) {
	in, okI := c.tensor(0)
	w, okW := c.tensor(1)
	if !okI || !okW {
		return noModel("needs an input and a weight tensor")
	}
	n, cin, spIn, ok := convShapes(in, w)
	if !ok {
		return noModel("input %v and weight %v are not [N, C, *spatial] and [K, C/groups, *kernel]", in, w)
	}
	s := len(spIn)
	transposed := pos.isTransposed
	if pos.transposed >= 0 {
		t, ok := c.boolValue(pos.transposed)
		if !ok {
			return noModel("transposed was not recorded (Concrete Inputs, torch 2.1+)")
		}
		transposed = t
	}
	stride, okS := convParam(c, pos.stride, s, 1)
	pad, okP := convParam(c, pos.padding, s, 0)
	dil, okD := convParam(c, pos.dilation, s, 1)
	if !okS || !okP || !okD {
		return noModel("stride, padding and dilation were not recorded (Concrete Inputs, torch 2.1+)")
	}
	groups := int64(1)
	if pos.groups >= 0 {
		g, ok := c.intValue(pos.groups)
		if !ok || g < 1 {
			return noModel("groups was not recorded (Concrete Inputs, torch 2.1+)")
		}
		groups = g
	}
	kernel := w[2:]
	dt := c.dtype(0)
	var flops, k int64
	out := make([]int64, s)
	if !transposed {
		k = w[0]
		if cin != w[1]*groups {
			return noModel("input channels %d are not weight's %d x groups %d", cin, w[1], groups)
		}
		for i := range out {
			if stride[i] < 1 || dil[i] < 1 {
				return noModel("stride %v, dilation %v", stride, dil)
			}
			span := spIn[i] + 2*pad[i] - dil[i]*(kernel[i]-1) - 1
			if span < 0 {
				return noModel("kernel %v is larger than the padded input %v", kernel, spIn)
			}
			out[i] = span/stride[i] + 1
		}
		f, ok := mul(append([]int64{2, n, k, w[1]}, append(kernel, out...)...)...)
		if !ok {
			return Estimate{}, errOverflow
		}
		flops = f
	} else {
		outPad, ok := convParam(c, pos.outPadding, s, 0)
		if !ok {
			return noModel("output_padding was not recorded (Concrete Inputs, torch 2.1+)")
		}
		if cin != w[0] {
			return noModel("input channels %d are not the transposed weight's %d", cin, w[0])
		}
		k = w[1] * groups
		for i := range out {
			out[i] = (spIn[i]-1)*stride[i] - 2*pad[i] + dil[i]*(kernel[i]-1) + outPad[i] + 1
			if out[i] < 1 {
				return noModel("output size %d < 1", out[i])
			}
		}
		f, ok := mul(append([]int64{2, n, cin, w[1]}, append(kernel, spIn...)...)...)
		if !ok {
			return Estimate{}, errOverflow
		}
		flops = f
	}
	model := "conv_fwd"
	if transposed {
		model = "conv_transpose_fwd"
	}
	e := Estimate{Family: Conv, Model: model, FLOPs: flops, DType: dt}
	refs := []tensorRef{tref(in, dt), tref(w, c.dtype(1)), tref(append([]int64{n, k}, out...), dt)}
	if b, ok := c.tensor(pos.bias); ok && pos.bias >= 0 && c.dtype(pos.bias) != "" {
		refs = append(refs, tref(b, c.dtype(pos.bias)))
	}
	return withBytes(e, refs...)
}

// convolutionBackward: convolution_backward(grad_output, input, weight,
// bias_sizes, stride, padding, dilation, transposed, output_padding,
// groups, output_mask).
func convolutionBackward(c *Call) (Estimate, error) {
	gout, okG := c.tensor(0)
	in, okI := c.tensor(1)
	w, okW := c.tensor(2)
	if !okG || !okI || !okW {
		return noModel("needs grad_output, input and weight tensors")
	}
	mask, ok := c.boolsValue(10)
	if !ok || len(mask) != 3 {
		return noModel("output_mask was not recorded (Concrete Inputs, torch 2.1+)")
	}
	transposed, ok := c.boolValue(7)
	if !ok {
		return noModel("transposed was not recorded (Concrete Inputs, torch 2.1+)")
	}
	n, cin, spIn, ok := convShapes(in, w)
	_, kOut, spOut, okO := convShapes(gout, w)
	if !ok || !okO || len(spOut) != len(spIn) {
		return noModel("grad_output %v, input %v and weight %v do not fit", gout, in, w)
	}
	kernel := w[2:]
	var fwd int64
	if !transposed {
		f, ok := mul(append([]int64{2, n, kOut, w[1]}, append(kernel, spOut...)...)...)
		if !ok {
			return Estimate{}, errOverflow
		}
		fwd = f
	} else {
		f, ok := mul(append([]int64{2, n, cin, w[1]}, append(kernel, spIn...)...)...)
		if !ok {
			return Estimate{}, errOverflow
		}
		fwd = f
	}
	var flops int64
	dt := c.dtype(0)
	refs := []tensorRef{tref(gout, dt)}
	if mask[0] {
		flops += fwd
		refs = append(refs, tref(w, c.dtype(2)), tref(in, c.dtype(1)))
	}
	if mask[1] {
		flops += fwd
		refs = append(refs, tref(in, c.dtype(1)), tref(w, c.dtype(2)))
	}
	if mask[2] {
		nb, ok := mul(append([]int64{n, kOut}, spOut...)...)
		if !ok {
			return Estimate{}, errOverflow
		}
		flops += nb
		refs = append(refs, tref([]int64{kOut}, dt))
	}
	if flops < 0 {
		return Estimate{}, errOverflow
	}
	return withBytes(Estimate{Family: Conv, Model: "conv_bwd", FLOPs: flops, DType: dt}, refs...)
}

// convBackwardInput: cudnn_/miopen_convolution_backward_input(self_size,
// grad_output, weight, padding, stride, dilation, groups, ...): the input
// gradient, torch 1.x (2.x records convolution_backward).
func convBackwardInput(c *Call) (Estimate, error) {
	gout, okG := c.tensor(1)
	w, okW := c.tensor(2)
	if !okG || !okW {
		return noModel("needs grad_output and weight tensors")
	}
	n, k, spOut, ok := convShapes(gout, w)
	if !ok || k != w[0] {
		return noModel("grad_output %v and weight %v do not fit", gout, w)
	}
	f, ok := mul(append([]int64{2, n, k, w[1]}, append(w[2:], spOut...)...)...)
	if !ok {
		return Estimate{}, errOverflow
	}
	dt := c.dtype(1)
	e := Estimate{Family: Conv, Model: "conv_bwd_input", FLOPs: f, DType: dt}
	size, ok := c.intsValue(0)
	if !ok {
		// the input's size is an int list: recorded from torch 2.1 only
		e, err := withBytes(e, tref(gout, dt), tref(w, c.dtype(2)))
		e.HasBytes = false
		return e, err
	}
	return withBytes(e, tref(gout, dt), tref(w, c.dtype(2)), tref(size, dt))
}

// convBackwardWeight: cudnn_/miopen_convolution_backward_weight(
// weight_size, grad_output, self, padding, stride, dilation, groups, ...).
func convBackwardWeight(c *Call) (Estimate, error) {
	gout, okG := c.tensor(1)
	in, okI := c.tensor(2)
	size, okW := c.intsValue(0)
	if !okG || !okI {
		return noModel("needs grad_output and input tensors")
	}
	if !okW {
		return noModel("weight_size was not recorded (Concrete Inputs, torch 2.1+)")
	}
	n, k, spOut, ok := convShapes(gout, size)
	if !ok || k != size[0] || len(in) != len(gout) {
		return noModel("grad_output %v, input %v and weight size %v do not fit", gout, in, size)
	}
	f, ok := mul(append([]int64{2, n, k, size[1]}, append(size[2:], spOut...)...)...)
	if !ok {
		return Estimate{}, errOverflow
	}
	dt := c.dtype(1)
	e := Estimate{Family: Conv, Model: "conv_bwd_weight", FLOPs: f, DType: dt}
	return withBytes(e, tref(gout, dt), tref(in, c.dtype(2)), tref(size, dt))
}
