package roofline

import "fmt"

// Family is an op's performance-model family.
type Family string

// The families.
const (
	GEMM        Family = "gemm"
	Conv        Family = "conv"
	Attention   Family = "attention"
	Elementwise Family = "elementwise"
	Norm        Family = "norm"
	Reduction   Family = "reduction"
)

// Families lists them in the order the summary names them.
var Families = []Family{GEMM, Conv, Attention, Elementwise, Norm, Reduction}

// Matrix reports whether the family's FLOPs run on the matrix units
// (tensor cores, MFMA): its compute peak is that of its dtype; the other
// families are measured against the FP32 figure.
func (f Family) Matrix() bool { return f == GEMM || f == Conv || f == Attention }

// Estimate is what a performance model gives for one call of an op.
type Estimate struct {
	Family Family
	// Model names the formula ("mm", "conv_fwd", "sdpa_bwd", "binary", ...).
	Model string
	FLOPs int64
	// Bytes read and written, at the recorded dtypes; HasBytes is false
	// when a dtype was not recorded (2021 traces have no "Input type").
	Bytes    int64
	HasBytes bool
	// DType is the dtype whose peak applies (the first matrix operand's,
	// the main input's); "" when not recorded.
	DType string
}

// Precision is the peak column the estimate is measured against: its
// dtype's for matrix families ("" when none applies: fp64, integer math,
// an unrecorded dtype), FP32 for the others.
func (e *Estimate) Precision() Precision {
	if !e.Family.Matrix() {
		return FP32
	}
	return precisionOf(e.DType)
}

// modelFunc is one op's formula: an estimate, or the reason there is none.
type modelFunc func(c *Call) (Estimate, error)

// noModel is an estimate that cannot be made, with why.
func noModel(format string, a ...any) (Estimate, error) {
	return Estimate{}, fmt.Errorf(format, a...)
}

var errOverflow = fmt.Errorf("the sizes overflow 64 bits")

// sumBytes adds the bytes of tensors (dims, dtype pairs); ok is false when
// a dtype is unknown.
func sumBytes(ts ...tensorRef) (int64, bool, error) {
	var total int64
	for _, t := range ts {
		if t.skip {
			continue
		}
		if DTypeSize(t.dtype) == 0 {
			return 0, false, nil
		}
		b, ok := tensorBytes(t.dims, t.dtype)
		if !ok {
			return 0, false, errOverflow
		}
		if total, ok = add(total, b); !ok {
			return 0, false, errOverflow
		}
	}
	return total, true, nil
}

// tensorRef is a tensor counted in an op's bytes.
type tensorRef struct {
	dims  []int64
	dtype string
	skip  bool // not there (an optional tensor that was None)
}

func tref(dims []int64, dtype string) tensorRef { return tensorRef{dims: dims, dtype: dtype} }

// withBytes sets e's bytes from the tensors it reads and writes.
func withBytes(e Estimate, ts ...tensorRef) (Estimate, error) {
	b, ok, err := sumBytes(ts...)
	if err != nil {
		return Estimate{}, err
	}
	e.Bytes, e.HasBytes = b, ok
	return e, nil
}
