package roofline

import "regexp"

// Peak is a device's datasheet peaks: dense (no 2:4 sparsity) matrix
// TFLOP/s by precision and memory bandwidth in TB/s (10^12 bytes per
// second). A precision the device has no matrix math for is absent.
//
// FP32 is the FP32 rate a GEMM can reach: on NVIDIA the CUDA-core FMA rate
// (their tensor cores take TF32, not FP32), on AMD the FP32 matrix (MFMA)
// rate. The elementwise, norm and reduction families are measured against
// this figure too (an upper bound of the vector rate; those ops are
// memory-bound in any case).
type Peak struct {
	Device string // the model the figures are for
	TFLOPs map[Precision]float64
	TBps   float64
	Source string // the datasheet
}

// peakEntry matches deviceProperties names (and, where one name covers
// two memory sizes, the memory) to a Peak.
type peakEntry struct {
	name   *regexp.Regexp
	minMem int64 // totalGlobalMem at least this (0: any)
	peak   Peak
}

const gib = 1 << 30

// peakTable is searched in order; the first entry whose name pattern
// matches (and whose memory range holds the device's) gives the peaks.
// Each value is from the vendor's datasheet named in Source; where the
// datasheet gives tensor figures "with sparsity" only, the dense figure
// is half of it.
var peakTable = []peakEntry{
	// NVIDIA Tesla V100 datasheet (v100-datasheet-us-nvidia, 2020):
	// SXM2 FP32 15.7, Tensor (FP16) 125; PCIe 14, 112; V100S PCIe 16.4,
	// 130; HBM2 900 GB/s, V100S 1134 GB/s. No TF32, BF16 or FP8.
	{name: re(`V100S`), peak: Peak{"Tesla V100S PCIe", tf(16.4, 0, 130, 0, 0), 1.134, "NVIDIA V100 datasheet"}},
	{name: re(`V100.*PCIE`), peak: Peak{"Tesla V100 PCIe", tf(14, 0, 112, 0, 0), 0.9, "NVIDIA V100 datasheet"}},
	{name: re(`V100`), peak: Peak{"Tesla V100 SXM2", tf(15.7, 0, 125, 0, 0), 0.9, "NVIDIA V100 datasheet"}},
	// NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us,
	// 2021): FP32 19.5, TF32 156, BF16 312, FP16 312 (dense); memory
	// 40GB PCIe 1,555 GB/s, 40GB SXM 1,555 GB/s, 80GB PCIe 1,935 GB/s,
	// 80GB SXM 2,039 GB/s. No FP8.
	{name: re(`A100.*PCIE`), minMem: 60 * gib, peak: Peak{"A100 80GB PCIe", tf(19.5, 156, 312, 312, 0), 1.935, "NVIDIA A100 datasheet"}},
	{name: re(`A100.*PCIE`), peak: Peak{"A100 40GB PCIe", tf(19.5, 156, 312, 312, 0), 1.555, "NVIDIA A100 datasheet"}},
	{name: re(`A100`), minMem: 60 * gib, peak: Peak{"A100 80GB SXM", tf(19.5, 156, 312, 312, 0), 2.039, "NVIDIA A100 datasheet"}},
	{name: re(`A100`), peak: Peak{"A100 40GB SXM", tf(19.5, 156, 312, 312, 0), 1.555, "NVIDIA A100 datasheet"}},
	// NVIDIA H100 Tensor Core GPU datasheet (h100-datasheet, 2023;
	// tensor figures there are with sparsity, dense is half): SXM FP32 67,
	// TF32 989, BF16/FP16 1,979, FP8 3,958, 3.35 TB/s; PCIe FP32 51, TF32
	// 756, BF16/FP16 1,513, FP8 3,026, 2 TB/s; NVL FP32 60, TF32 835,
	// BF16/FP16 1,671, FP8 3,341, 3.9 TB/s.
	{name: re(`H100.*NVL`), peak: Peak{"H100 NVL", tf(60, 417.5, 835.5, 835.5, 1670.5), 3.9, "NVIDIA H100 datasheet"}},
	{name: re(`H100.*PCIE`), peak: Peak{"H100 PCIe", tf(51, 378, 756.5, 756.5, 1513), 2.0, "NVIDIA H100 datasheet"}},
	{name: re(`H100`), peak: Peak{"H100 SXM", tf(67, 494.5, 989.5, 989.5, 1979), 3.35, "NVIDIA H100 datasheet"}},
	// NVIDIA H200 Tensor Core GPU datasheet (2024; with sparsity, dense
	// is half): H200 SXM FP32 67, TF32 989, BF16/FP16 1,979, FP8 3,958,
	// 4.8 TB/s; H200 NVL FP32 60, TF32 835, BF16/FP16 1,671, FP8 3,341,
	// 4.8 TB/s.
	{name: re(`H200.*NVL`), peak: Peak{"H200 NVL", tf(60, 417.5, 835.5, 835.5, 1670.5), 4.8, "NVIDIA H200 datasheet"}},
	{name: re(`H200`), peak: Peak{"H200 SXM", tf(67, 494.5, 989.5, 989.5, 1979), 4.8, "NVIDIA H200 datasheet"}},
	// NVIDIA HGX B200 specifications (nvidia.com/en-us/data-center/hgx,
	// 8 GPUs; with sparsity, dense is half): FP8 72 PF, FP16/BF16 36 PF,
	// TF32 18 PF, FP32 600 TF, 64 TB/s; per GPU FP32 75, TF32 1,125,
	// BF16/FP16 2,250, FP8 4,500, 8 TB/s.
	{name: re(`B200`), peak: Peak{"B200 (HGX)", tf(75, 1125, 2250, 2250, 4500), 8.0, "NVIDIA HGX B200 specifications"}},
	// NVIDIA L4 datasheet (2023; with sparsity, dense is half): FP32 30.3,
	// TF32 120, BF16/FP16 242, FP8 485, 300 GB/s.
	{name: re(`L4`), peak: Peak{"L4", tf(30.3, 60, 121, 121, 242.5), 0.3, "NVIDIA L4 datasheet"}},
	// NVIDIA A10 datasheet (2021; dense figures given): FP32 31.2, TF32
	// 62.5, BF16/FP16 125, 600 GB/s. No FP8.
	{name: re(`A10`), peak: Peak{"A10", tf(31.2, 62.5, 125, 125, 0), 0.6, "NVIDIA A10 datasheet"}},
	// NVIDIA T4 datasheet (2019): FP32 8.1, FP16 (mixed) 65, 320 GB/s.
	{name: re(`T4`), peak: Peak{"T4", tf(8.1, 0, 65, 0, 0), 0.32, "NVIDIA T4 datasheet"}},
	// AMD Instinct MI300X datasheet (2023): FP32 matrix 163.4, TF32 653.7,
	// FP16/BF16 1,307.4, FP8 2,614.9 (dense), 5.3 TB/s. The VF (SR-IOV)
	// name is the same GPU.
	{name: re(`MI300X`), peak: Peak{"MI300X", tf(163.4, 653.7, 1307.4, 1307.4, 2614.9), 5.3, "AMD Instinct MI300X datasheet"}},
	// AMD Instinct MI250X datasheet (2021), per OAM module of two GCDs:
	// FP32 matrix 95.7, FP16/BF16 383, 3.2768 TB/s. PyTorch sees each GCD
	// as a device: half of each. ROCm names both MI250X and MI250
	// "MI250X/MI250"; the MI250X figures are used.
	{name: re(`MI250X?`), peak: Peak{"MI250X (one GCD)", tf(47.85, 0, 191.5, 191.5, 0), 1.6384, "AMD Instinct MI250X datasheet"}},
	// AMD Instinct MI210 datasheet (2022): FP32 matrix 45.3, FP16/BF16
	// 181, 1.6 TB/s. No TF32 or FP8.
	{name: re(`MI210`), peak: Peak{"MI210", tf(45.3, 0, 181, 181, 0), 1.6, "AMD Instinct MI210 datasheet"}},
}

// re compiles a model name as a whole word of a deviceProperties name,
// ignoring case ("GH200" is not an H200, "A100" is not an A10).
func re(pat string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^A-Z0-9])` + pat + `($|[^A-Z0-9])`)
}

// tf builds a precision table; 0 leaves a precision out.
func tf(fp32, tf32, fp16, bf16, fp8 float64) map[Precision]float64 {
	m := map[Precision]float64{}
	for p, v := range map[Precision]float64{FP32: fp32, TF32: tf32, FP16: fp16, BF16: bf16, FP8: fp8} {
		if v > 0 {
			m[p] = v
		}
	}
	return m
}

// LookupPeak finds the peaks of a device from its deviceProperties name
// and totalGlobalMem; ok is false for a device the table does not know.
func LookupPeak(name string, totalMem int64) (Peak, bool) {
	for _, e := range peakTable {
		if !e.name.MatchString(name) {
			continue
		}
		if e.minMem > 0 && totalMem < e.minMem {
			continue
		}
		return e.peak, true
	}
	return Peak{}, false
}
