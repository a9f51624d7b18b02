package roofline

import "strings"

// Elementwise, normalisation and reduction ops are memory-bound: their
// bytes are the figure to read, and their FLOPs a stated convention.
//
// Elementwise (unary, binary, ternary): the tensor inputs among the op's
// first one, two or three arguments are read (each at its own size, so a
// broadcast operand is read once), the result, as large as the inputs
// broadcast together, is written at the first input's dtype (bool for
// comparisons); an in-place op (add_) reads and writes self. FLOPs: 1 per
// result element for arithmetic, 0 for copies, fills and selections
// (copy_, fill_, zero_, where, masked_fill). copy_ reads src and writes
// self; fill_ and zero_ write self.
//
// Normalisation (layer, RMS, group, batch and instance norm, softmax and
// log_softmax): every recorded tensor is read once and an output as large
// as the first tensor written once; FLOPs per element of the first tensor:
// 5 for the norms with a mean (statistics 2, normalise 1, scale and shift
// 2), 4 for RMS norm, 5 for softmax (max, subtract, exp, sum, divide); a
// backward op twice its forward. Their small side outputs (mean, rstd,
// parameter gradients) are not counted.
//
// Reductions (sum, mean, amax, max, var, norm, ...): the input is read,
// the reduced result written; 1 FLOP per input element.

// ewKind is how an elementwise op counts.
type ewKind struct {
	arity   int // tensor inputs among the first arity arguments
	flops   int64
	compare bool // the result is bool
	special byte // 'c' copy_ (reads src, writes self), 'f' fill_/zero_ (writes self)
}

var (
	ewUnary   = ewKind{arity: 1, flops: 1}
	ewBinary  = ewKind{arity: 2, flops: 1}
	ewTernary = ewKind{arity: 3, flops: 1}
	ewCompare = ewKind{arity: 2, flops: 1, compare: true}
	ewSelect2 = ewKind{arity: 2}
	ewSelect3 = ewKind{arity: 3}
)

// elementwiseOps maps an op's base name (aten::NAME, also NAME_ in place)
// to how it counts.
var elementwiseOps = map[string]ewKind{
	"copy": {arity: 2, special: 'c'}, "fill": {arity: 1, special: 'f'}, "zero": {arity: 1, special: 'f'},
	"where": ewSelect3, "masked_fill": ewSelect2,
	"eq": ewCompare, "ne": ewCompare, "lt": ewCompare, "le": ewCompare, "gt": ewCompare, "ge": ewCompare,
	"addcmul": ewTernary, "addcdiv": ewTernary, "lerp": ewTernary,
}

func init() {
	for _, n := range strings.Fields(`abs neg exp exp2 expm1 log log2 log10 log1p sqrt rsqrt reciprocal sin cos tan
		tanh sigmoid relu relu6 gelu silu mish elu selu celu softplus hardtanh hardswish hardsigmoid leaky_relu erf
		erfinv floor ceil round trunc sign sgn clamp clamp_min clamp_max threshold nan_to_num bitwise_not
		logical_not frac square`) {
		elementwiseOps[n] = ewUnary
	}
	for _, n := range strings.Fields(`add sub mul div rsub pow maximum minimum fmod remainder atan2 hypot
		logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor floor_divide threshold_backward
		gelu_backward silu_backward sigmoid_backward tanh_backward hardtanh_backward leaky_relu_backward
		hardswish_backward hardsigmoid_backward softplus_backward mish_backward`) {
		elementwiseOps[n] = ewBinary
	}
}

// broadcast is the shape of a and b broadcast together (numpy's rule).
func broadcast(a, b []int64) ([]int64, bool) {
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := 0; i < n; i++ {
		x, y := int64(1), int64(1)
		if j := len(a) - n + i; j >= 0 {
			x = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			y = b[j]
		}
		switch {
		case x == y || y == 1:
			out[i] = x
		case x == 1:
			out[i] = y
		default:
			return nil, false
		}
	}
	return out, true
}

// elementwise is the model of one elementwise op; inPlace for NAME_.
func elementwise(k ewKind, inPlace bool) modelFunc {
	return func(c *Call) (Estimate, error) {
		self, ok := c.tensor(0)
		if !ok {
			return noModel("needs a tensor input")
		}
		dt := c.dtype(0)
		switch k.special {
		case 'c':
			src, ok := c.tensor(1)
			if !ok {
				return noModel("needs self and src tensors")
			}
			e := Estimate{Family: Elementwise, Model: "copy", DType: dt}
			return withBytes(e, tref(src, c.dtype(1)), tref(self, dt))
		case 'f':
			return withBytes(Estimate{Family: Elementwise, Model: "fill", DType: dt}, tref(self, dt))
		}
		refs := []tensorRef{tref(self, dt)}
		out := self
		for i := 1; i < k.arity; i++ {
			d, ok := c.tensor(i)
			if !ok {
				continue // a Scalar operand
			}
			if out, ok = broadcast(out, d); !ok {
				return noModel("inputs %v do not broadcast", dimsOf(c, k.arity))
			}
			refs = append(refs, tref(d, c.dtype(i)))
		}
		outDT := dt
		if k.compare {
			outDT = "bool"
		}
		if inPlace {
			if len(out) != len(self) {
				return noModel("in-place result %v is not self's %v", out, self)
			}
			out = self
		}
		n, ok := numel(out)
		if !ok {
			return Estimate{}, errOverflow
		}
		f, ok := mul(n, k.flops)
		if !ok {
			return Estimate{}, errOverflow
		}
		model := [...]string{"", "unary", "binary", "ternary"}[k.arity]
		if k.flops == 0 {
			model = "select"
		}
		refs = append(refs, tref(out, outDT))
		return withBytes(Estimate{Family: Elementwise, Model: model, FLOPs: f, DType: dt}, refs...)
	}
}

