package roofline

// Attention. The forward of softmax(Q·Kᵀ)·V for queries [B, H, Sq, D],
// keys [B, Hk, Sk, D] and values [B, Hk, Sk, Dv] is two matrix products
// per head: FLOPs B·H·Sq·Sk·(2·D + 2·Dv), 4·B·H·Sq·Sk·D when D = Dv (the
// softmax is not counted; H is the query heads, so grouped-query attention
// counts every query head). A causal mask (is_causal recorded True, or a
// causal custom_mask_type) halves it, the convention of FlashAttention's
// benchmarks (exactly, an Sq = Sk mask keeps Sq·(Sq+1)/2 of Sq² scores).
// The backward is 2.5 times the forward (the same convention: five matrix
// products to the forward's two), rounded down to a whole FLOP. Bytes:
// every recorded tensor read once, and the output (forward) or the
// gradients of Q, K and V (backward) written once. Varlen calls (packed
// sequences with cumulative lengths) are not modelled: their FLOPs depend
// on each sequence's length, which the trace does not hold.

// attnArgs says where an attention op's arguments are.
type attnArgs struct {
	q, k, v  int  // tensor positions
	bshd     bool // [B, S, H, D] layout (the flash/efficient kernels); else [B, H, S, D]
	causal   int  // a bool is_causal, -1 none
	maskType int  // an int custom_mask_type (0 none, 1 and 2 causal), -1 none
	mask     int  // an attn_mask/attn_bias tensor (a given mask is never causal), -1 none
	cuSeq    int  // cumulative sequence lengths (varlen), -1 none
	backward bool
}

// attentionOps are the attention ops and where their arguments are, from
// their schemas.
var attentionOps = map[string]attnArgs{
	"aten::scaled_dot_product_attention":                              {q: 0, k: 1, v: 2, causal: 5, maskType: -1, mask: 3, cuSeq: -1},
	"aten::_scaled_dot_product_attention_math":                        {q: 0, k: 1, v: 2, causal: 5, maskType: -1, mask: 3, cuSeq: -1},
	"aten::_scaled_dot_product_flash_attention":                       {q: 0, k: 1, v: 2, causal: 4, maskType: -1, mask: -1, cuSeq: -1},
	"aten::_scaled_dot_product_efficient_attention":                   {q: 0, k: 1, v: 2, causal: 6, maskType: -1, mask: 3, cuSeq: -1},
	"aten::_scaled_dot_product_cudnn_attention":                       {q: 0, k: 1, v: 2, causal: 6, maskType: -1, mask: 3, cuSeq: -1},
	"aten::_scaled_dot_product_fused_attention_overrideable":          {q: 0, k: 1, v: 2, causal: 5, maskType: -1, mask: 3, cuSeq: -1},
	"aten::_flash_attention_forward":                                  {q: 0, k: 1, v: 2, bshd: true, causal: 8, maskType: -1, mask: -1, cuSeq: 3},
	"aten::_efficient_attention_forward":                              {q: 0, k: 1, v: 2, bshd: true, causal: -1, maskType: 9, mask: 3, cuSeq: 4},
	"aten::_scaled_dot_product_flash_attention_backward":              {q: 1, k: 2, v: 3, causal: 11, maskType: -1, mask: -1, cuSeq: -1, backward: true},
	"aten::_scaled_dot_product_efficient_attention_backward":          {q: 1, k: 2, v: 3, causal: 11, maskType: -1, mask: 4, cuSeq: -1, backward: true},
	"aten::_scaled_dot_product_cudnn_attention_backward":              {q: 1, k: 2, v: 3, causal: 14, maskType: -1, mask: 8, cuSeq: 9, backward: true},
	"aten::_scaled_dot_product_fused_attention_overrideable_backward": {q: 1, k: 2, v: 3, causal: 8, maskType: -1, mask: 4, cuSeq: -1, backward: true},
	"aten::_flash_attention_backward":                                 {q: 1, k: 2, v: 3, bshd: true, causal: 11, maskType: -1, mask: -1, cuSeq: 6, backward: true},
	"aten::_efficient_attention_backward":                             {q: 1, k: 2, v: 3, bshd: true, causal: -1, maskType: 14, mask: 4, cuSeq: 6, backward: true},
}

