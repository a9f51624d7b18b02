// Package sequences finds the kernel sequences that one op launches again
// and again: HTA's get_frequent_cuda_kernel_sequences, table --by
// sequence. Where a sequence repeats many times, fusing its kernels pays.
// It computes the numbers; internal/render/sequenceview lays them out.
//
// HTA's rule (hta/analyzers/cuda_kernel_analysis.py): the roots are the
// CPU events whose name contains operator_name, at the shallowest
// call-stack depth any of them has (so an op nested in another match is
// not counted twice). For each root occurrence, the GPU events (kernels,
// memcpys, memsets) launched by the calls in its subtree (joined by
// correlation id), sorted by start, are its pattern; a pattern shorter
// than min_pattern_len is dropped. Identical (root name, kernel names)
// patterns are counted, with the sum of their GPU time and of the root's
// CPU time, and listed by count, most first.
//
// tracetab's rule is the same, with these differences:
//   - Without --op, the roots are the top-level ops: for each device op,
//     the outermost cpu_op above its launch call (HTA needs a name).
//   - A root's device ops are split by the GPU stream they ran on: a
//     sequence is the device ops of one root occurrence on one stream, in
//     time order (start, then the longer first, then file order). HTA sorts
//     all of the root's device ops by start across streams into one
//     pattern; the two agree for an op whose work runs on one stream.
//   - The rows are sorted by total device time (--sort count: by count, as
//     HTA) and the top --top are shown.
//
// The subtree of a root: a device op belongs to the root that is an
// ancestor of its launch call (the runtime or driver call with its
// correlation id). The ancestors are the events that contain the call on
// its thread (half-open intervals, as the trace nests them); where the
// call names its op by External id on another thread (2021 traces), that
// op and its ancestors. Device ops without a launch call in the trace, or
// with no root above it, are in no sequence; Result counts them.
package sequences