func dimsOf(c *Call, n int) [][]int64 {
	var out [][]int64
	for i := 0; i < n && i < len(c.Args); i++ {
		out = append(out, c.Args[i].Dims)
	}
	return out
}

// normOps are the normalisation ops and their FLOPs per element.
var normOps = map[string]int64{
	"aten::layer_norm": 5, "aten::native_layer_norm": 5, "aten::group_norm": 5, "aten::native_group_norm": 5,
	"aten::batch_norm": 5, "aten::native_batch_norm": 5, "aten::_batch_norm_impl_index": 5,
	"aten::cudnn_batch_norm": 5, "aten::miopen_batch_norm": 5, "aten::_native_batch_norm_legit": 5,
	"aten::_native_batch_norm_legit_no_training": 5, "aten::instance_norm": 5,
	"aten::rms_norm": 4, "aten::_fused_rms_norm": 4,
	"aten::softmax": 5, "aten::_softmax": 5, "aten::log_softmax": 5, "aten::_log_softmax": 5,
	"aten::native_layer_norm_backward": 10, "aten::native_group_norm_backward": 10,
	"aten::native_batch_norm_backward": 10, "aten::cudnn_batch_norm_backward": 10,
	"aten::miopen_batch_norm_backward": 10, "aten::_fused_rms_norm_backward": 8,
	"aten::_softmax_backward_data": 10, "aten::_log_softmax_backward_data": 10,
}

// norm is the model of one normalisation op.
func norm(perElem int64) modelFunc {
	return func(c *Call) (Estimate, error) {
		first, ok := c.tensor(0)
		if !ok {
			return noModel("needs a tensor input")
		}
		dt := c.dtype(0)
		var refs []tensorRef
		for i := range c.Args {
			if d, ok := c.tensor(i); ok && (c.dtype(i) != "" || !c.HasTypes) {
				refs = append(refs, tref(d, c.dtype(i)))
			}
		}
		refs = append(refs, tref(first, dt))
		n, ok := numel(first)
		if !ok {
			return Estimate{}, errOverflow
		}
		f, ok := mul(n, perElem)
		if !ok {
			return Estimate{}, errOverflow
		}
		return withBytes(Estimate{Family: Norm, Model: "norm", FLOPs: f, DType: dt}, refs...)
	}
}

// reductionOps are the reductions and the position of their dim argument
// (-1: they reduce everything).
var reductionOps = map[string]int{
	"aten::sum": 1, "aten::mean": 1, "aten::amax": 1, "aten::amin": 1, "aten::max": 1, "aten::min": 1,
	"aten::prod": 1, "aten::argmax": 1, "aten::argmin": 1, "aten::logsumexp": 1, "aten::var": 1, "aten::std": 1,
	"aten::var_mean": 1, "aten::std_mean": 1, "aten::all": 1, "aten::any": 1, "aten::nansum": 1,
	"aten::norm": 2, "aten::linalg_vector_norm": 2, "aten::count_nonzero": 1,
}

// reduction is the model of one reduction.
func reduction(dimPos int) modelFunc {
	return func(c *Call) (Estimate, error) {
		in, ok := c.tensor(0)
		if !ok {
			return noModel("needs a tensor input")
		}
		if _, other := c.tensor(1); other && c.dtype(1) != "" {
			return elementwise(ewBinary, false)(c) // max(self, other) and the like
		}
		n, ok := numel(in)
		if !ok {
			return Estimate{}, errOverflow
		}
		dt := c.dtype(0)
		e := Estimate{Family: Reduction, Model: "reduction", FLOPs: n, DType: dt}
		out, known := reducedDims(c, in, dimPos)
		if !known {
			e, err := withBytes(e, tref(in, dt))
			e.HasBytes = false // the result's size needs the recorded dim
			return e, err
		}
		return withBytes(e, tref(in, dt), tref(out, dt))
	}
}

// reducedDims is the result's sizes: in without the reduced dimensions
// (kept as 1 with keepdim, which holds the same bytes). Without a dim
// argument (or None) everything is reduced; a dim the trace did not record
// leaves known false.
func reducedDims(c *Call, in []int64, dimPos int) (out []int64, known bool) {
	if dimPos >= len(c.Args) {
		return nil, true
	}
	a := c.arg(dimPos)
	if c.HasTypes && a.Type == "" && a.Value == "" {
		return nil, true // None: everything
	}
	dims, ok := c.intsValue(dimPos)
	if !ok {
		v, okInt := c.intValue(dimPos)
		if !okInt {
			return nil, false
		}
		dims = []int64{v}
	}
	if len(dims) == 0 {
		return nil, true
	}
	drop := make([]bool, len(in))
	for _, d := range dims {
		if d < 0 {
			d += int64(len(in))
		}
		if d < 0 || d >= int64(len(in)) {
			return nil, false
		}
		drop[d] = true
	}
	for i, x := range in {
		if !drop[i] {
			out = append(out, x)
		}
	}
	return out, true
}
