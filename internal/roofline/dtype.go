package roofline

// A tensor's "Input type" is its dtype as C++ names it (torch's
// c10::toString of the scalar type's C++ type): "float", "c10::BFloat16",
// "long int" (or "long"). Scalar arguments are "Scalar", "ScalarList",
// and in 2021 traces capitalised ("Int", "Bool", "Double"): a different
// string from the tensor dtypes "int", "bool", "double".
var dtypeSizes = map[string]int64{
	"float":                   4,
	"double":                  8,
	"c10::Half":               2,
	"c10::BFloat16":           2,
	"c10::Float8_e4m3fn":      1,
	"c10::Float8_e5m2":        1,
	"c10::Float8_e4m3fnuz":    1,
	"c10::Float8_e5m2fnuz":    1,
	"c10::Float8_e8m0fnu":     1,
	"c10::Float4_e2m1fn_x2":   1, // two FP4 values per element
	"int":                     4,
	"long int":                8,
	"long":                    8,
	"short int":               2,
	"short":                   2,
	"signed char":             1,
	"unsigned char":           1,
	"bool":                    1,
	"c10::complex<float>":     8,
	"c10::complex<double>":    16,
	"c10::complex<c10::Half>": 4,
	"c10::qint8":              1,
	"c10::quint8":             1,
	"c10::qint32":             4,
	"unsigned int":            4,
	"unsigned long":           8,
	"unsigned short":          2,
}

// IsDType reports whether an "Input type" names a tensor dtype.
func IsDType(t string) bool { _, ok := dtypeSizes[t]; return ok }

// DTypeSize is the bytes of one element of dtype t, 0 when unknown.
func DTypeSize(t string) int64 { return dtypeSizes[t] }

// Precision is a class of compute peak: the datasheet column a dtype's
// matrix math runs at.
type Precision string

// The precisions of the peak table.
const (
	FP32 Precision = "fp32"
	TF32 Precision = "tf32"
	FP16 Precision = "fp16"
	BF16 Precision = "bf16"
	FP8  Precision = "fp8"
)

// Precisions lists them in the order of the peak table's columns.
var Precisions = []Precision{FP32, TF32, FP16, BF16, FP8}

// precisionOf is the peak column for a dtype, "" for dtypes with no
// column (fp64, integers, bool).
func precisionOf(dtype string) Precision {
	switch dtype {
	case "float":
		return FP32
	case "c10::Half":
		return FP16
	case "c10::BFloat16":
		return BF16
	case "c10::Float8_e4m3fn", "c10::Float8_e5m2", "c10::Float8_e4m3fnuz", "c10::Float8_e5m2fnuz":
		return FP8
	}
	return ""
}

// scalarTypeDTypes maps c10::ScalarType codes (how a dtype argument such
// as _scaled_mm's out_dtype is recorded in "Concrete Inputs") to dtypes.
var scalarTypeDTypes = map[int64]string{
	0: "unsigned char", 1: "signed char", 2: "short int", 3: "int", 4: "long int",
	5: "c10::Half", 6: "float", 7: "double", 11: "bool", 15: "c10::BFloat16",
	23: "c10::Float8_e5m2", 24: "c10::Float8_e4m3fn", 25: "c10::Float8_e5m2fnuz", 26: "c10::Float8_e4m3fnuz",
}
