package compile

import (
	"strconv"
	"strings"
)

// Decoded is what an Inductor kernel's name says about it. Inductor names
// its Triton kernels "triton_" + the first three letters of the kernel
// category + "_fused_" + the aten ops of the fused nodes joined by "_" +
// "_" + an index (torch._inductor.codegen.triton, descriptive_names =
// "original_aten"): triton_poi_fused__unsafe_view_mul_silu_2 is a pointwise
// kernel fusing _unsafe_view, mul and silu. Splitting the joined ops is a
// heuristic: op names contain "_" themselves, so the split prefers the
// longest known aten op name and marks the words it does not know.
type Decoded struct {
	Category string   // "pointwise", "reduction", "persistent_reduction", "template", "foreach", "split_scan", or the raw 3 letters
	Ops      []string // the fused ops, in the order of the name
	Unknown  []string // words of Ops that are not known aten op names
	OK       bool     // the name had Inductor's form and named at least one op
	Why      string   // when !OK: why the name could not be decoded
}

var categories = map[string]string{
	"poi": "pointwise", "red": "reduction", "per": "persistent_reduction", "tem": "template",
	"for": "foreach", "spl": "split_scan", "sca": "scan", "unk": "unknown",
}

// IsInductorKernel reports whether a kernel name is one Inductor gave a
// Triton kernel (every generated kernel's name starts with "triton_").
func IsInductorKernel(name string) bool { return strings.HasPrefix(name, "triton_") }

// Decode reads an Inductor kernel name.
func Decode(name string) Decoded {
	rest, ok := strings.CutPrefix(name, "triton_")
	if !ok {
		return Decoded{Why: "not an Inductor kernel name"}
	}
	cat, rest, ok := strings.Cut(rest, "_")
	if !ok || len(cat) != 3 {
		return Decoded{Why: "no kernel category after triton_ (an older Inductor name)"}
	}
	d := Decoded{Category: cat}
	if c, ok := categories[cat]; ok {
		d.Category = c
	}
	body, ok := strings.CutPrefix(rest, "fused")
	if !ok {
		d.Why = "no fused op list"
		return d
	}
	// drop the trailing _<index>
	if k := strings.LastIndexByte(body, '_'); k >= 0 {
		if _, err := strconv.Atoi(body[k+1:]); err == nil {
			body = body[:k]
		}
	}
	body = strings.TrimPrefix(body, "_")
	if body == "" {
		d.Why = "the name carries no op names"
		return d
	}
	d.Ops, d.Unknown = splitOps(body)
	d.OK = len(d.Ops) > 0
	if !d.OK {
		d.Why = "the name carries no op names"
	}
	return d
}

// splitOps splits "_unsafe_view_mul_silu" into _unsafe_view, mul, silu:
// an empty word (from "__") starts an op with "_"; at each position the
// longest run of words that is a known op name wins, else one word.
func splitOps(body string) (ops, unknown []string) {
	words := strings.Split(body, "_")
	for i := 0; i < len(words); {
		under := ""
		for i < len(words) && words[i] == "" {
			under = "_"
			i++
		}
		if i >= len(words) {
			break
		}
		best := 0
		for n := min(len(words)-i, 6); n >= 1; n-- {
			cand := under + strings.Join(words[i:i+n], "_")
			if knownOps[cand] && !hasEmpty(words[i:i+n]) {
				best = n
				break
			}
		}
		if best == 0 {
			op := under + words[i]
			ops = append(ops, op)
			unknown = append(unknown, op)
			i++
			continue
		}
		ops = append(ops, under+strings.Join(words[i:i+best], "_"))
		i += best
	}
	return ops, unknown
}

func hasEmpty(w []string) bool {
	for _, s := range w {
		if s == "" {
			return true
		}
	}
	return false
}

// knownOps are aten and prims op names (without the namespace) that
// Inductor's descriptive names carry.
var knownOps = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`
abs acos acosh add addcdiv addcmul addmm addmv alias all amax amin any arange argmax argmin as_strided
as_strided_scatter asin asinh atan atan2 atanh avg_pool2d avg_pool2d_backward avg_pool3d baddbmm bernoulli
bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor bmm bucketize cat ceil
clamp clamp_max clamp_min clone constant_pad_nd convert_element_type convolution convolution_backward copy cos
cosh cumprod cumsum deg2rad detach diagonal diagonal_scatter div elu elu_backward embedding
embedding_dense_backward empty empty_like empty_strided eq erf erfc erfinv exp exp2 expand expm1 fill flip
floor floor_divide fmod frac full full_like gather ge gelu gelu_backward glu gt hardsigmoid hardswish
hardtanh hardtanh_backward hypot index index_add index_put index_select iota isinf isnan le leaky_relu
leaky_relu_backward lerp lift_fresh lift_fresh_copy log log10 log1p log2 log_softmax logical_and logical_not
logical_or logical_xor logsumexp lt masked_fill max max_pool2d_with_indices max_pool2d_with_indices_backward
maximum mean min minimum mish mm mul mv native_batch_norm native_batch_norm_backward native_dropout
native_dropout_backward native_group_norm native_group_norm_backward native_layer_norm
native_layer_norm_backward ne neg new_empty new_full new_ones new_zeros nll_loss_backward nll_loss_forward
nonzero norm ones ones_like permute pow prod rand rand_like randint randn randn_like reciprocal reflection_pad2d
relu remainder repeat reshape round rsqrt rsub scalar_tensor scatter scatter_add scatter_reduce select
select_backward select_scatter sigmoid sigmoid_backward sign silu silu_backward sin sinh slice slice_backward
slice_scatter softmax softmax_backward_data softplus sort split split_with_sizes sqrt square squeeze stack
std sub sum t tan tanh tanh_backward threshold threshold_backward to_copy topk transpose tril triu trunc
unbind unsqueeze upsample_bilinear2d upsample_nearest2d var var_mean view view_as_complex view_as_real where
xlogy zeros zeros_like _adaptive_avg_pool2d _adaptive_avg_pool2d_backward _log_softmax _log_softmax_backward_data
_native_batch_norm_legit _native_batch_norm_legit_functional _native_batch_norm_legit_no_training _softmax
_softmax_backward_data _to_copy _unsafe_index _unsafe_index_put _unsafe_view _weight_norm_interface
_scaled_dot_product_flash_attention _scaled_dot_product_efficient_attention _scaled_mm
`) {
		m[s] = true
	}
	return m
}()
