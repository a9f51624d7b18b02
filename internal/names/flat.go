package names

import (
	"regexp"
	"strings"
)

// Long flat library kernel names are fields joined by '_'. A label keeps
// the fields that tell two of them apart for a person (architecture,
// operation, data types, layout, tile) and drops the rest.

// cublasNoise are the fields of cuBLAS/cuDNN xmma and cudnn names that
// say how, not what (the engine, the launch's bookkeeping).
var cublasNoise = regexp.MustCompile(`^(xmma|execute|segment|k|off|kernel|cublas|cudnn|5x|warpgroupsize.*|warpsize.*|stage\d+|g\d+|tensor\d+x\d+x\d+|v\d+|)$`)

// cublasName: sm80_xmma_gemm_..., sm90_xmma_..., sm100_...
var cublasName = regexp.MustCompile(`^sm\d+_`)

// tensileKeep are the fields of a Tensile (hipBLASLt, rocBLAS) Cijk_ name
// a label keeps after its layout and data types: the macro tile, the
// matrix instruction and the ISA.
var tensileKeep = regexp.MustCompile(`^(MT\d+x\d+x\d+|MI\d+x\d+x\d+(x\d+)?|ISA[0-9a-z]+)$`)

// flatLabel shortens a long library kernel name by its family's fields; it
// returns s unchanged for names of no known family.
func flatLabel(s string) string {
	switch {
	case cublasName.MatchString(s):
		return cublasLabel(s)
	case strings.HasPrefix(s, "Cijk_"):
		return tensileLabel(s)
	}
	return s
}

func cublasLabel(s string) string {
	var keep []string
	for _, f := range strings.Split(s, "_") {
		if cublasNoise.MatchString(f) {
			continue
		}
		f = strings.TrimPrefix(f, "tilesize")
		keep = append(keep, f)
	}
	return strings.Join(keep, "_")
}

// tensileLabel keeps Cijk, the A and B layouts, the data types (the field
// after the layouts) and the fields tensileKeep names.
func tensileLabel(s string) string {
	fs := strings.Split(s, "_")
	keep := []string{fs[0]}
	i := 1
	for ; i < len(fs) && len(keep) < 4; i++ {
		f := fs[i]
		if len(keep) < 3 && (strings.HasPrefix(f, "A") || strings.HasPrefix(f, "B")) || len(keep) == 3 {
			keep = append(keep, f)
		}
	}
	for ; i < len(fs); i++ {
		if tensileKeep.MatchString(fs[i]) {
			keep = append(keep, fs[i])
		}
	}
	return strings.Join(keep, "_")
}
