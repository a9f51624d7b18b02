// Package kerneleff estimates how well kernels use the GPU, by the
// definitions of the TensorBoard profiler plugin's Kernel view and GPU
// Summary, from the args Kineto writes on CUDA kernels ("blocks per SM",
// "est. achieved occupancy %"; trace.Aux keeps them as fixed-point
// numbers):
//
//   - per kernel name: the mean blocks per SM and the mean estimated
//     achieved occupancy, weighted by each call's duration, a call without
//     the arg counted as 0 (Means); whether the kernel uses Tensor Cores,
//     by its name (TensorCoresUsed); whether the op that launched it is
//     eligible to (TCEligibleOp);
//   - per device, over a window (the plugin's span of all steps): GPU
//     utilization, estimated SM efficiency and estimated achieved
//     occupancy (Devices).
//
// It computes; it does not render.
package kerneleff
