package roofline

import "testing"

// TestGEMM: 2·M·N·K (·batch), bytes of A, B, C (and bias) at their dtypes.
func TestGEMM(t *testing.T) {
	t.Parallel()
	bf := `"c10::BFloat16"`
	runCases(t, GEMM, []modelCase{
		// 2·64·32·128 = 524288; (64·128 + 128·32 + 64·32)·2 = 28672
		{name: "mm bf16", op: "aten::mm", dims: `[[64,128],[128,32]]`, types: `[` + bf + `,` + bf + `]`, values: `["",""]`,
			flops: 524288, bytes: 28672, prec: BF16},
		// out= form: the third tensor is the result, counted once
		{name: "mm out", op: "aten::mm", dims: `[[64,128],[128,32],[64,32]]`, types: `[` + bf + `,` + bf + `,` + bf + `]`,
			flops: 524288, bytes: 28672},
		// linear(x[8,16], w[32,16], b[32]) records addmm(b, x, w.t()) with w.t() as its logical
		// [16,32]: 2·8·32·16 = 8192; (32 + 8·16 + 16·32 + 8·32)·4 = 3712
		{name: "addmm of a transposed weight", op: "aten::addmm", dims: `[[32],[8,16],[16,32],[],[]]`,
			types: `["float","float","float","Scalar","Scalar"]`, values: `["","","","1","1"]`, flops: 8192, bytes: 3712, prec: FP32},
		// the untransposed weight does not multiply
		{name: "addmm K mismatch", op: "aten::addmm", dims: `[[32],[8,16],[32,16],[],[]]`,
			types: `["float","float","float","Scalar","Scalar"]`, err: "not [M,K] x [K,N]"},
		{name: "addmm bias does not broadcast", op: "aten::addmm", dims: `[[7],[8,16],[16,32],[],[]]`,
			types: `["float","float","float","Scalar","Scalar"]`, err: "does not broadcast"},
		// 2·4·8·2·16 = 2048; (4·8·16 + 4·16·2 + 4·8·2)·2 = 1408 at fp16
		{name: "bmm fp16", op: "aten::bmm", dims: `[[4,8,16],[4,16,2]]`, types: `["c10::Half","c10::Half"]`, flops: 2048, bytes: 1408, prec: FP16},
		{name: "bmm batch mismatch", op: "aten::bmm", dims: `[[4,8,16],[2,16,2]]`, types: `["c10::Half","c10::Half"]`, err: "not [B,M,K]"},
		// self [1,8,2] broadcast over the batch: (16 + 512 + 128 + 64)·2 = 1440
		{name: "baddbmm broadcast self", op: "aten::baddbmm", dims: `[[1,8,2],[4,8,16],[4,16,2],[],[]]`,
			types: `["c10::Half","c10::Half","c10::Half","Scalar","Scalar"]`, flops: 2048, bytes: 1440},
		// addbmm sums the batch into [8,2]: (16 + 512 + 128 + 16)·2 = 1344
		{name: "addbmm", op: "aten::addbmm", dims: `[[8,2],[4,8,16],[4,16,2],[],[]]`,
			types: `["c10::Half","c10::Half","c10::Half","Scalar","Scalar"]`, flops: 2048, bytes: 1344},
		// fp8: 2·16·64·32 = 65536; A 512 + B 2048 bytes, scales 4 + 4, bf16 result (out_dtype 15) 16·64·2 = 2048
		{name: "scaled_mm fp8 to bf16", op: "aten::_scaled_mm", dims: `[[16,32],[32,64],[],[],[],[],[],[]]`,
			types:  `["c10::Float8_e4m3fn","c10::Float8_e4m3fn","float","float","","","Scalar","Scalar"]`,
			values: `["","","","","","","15","False"]`, flops: 65536, bytes: 4616, prec: FP8},
		// without out_dtype the result is at the inputs' fp8: 512 + 2048 + 1024 + 8
		{name: "scaled_mm fp8 out", op: "aten::_scaled_mm", dims: `[[16,32],[32,64],[],[],[],[],[],[]]`,
			types:  `["c10::Float8_e4m3fn","c10::Float8_e4m3fn","float","float","","","",""]`,
			values: `["","","","","","","",""]`, flops: 65536, bytes: 3592, prec: FP8},
		// a 2021 trace: no Input type, so FLOPs but no bytes
		{name: "mm without dtypes", op: "aten::mm", dims: `[[32,1000],[1000,2048]]`, types: `[]`, flops: 131072000, bytes: -1},
		{name: "overflow", op: "aten::mm", dims: `[[4000000000,4000000000],[4000000000,4000000000]]`, types: `["float","float"]`, err: "overflow"},
		{name: "no shapes", op: "aten::mm", dims: ``, err: "record_shapes=True"},
	})
}

// TestComposites: linear, matmul and conv2d have no model: their children
// are modelled, so their time is never counted twice.
func TestComposites(t *testing.T) {
	t.Parallel()
	for name := range composites {
		if modelOf(name) != nil {
			t.Errorf("%s is a composite but has a model", name)
		}
	}
	for _, name := range []string{"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_scaled_mm"} {
		if FamilyOf(name) != GEMM {
			t.Errorf("%s: family %q, want gemm", name, FamilyOf(name))
		}
	}
}

// TestDTypes: element sizes, fp8 included; 2021's capitalised scalar
// types are not tensor dtypes.
func TestDTypes(t *testing.T) {
	t.Parallel()
	for dt, want := range map[string]int64{"float": 4, "c10::BFloat16": 2, "c10::Half": 2, "c10::Float8_e4m3fn": 1,
		"c10::Float8_e5m2": 1, "c10::Float8_e4m3fnuz": 1, "double": 8, "long int": 8, "long": 8, "int": 4, "bool": 1,
		"Int": 0, "Bool": 0, "Scalar": 0, "TensorList": 0, "": 0} {
		if got := DTypeSize(dt); got != want {
			t.Errorf("DTypeSize(%q) = %d, want %d", dt, got, want)
		}
	}
}
