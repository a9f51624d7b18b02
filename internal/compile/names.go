package compile

import (
	"github.com/tracetab/tracetab/internal/trace"

	"regexp"
	"strconv"
	"strings"
)

const regionPrefix = "Torch-Compiled Region: "

// ParseRegion reads "Torch-Compiled Region: F/C": Dynamo's frame id F and
// compile id C (0 for the first compile of the frame, 1 after the first
// recompile, ...).
func ParseRegion(name string) (frame, compile int, ok bool) {
	rest, ok := strings.CutPrefix(name, regionPrefix)
	if !ok {
		return 0, 0, false
	}
	f, c, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, false
	}
	if k := strings.IndexFunc(c, func(r rune) bool { return r < '0' || r > '9' }); k >= 0 {
		c = c[:k]
	}
	fi, err1 := strconv.Atoi(f)
	ci, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return fi, ci, true
}

// markerKind says which compiled entry point an event name is, or "".
func markerKind(name string) string {
	switch {
	case strings.HasPrefix(name, regionPrefix):
		return KindDynamo
	case name == "CompiledFunction":
		return KindAOTForward
	case name == "CompiledFunctionBackward":
		return KindAOTBackward
	case strings.HasPrefix(name, "## Call CompiledFxGraph"):
		return KindGraph
	}
	return ""
}

const cacheLookup = "TorchDynamo Cache Lookup"

// isPart reports whether a name is one of the events torch.compile records
// in and around a compiled call (the rows its table prints for them).
func isPart(name string) bool {
	return name == cacheLookup || name == "Pregraph bytecode" || isAOTWrapper(name) || markerKind(name) != ""
}

func isAOTWrapper(name string) bool {
	return strings.HasPrefix(name, "AOTDispatcher Runtime Wrapper")
}

// isTax reports whether a CPU event is compile work: Dynamo's timed
// phases (record_function "<phase> (dynamo_timed)") or, in traces with
// Python stacks, Dynamo's and Inductor's compile entry frames.
func isTax(name string) bool {
	if strings.HasSuffix(name, "(dynamo_timed)") {
		return true
	}
	return taxFrame.MatchString(name)
}

var taxFrame = regexp.MustCompile(`^torch/_dynamo/convert_frame\.py\(\d+\): _compile$|^torch/_inductor/compile_fx\.py\(\d+\): compile_fx_inner$`)

// Library kernel families, by the op that launched the kernel or, failing
// that (graph replays, unlinked kernels), by the kernel's name.
var (
	gemmOp   = regexp.MustCompile(`^aten::(mm|addmm|bmm|baddbmm|matmul|linear|_scaled_mm|addmv|mv|_int_mm)$|(^|[^b])gemm`) // not fbgemm's ops
	attnOp   = regexp.MustCompile(`attention|flash|_efficient_attention|_cudnn_attention`)
	convOp   = regexp.MustCompile(`^aten::(convolution|_convolution|cudnn_convolution|conv\dd|miopen_convolution)|convolution`)
	collOp   = regexp.MustCompile(`^(c10d|nccl|rccl)|record_param_comms|all_reduce|allreduce|all_gather|reduce_scatter`)
	convName = regexp.MustCompile(`(?i)conv|implicit_gemm|wgrad|dgrad|fprop`)
	gemmName = regexp.MustCompile(`(?i)(^|[^b])gemm|^Cijk_|cutlass|xmma|wgmma|nvjet|cublas|hipblas|_mm_|matmul`) // not fbgemm
	attnName = regexp.MustCompile(`(?i)flash|fmha|attn|attention|sdpa`)
)

// Family classifies a non-Inductor kernel as a library kernel (gemm,
// attention, conv, collective) or "" (other).
func Family(kernel, op string) string {
	switch {
	case op != "" && attnOp.MatchString(op):
		return "attention"
	case op != "" && convOp.MatchString(op):
		return "conv"
	case op != "" && gemmOp.MatchString(op):
		return "gemm"
	case op != "" && collOp.MatchString(op):
		return "collective"
	case attnName.MatchString(kernel):
		return "attention"
	case convName.MatchString(kernel):
		return "conv"
	case trace.IsCommKernel(kernel):
		return "collective"
	case gemmName.MatchString(kernel):
		return "gemm"
	}
	return ""
}

// gemmHelper matches the base names of the kernels a GEMM library runs
// beside the GEMM itself: split-K reductions (cuBLAS splitKreduce_kernel,
// CUTLASS and hipBLASLt reductions), epilogues, and matrix-vector kernels
// (gemv).
var gemmHelper = regexp.MustCompile(`(?i)splitk|reduce|reduction|epilogue|gemv`)

// IsGEMMHelper reports whether a GEMM-family kernel is a helper of the
// GEMM (a split-K reduction, an epilogue, a matrix-vector kernel), never
// "the GEMM" itself. Only the kernel's base name counts (before its
// template arguments and parameters: a GEMM instantiated with a gemv
// tensor type is still a GEMM).
func IsGEMMHelper(kernel string) bool {
	base := strings.TrimPrefix(kernel, "void ")
	if i := strings.IndexAny(base, "<("); i > 0 {
		base = base[:i]
	}
	return gemmHelper.MatchString(base)
}
