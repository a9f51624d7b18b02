package roofline

import "testing"

// sdpa(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
const sdpaTypes = `["c10::BFloat16","c10::BFloat16","c10::BFloat16","","Scalar","Scalar","","Scalar"]`

// TestAttention: B·H·Sq·Sk·(2·D + 2·Dv) forward, half when causal, 2.5x
// for the backward; [B,H,S,D] and [B,S,H,D] layouts; GQA.
func TestAttention(t *testing.T) {
	t.Parallel()
	const qkv = `[2,4,128,64],[2,4,128,64],[2,4,128,64]`
	// q, k, v, out: 2·4·128·64 elements each, 2 bytes
	const bytesFwd = 4 * 2 * 4 * 128 * 64 * 2
	runCases(t, Attention, []modelCase{
		// 2·4·128·128·(64+64) = 33554432 = 4·B·H·S²·D
		{name: "sdpa", op: "aten::scaled_dot_product_attention", dims: `[` + qkv + `,[],[],[],[],[]]`, types: sdpaTypes,
			values: `["","","","","0.","False","","False"]`, flops: 33554432, bytes: bytesFwd, prec: BF16},
		{name: "sdpa causal", op: "aten::scaled_dot_product_attention", dims: `[` + qkv + `,[],[],[],[],[]]`, types: sdpaTypes,
			values: `["","","","","0.","True","0.125","False"]`, flops: 16777216, bytes: bytesFwd},
		// a given mask is never causal; its bytes are read: 2·4·128·128 bools
		{name: "sdpa with a mask", op: "aten::scaled_dot_product_attention", dims: `[` + qkv + `,[2,4,128,128],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","bool","Scalar","Scalar","","Scalar"]`,
			values: `["","","","","0.","False","","False"]`, flops: 33554432, bytes: bytesFwd + 2*4*128*128},
		{name: "is_causal unrecorded", op: "aten::scaled_dot_product_attention", dims: `[` + qkv + `,[],[],[],[],[]]`, types: sdpaTypes,
			err: "is_causal was not recorded"},
		// GQA: 8 query heads over 2 key heads: 1·8·64·64·(32+32) = 4194304 (every query head counts)
		{name: "gqa", op: "aten::scaled_dot_product_attention", dims: `[[1,8,64,32],[1,2,64,32],[1,2,64,32],[],[],[],[],[]]`,
			types: sdpaTypes, values: `["","","","","0.","False","","True"]`, flops: 4194304, bytes: (16384 + 4096 + 4096 + 16384) * 2},
		// D = 32, Dv = 64: 2·16·16·(32+64) = 49152; out [1,1,16,64]
		{name: "value dim differs", op: "aten::scaled_dot_product_attention", dims: `[[1,1,16,32],[1,1,16,32],[1,1,16,64],[],[],[],[],[]]`,
			types: sdpaTypes, values: `["","","","","0.","False","",""]`, flops: 49152, bytes: (512 + 512 + 1024 + 1024) * 2},
		// _flash_attention_forward takes [B, S, H, D]: the same call as "sdpa"
		{name: "flash forward bshd", op: "aten::_flash_attention_forward",
			dims:   `[[2,128,4,64],[2,128,4,64],[2,128,4,64],[],[],[],[],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","","","Scalar","Scalar","Scalar","Scalar","Scalar","Scalar","","","",""]`,
			values: `["","","","","","128","128","0.","False","False","0.125","","","",""]`, flops: 33554432, bytes: bytesFwd},
		// packed sequences: cum_seq_q is a tensor, per-sequence lengths unknown
		{name: "flash forward varlen", op: "aten::_flash_attention_forward",
			dims:   `[[256,4,64],[256,4,64],[256,4,64],[3],[3],[],[],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","int","int","Scalar","Scalar","Scalar","Scalar","Scalar","Scalar","","","",""]`,
			values: `["","","","","","128","128","0.","True","False","0.125","","","",""]`, err: "packed sequences"},
		// _efficient_attention_forward: custom_mask_type 1 is causal
		{name: "efficient forward causal", op: "aten::_efficient_attention_forward",
			dims:   `[[2,128,4,64],[2,128,4,64],[2,128,4,64],[],[],[],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","","","","Scalar","Scalar","Scalar","Scalar","Scalar","","",""]`,
			values: `["","","","","","","128","128","0.","1","True","","",""]`, flops: 16777216, bytes: bytesFwd},
		// backward: 2.5 x 33554432; reads grad_out, q, k, v, out, logsumexp [2,4,128] float; writes dq, dk, dv
		{name: "flash backward", op: "aten::_scaled_dot_product_flash_attention_backward",
			dims:   `[[2,4,128,64],` + qkv + `,[2,4,128,64],[2,4,128],[],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","float","","","Scalar","Scalar","Scalar","Scalar","long int","long int","Scalar"]`,
			values: `["","","","","","","","","128","128","0.","False","","","0.125"]`,
			flops:  83886080, bytes: 8*2*4*128*64*2 + 2*4*128*4 + 2*8},
		{name: "flash backward causal", op: "aten::_scaled_dot_product_flash_attention_backward",
			dims:   `[[2,4,128,64],` + qkv + `,[2,4,128,64],[2,4,128],[],[],[],[],[],[],[],[],[]]`,
			types:  `["c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","float","","","Scalar","Scalar","Scalar","Scalar","long int","long int","Scalar"]`,
			values: `["","","","","","","","","128","128","0.","True","","","0.125"]`,
			flops:  41943040, bytes: 8*2*4*128*64*2 + 2*4*128*4 + 2*8},
	})
}
