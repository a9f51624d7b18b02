// Package critpath is critical-path's model: HTA's critical-path graph of
// a window of the trace (one per ProfilerStep#N by default) and its
// longest path, read as a breakdown, the events and edges on it, every
// sync edge of the graph, HTA's attribution of path time to events, and
// what-if (the path with one name's time cut). It also writes the
// Perfetto overlay (the input trace with the path marked).
//
// The rules (HTA's CPGraph, facebookresearch/HolisticTraceAnalysis
// hta/analyzers/critical_path_analysis.py, with its 1.5 ms kernel_kernel
// threshold) are stated in full in `tracetab critical-path --help` and
// docs/output.md; in short:
//
//   - Windows (window.go): CPU events that start in the window (its end
//     included) with a duration > 0; the device ops whose launch call is
//     one of them; the cuda_sync rows of those calls.
//   - Nodes: a start and an end per CPU op, runtime or driver call, and
//     device op (graph.go).
//   - Threads: a depth-first walk per thread in time order joins each node
//     to the one before (a dependency of weight 0 between top-level ops, an
//     operator edge weighing the time inside an op); the autograd thread is
//     read as part of the forward thread; the calls that take the CUDA
//     runtime lock are chained across threads; the last edge into a
//     blocking call weighs 0.
//   - Device ops: their duration; a launch edge when HTA's queue rule holds
//     (prep.go), else a kernel_kernel edge from the previous op on the
//     stream when the gap is under 1.5 ms; sync edges of weight 0 from
//     Stream Sync, Context Sync, Event Sync and Stream Wait Event.
//   - The longest path in topological order, O(nodes + edges), with a
//     stated tie rule (path.go).
//
// Where tracetab differs from HTA, on purpose: graph launches are launch
// calls (the ops of a cudaGraphLaunch are in the window; HTA issue 290);
// a device sync waits on the streams of its own device; an event that
// starts inside another and ends after it is not its child; annotation
// instances count CPU events only; a negative weight counts 0 in the
// breakdown as in the path.
package critpath
