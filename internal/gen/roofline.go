package gen

import "strconv"

// Roofline ops (Config.Roofline): every step ends with a block of ops
// recorded as torch 2.x records them with record_shapes=True (Input Dims,
// Input type and Concrete Inputs) whose FLOPs and bytes are known by hand,
// each launching one kernel of a fixed duration, so that tracetab roofline's
// figures can be checked against RooflineOps. Composite ops (aten::conv2d,
// aten::linear, sdpa's inner flash ops) are written around the op that
// owns the kernel, as torch nests them.

// RooflineOp is one op of the block: the chain of nested ops from the
// outermost (which the roofline models) to the one that launches the
// kernel, and what the outermost's model gives by hand.
type RooflineOp struct {
	Chain    []RecordedOp
	Kernel   string
	KernelNs int64
	FLOPs    int64 // per call, worked out by hand below
	Bytes    int64
}

// RecordedOp is an op's name and its recorded arguments.
type RecordedOp struct {
	Name, Dims, Types, Values string
}

const (
	bf16x3 = `"c10::BFloat16", "c10::BFloat16", "c10::BFloat16"`
	// convolution(input [8,64,56,56], weight [64,64,3,3], None, stride 1, padding 1, dilation 1, ...)
	convDims = `[[8, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []]`
	sdpaQKV  = `[4, 16, 1024, 64], [4, 16, 1024, 64], [4, 16, 1024, 64]`
)

// RooflineOps are the ops of the block, in order.
var RooflineOps = []RooflineOp{
	{
		// 3x3 same convolution: O = 56, 2·8·64·64·9·56·56 FLOPs;
		// bytes (8·64·56·56 + 64·64·9 + 8·64·56·56)·2
		Chain: []RecordedOp{
			{"aten::conv2d", `[[8, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], []]`,
				`["c10::BFloat16", "c10::BFloat16", "", "ScalarList", "ScalarList", "ScalarList", "Scalar"]`,
				`["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"]`},
			{"aten::convolution", convDims,
				`["c10::BFloat16", "c10::BFloat16", "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"]`,
				`["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"]`},
			{"aten::cudnn_convolution", `[[8, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []]`,
				`["c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "Scalar", "Scalar", "Scalar", "Scalar"]`,
				`["", "", "[1, 1]", "[1, 1]", "[1, 1]", "1", "False", "False", "True"]`},
		},
		Kernel:   "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16_execute_kernel__5x_cudnn",
		KernelNs: 20_000,
		FLOPs:    2 * 8 * 64 * 64 * 9 * 56 * 56,
		Bytes:    (8*64*56*56 + 64*64*9 + 8*64*56*56) * 2,
	},
	{
		// causal attention: 4·B·H·S²·D / 2; bytes q, k, v, out
		Chain: []RecordedOp{
			{"aten::scaled_dot_product_attention", `[` + sdpaQKV + `, [], [], [], [], []]`,
				`[` + bf16x3 + `, "", "Scalar", "Scalar", "", "Scalar"]`, `["", "", "", "", "0.", "True", "", "False"]`},
			{"aten::_scaled_dot_product_flash_attention", `[` + sdpaQKV + `, [], [], [], []]`,
				`[` + bf16x3 + `, "Scalar", "Scalar", "Scalar", "Scalar"]`, `["", "", "", "0.", "True", "False", "0.125"]`},
			{"aten::_flash_attention_forward", `[[4, 1024, 16, 64], [4, 1024, 16, 64], [4, 1024, 16, 64], [], [], [], [], [], [], [], [], [], [], [], []]`,
				`[` + bf16x3 + `, "", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "", "", "", ""]`,
				`["", "", "", "", "", "1024", "1024", "0.", "True", "False", "0.125", "", "", "", ""]`},
		},
		Kernel:   "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)",
		KernelNs: 60_000,
		FLOPs:    4 * 4 * 16 * 1024 * 1024 * 64 / 2,
		Bytes:    4 * 4 * 16 * 1024 * 64 * 2,
	},
	{
		// linear(x [2048,1024], w [4096,1024], b [4096]) = addmm(b, x, wᵀ): 2·2048·4096·1024;
		// bytes (4096 + 2048·1024 + 1024·4096 + 2048·4096)·2
		Chain: []RecordedOp{
			{"aten::linear", `[[2048, 1024], [4096, 1024], [4096]]`, `[` + bf16x3 + `]`, `["", "", ""]`},
			{"aten::addmm", `[[4096], [2048, 1024], [1024, 4096], [], []]`, `[` + bf16x3 + `, "Scalar", "Scalar"]`, `["", "", "", "1", "1"]`},
		},
		Kernel:   "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize160x128x32_stage4_warpsize2x2x1_tensor16x8x16_execute_kernel__5x_cublas",
		KernelNs: 80_000,
		FLOPs:    2 * 2048 * 4096 * 1024,
		Bytes:    (4096 + 2048*1024 + 1024*4096 + 2048*4096) * 2,
	},
	{
		// layer norm over [2048,4096] with weight and bias: 5 FLOPs per element;
		// bytes (input + weight + bias + output)·2
		Chain: []RecordedOp{
			{"aten::layer_norm", `[[2048, 4096], [], [4096], [4096], [], []]`,
				`["c10::BFloat16", "ScalarList", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"]`,
				`["", "[4096]", "", "", "1e-05", "True"]`},
			{"aten::native_layer_norm", `[[2048, 4096], [], [4096], [4096], []]`,
				`["c10::BFloat16", "ScalarList", "c10::BFloat16", "c10::BFloat16", "Scalar"]`, `["", "[4096]", "", "", "1e-05"]`},
		},
		Kernel:   "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
		KernelNs: 25_000,
		FLOPs:    5 * 2048 * 4096,
		Bytes:    (2*2048*4096 + 2*4096) * 2,
	},
}

// rooflineOpNs is the CPU time each op of the block takes.
const rooflineOpNs = 40_000

// rooflineLen is how long the block lasts on the CPU (0 without it).
func rooflineLen(cfg Config) int64 {
	if !cfg.Roofline {
		return 0
	}
	return int64(len(RooflineOps)) * rooflineOpNs
}

// rooflineBlock writes the block from t on the main thread.
func (g *writer) rooflineBlock(cfg Config, t int64) {
	if !cfg.Roofline {
		return
	}
	for i, op := range RooflineOps {
		ts := t + int64(i)*rooflineOpNs
		var ext int64
		for depth, r := range op.Chain {
			in := int64(depth) * 2_000
			ext = g.ext
			g.ext++
			g.evIdx++
			args := "\"External id\": " + strconv.FormatInt(ext, 10) + ", \"Record function id\": 0" +
				", \"Input Dims\": " + r.Dims + ", \"Input type\": " + r.Types + ", \"Concrete Inputs\": " + r.Values +
				", \"Ev Idx\": " + strconv.FormatInt(g.evIdx, 10)
			g.x("cpu_op", r.Name, [2]int{pid, mainTid}, ts+in, rooflineOpNs-4_000-2*in, args)
			g.f.CPUOps++
		}
		in := int64(len(op.Chain)) * 2_000
		g.launch(mainTid, ext, "cudaLaunchKernel", ts+in+1_000, 6_000, devKernel, 7, op.Kernel, op.KernelNs)
		g.f.RooflineCalls++
	}
}