// heads reads [.., H, S, D] (or [B, S, H, D]) sizes as batch, heads, seq, dim.
func heads(d []int64, bshd bool) (b, h, s, dim int64, ok bool) {
	if bshd {
		if len(d) != 4 {
			return 0, 0, 0, 0, false
		}
		return d[0], d[2], d[1], d[3], true
	}
	if len(d) < 3 {
		return 0, 0, 0, 0, false
	}
	b = 1
	for _, x := range d[:len(d)-3] {
		var ok bool
		if b, ok = mul(b, x); !ok {
			return 0, 0, 0, 0, false
		}
	}
	return b, d[len(d)-3], d[len(d)-2], d[len(d)-1], true
}

// attention is the model of one attention op.
func attention(pos attnArgs) modelFunc {
	return func(c *Call) (Estimate, error) {
		q, okQ := c.tensor(pos.q)
		k, okK := c.tensor(pos.k)
		v, okV := c.tensor(pos.v)
		if !okQ || !okK || !okV {
			return noModel("needs query, key and value tensors")
		}
		if pos.cuSeq >= 0 {
			if d, ok := c.tensor(pos.cuSeq); ok && len(d) > 0 && c.dtype(pos.cuSeq) != "" {
				return noModel("packed sequences (cumulative lengths): the per-sequence lengths are not in the trace")
			}
		}
		bq, hq, sq, dq, ok1 := heads(q, pos.bshd)
		bk, hk, sk, dk, ok2 := heads(k, pos.bshd)
		bv, hv, sv, dv, ok3 := heads(v, pos.bshd)
		if !ok1 || !ok2 || !ok3 || bq != bk || bk != bv || hk != hv || sk != sv || dq != dk || hk < 1 || hq%hk != 0 {
			return noModel("query %v, key %v and value %v do not fit", q, k, v)
		}
		causal := false
		masked := false // a given mask is never causal
		if pos.mask >= 0 {
			_, isTensor := c.tensor(pos.mask)
			masked = isTensor && c.dtype(pos.mask) != ""
		}
		switch {
		case pos.causal >= 0:
			cv, ok := c.boolValue(pos.causal)
			if !ok {
				return noModel("is_causal was not recorded (Concrete Inputs, torch 2.1+)")
			}
			causal = cv && !masked
		case pos.maskType >= 0:
			mt, ok := c.intValue(pos.maskType)
			if !ok {
				return noModel("custom_mask_type was not recorded (Concrete Inputs, torch 2.1+)")
			}
			causal = mt != 0
		}
		dsum, ok := add(dq, dv)
		if !ok {
			return Estimate{}, errOverflow
		}
		f, ok := mul(2, bq, hq, sq, sk, dsum)
		if !ok {
			return Estimate{}, errOverflow
		}
		if causal {
			f /= 2
		}
		model := "attention_fwd"
		dt := c.dtype(pos.q)
		var refs []tensorRef
		for i := range c.Args {
			if d, ok := c.tensor(i); ok && c.dtype(i) != "" {
				refs = append(refs, tref(d, c.dtype(i)))
			}
		}
		if pos.backward {
			model = "attention_bwd"
			if f > (1<<62)/5 {
				return Estimate{}, errOverflow
			}
			f = f * 5 / 2
			refs = append(refs, tref(q, dt), tref(k, c.dtype(pos.k)), tref(v, c.dtype(pos.v)))
		} else {
			out := append([]int64(nil), q...)
			out[len(out)-1] = dv
			refs = append(refs, tref(out, dt))
		}
		if causal {
			model += "_causal"
		}
		return withBytes(Estimate{Family: Attention, Model: model, FLOPs: f, DType: dt}, refs...)
	}
}
