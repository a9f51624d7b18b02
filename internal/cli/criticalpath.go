package cli

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/critpath"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/critpathview"
	"github.com/tracetab/tracetab/internal/trace"
)

type critOptions struct {
	path       string
	format     string
	step       string
	steps      string
	annotation string
	instance   string
	whatIf     int
	speedup    string
	overlay    string
	top        int
	width      int

	speedupX float64
}

func newCritPathCmd(e *env) *cobra.Command {
	o := &critOptions{}
	cmd := &cobra.Command{
		Use:   "critical-path TRACE",
		Short: "The chain of CPU ops, launches, device ops and syncs that sets each step's time, and what-if",
		Long: `critical-path builds HTA's critical-path graph of each profiler step (a
DAG of every CPU op, runtime call and device op, with launch, stream-order
and sync dependencies) and follows its longest path: what to make faster.

Windows: one per ProfilerStep#N (the trace's numbers; the whole trace when it
has none); --step N; --steps A-B: one window from the start of #A to the end
of #B (for pipelined jobs); --annotation NAME --instance I (or I-J): HTA's
window, the CPU events whose name contains NAME, in start order, the I-th from
0 (I-J: from the I-th's start to the latest end of I..J). A window holds the
CPU events that start in it (its end included) with a duration > 0, the device
ops (kernels, memcpys, memsets) whose launch call is one of them, and the
cuda_sync events of those calls.

The graph (HTA's rules):
- Nodes: a start and an end for each CPU op (cpu_op), runtime or driver call
  and device op of the window.
- Threads: each thread's events are walked depth first in time order and
  each node is joined to the one before it: between top-level ops by a
  dependency of weight 0 (idle CPU time is not counted), inside an op by an
  operator edge weighing the time between the two nodes. Annotations and
  Python frames are walked through without nodes. An event that starts inside
  another and ends after it is not its child. When exactly one thread holds
  ops or annotations named *forward* and exactly one *autograd*, the autograd
  thread is read as part of the forward one.
- Runtime lock: the calls that take the CUDA runtime lock (cudaLaunchKernel,
  cudaMemcpyAsync, cudaHostAlloc; hipLaunchKernel, hipMemcpyAsync,
  hipHostMalloc), on every thread, in time order: each one's end is joined
  from every lock call start still open (its own start weighs its duration,
  the others are dependencies) and from the lock node before it when that is
  an end; the thread walk leaves those links out.
- Blocking calls (cudaDeviceSynchronize, cudaStreamSynchronize,
  cudaEventSynchronize, cudaEventQuery, cudaMemcpy, cudaMemcpyAsync and the
  hip* names): the last edge into their end weighs 0, the CPU only waited;
  the lock chain still weighs cudaMemcpyAsync's duration, as HTA does.
- A device op: its start to its end (its duration). Then a launch edge from
  its launch call's start (weight: the launch delay) when the op is the first
  its call put on the stream, HTA's queue rule holds (over the whole trace:
  when the call started, every op launched to the stream before had started;
  no other call launched to the stream between the call and the op's start),
  the previous op on the stream ended before the call started, and so did
  the op a stream wait makes it wait for. Else a kernel_kernel edge from the
  previous op on the stream (weight: the gap) when the gap is under 1.5 ms
  and no stream wait ended after that previous op. Device ops are walked by
  start, cuda_sync events by end (at one instant, syncs first).
- Sync edges (weight 0): Stream Sync (cudaStreamSynchronize) from the last op
  on its stream to the end of the call; Context Sync (cudaDeviceSynchronize)
  from the last op on every stream of the device; Event Sync
  (cudaEventSynchronize, cudaEventQuery) from the op launched last on the
  recorded stream (wait_on_stream) before the matching cudaEventRecord
  (wait_on_cuda_event_record_corr_id); Stream Wait Event (cudaStreamWaitEvent)
  from that op to the next op launched on the waiting stream by the thread of
  the cudaStreamWaitEvent (GPU to GPU; the last wait that ended by the op's
  start counts). An op outside the window makes no edge. A trace without
  cuda_sync events (torch before 2.1, or not recorded) gets HTA's warning:
  syncs are not seen and the path may be wrong.
- Graph launches are launch calls: the ops of a cudaGraphLaunch are in its
  window (HTA leaves them out, its issue 290); the first on each stream may
  take the launch edge, the others follow on the stream.
- Weights are the time between the two nodes; a negative one (an event that
  outlasts its parent, overlapping ops on a stream) counts 0.

The path: the longest path in topological order (Kahn's algorithm), O(nodes
+ edges). Ties: among predecessors of equal distance, the node latest in
time (then the event earlier in the file, a start before an end): what
finished last is what the node waited for; among ends of equal length, the
earliest node. path is the sum of the path's weights (idle between top-level
ops and the blocked part of a sync are not counted); wall is its last node's
time minus its first's.

Breakdown (adds up to the path): launch and kernel_kernel edges by type;
operator edges by the event the time is attributed to (HTA): a device op is
gpu_comm (NCCL, RCCL and other collective kernels) or gpu_compute; a CPU
event is data_loading when it or an enclosing event is a DataLoader frame,
else cpu. Attribution: start to start goes to the first event, start to end
to that event, end to end to the second, end to start to the enclosing event
of the first; a kernel_kernel gap to the op before it; a launch delay to none.

What if: for the --what-if names with the most path time over the windows,
every edge attributed to an event of that name is cut to ceil(weight /
--speedup) and the longest path recomputed on the same graph: saved =
path - new path, never more than the name's path time times (1 - 1/speedup).

--overlay OUT.json[.gz] writes the input trace for Perfetto or chrome://tracing:
every event kept, args.critical = 1 on the events of the paths, and a flow
arrow (ph s/f, cat and name critical_path, args type and weight_ns) for every
launch, sync and dependency edge of the paths; and each stream's launch queue
as a counter track (ph C, cat tracetab_queue, "Queue Length stream N" in the
GPU's process; see gaps), replacing any an earlier tracetab wrote.`,
		Example: `  tracetab critical-path trace.json.gz                  # one line per step, top ops by path time, syncs, what-if
  tracetab critical-path trace.json --step 5 --overlay cp.json.gz   # open cp.json.gz in ui.perfetto.dev
  tracetab critical-path trace.json --steps 3-6         # one window over four steps (pipelined jobs)
  tracetab critical-path trace.json --annotation '[param|pytorch.model.alex_net|0|0|0|measure|forward]' --instance 1
  tracetab critical-path trace.json --what-if 5 --speedup 1.5
  tracetab critical-path trace.json --format json | jq '.windows[].breakdown_pct'`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if err := o.validate(cmd); err != nil {
				return err
			}
			return runCritPath(e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.step, "step", "", "only ProfilerStep#N")
	f.StringVar(&o.steps, "steps", "", "one window over the consecutive steps A-B (e.g. 3-5)")
	f.StringVar(&o.annotation, "annotation", "", "HTA's window: the CPU events whose name contains this (with --instance)")
	f.StringVar(&o.instance, "instance", "", "with --annotation: which of them, from 0, in start order: I or I-J (default 0)")
	f.IntVar(&o.whatIf, "what-if", 3, "try making the names with the most path time faster: this many (0: none)")
	f.StringVar(&o.speedup, "speedup", "2", "what-if: how many times faster (a number >= 1)")
	f.StringVar(&o.overlay, "overlay", "", "write the trace with the paths marked for Perfetto to this file (.json or .json.gz)")
	f.IntVar(&o.top, "top", 10, "text: rows of the top ops by path time (0: all)")
	widthFlag(f, &o.width)
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	e.completeFlag(cmd, "format", fixedCompletion("text", "json"))
	return cmd
}

func (o *critOptions) validate(cmd *cobra.Command) error {
	if err := checkFormat(o.format, "text", "json"); err != nil {
		return err
	}
	n := 0
	for _, s := range []string{o.step, o.steps, o.annotation} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		return usageErrorf("--step, --steps and --annotation each choose the windows: give one")
	}
	if o.instance != "" && o.annotation == "" {
		return usageErrorf("--instance needs --annotation NAME")
	}
	if cmd.Flags().Changed("annotation") && o.annotation == "" {
		return usageErrorf("--annotation: give a name (HTA's \"\" is the whole trace: the default for a trace without steps)")
	}
	if o.whatIf < 0 {
		return usageErrorf("--what-if %d: want a number of names, 0 for none", o.whatIf)
	}
	if o.top < 0 {
		return usageErrorf("--top %d: want a number of rows, 0 for all", o.top)
	}
	if err := checkWidth(o.width); err != nil {
		return err
	}
	x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(o.speedup), "x"), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 1 {
		return usageErrorf("--speedup %q: want a number >= 1, e.g. 2 or 1.5", o.speedup)
	}
	o.speedupX = x
	if o.overlay != "" && o.path == "-" {
		return usageErrorf("--overlay copies the input trace: give a file, not standard input")
	}
	return nil
}

func parseInstance(s string) (int, int, error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi := lo
	var err2 error
	if isRange {
		hi, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	if err1 != nil || err2 != nil || lo < 0 || hi < lo {
		return 0, 0, fmt.Errorf("--instance %q: want I or I-J, whole numbers from 0 (e.g. 1 or 0-3)", s)
	}
	return lo, hi, nil
}

// critWindows chooses the windows the flags ask for.
func critWindows(t *trace.Trace, o *critOptions) ([]critpath.Window, error) {
	switch {
	case o.step != "":
		n, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(o.step), "#"), 10, 64)
		if err != nil {
			return nil, usageErrorf("--step %q: want a step number, e.g. 5", o.step)
		}
		w, ok := critpath.StepWindow(t, n)
		if !ok {
			return nil, checkSteps(t, n, n)
		}
		return []critpath.Window{w}, nil
	case o.steps != "":
		lo, hi, err := parseRange(o.steps)
		if err != nil {
			return nil, usageErrorf("--steps: %v", err)
		}
		w, ok := critpath.StepRangeWindow(t, lo, hi)
		if !ok {
			return nil, checkSteps(t, lo, hi)
		}
		return []critpath.Window{w}, nil
	case o.annotation != "":
		lo, hi, err := parseInstance(o.instance)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		w, err := critpath.AnnotationWindow(t, o.annotation, lo, hi)
		var ae *critpath.AnnotationError
		if errors.As(err, &ae) {
			return nil, usageErrorf("%s in %s", ae.Msg, t.File)
		}
		return []critpath.Window{w}, err
	}
	return critpath.StepWindows(t), nil
}

func runCritPath(e *env, o *critOptions) error {
	t, err := e.loadBare(o.path) // the path never reads memory records: counted, not stored
	if err != nil {
		return err
	}
	if o.overlay != "" && t.Truncated {
		return usageErrorf("--overlay copies the input trace, and %s is truncated: give a complete trace", o.path)
	}
	windows, err := critWindows(t, o)
	if err != nil {
		return err
	}
	if len(t.StepWindows()) == 0 && o.annotation == "" {
		note(e.stderr, o.path+" has no ProfilerStep#N annotations: one window over the whole trace")
	}
	var r *critpath.Result
	atCritpathGC(func() {
		r = critpath.Analyze(t, windows, critpath.Options{WhatIf: o.whatIf, Speedup: o.speedupX, Detail: o.format == "json" || o.overlay != ""})
	})
	var warnings []string
	if r.NoSyncEvents {
		msg := "the trace has no cuda_sync events (recorded from torch 2.1 on; see pytorch/pytorch#105187): the path does not see the syncs and may be wrong (HTA's warning)"
		warnings = append(warnings, msg)
		note(e.stderr, "warning: "+msg)
	}
	for _, w := range r.Windows {
		if !w.HasPath {
			note(e.stderr, w.Label+": no path: "+w.Reason)
		}
	}
	if o.overlay != "" {
		if err := writeOverlay(e, o, t, r); err != nil {
			return err
		}
	}
	if o.format == "json" {
		return critpathview.JSON(e.stdout, o.path, t, r, warnings)
	}
	return critpathview.Text(e.stdout, o.path, r, critpathview.TextOptions{Width: e.textWidth(o.width), Top: o.top, Demangle: e.demangle})
}

// writeOverlay reads the input again and writes the overlay file.
func writeOverlay(e *env, o *critOptions, t *trace.Trace, r *critpath.Result) error {
	in, err := os.Open(o.path)
	if err != nil {
		return &parse.Error{File: o.path, Offset: -1, Msg: "cannot open again for --overlay: " + err.Error()}
	}
	defer in.Close()
	src, err := parse.Decompressed(in)
	if err != nil {
		return &parse.Error{File: o.path, Offset: -1, Msg: "--overlay: " + err.Error()}
	}
	out, err := os.Create(o.overlay)
	if err != nil {
		return &writeError{fmt.Errorf("--overlay: %v", err)}
	}
	var dst io.Writer = out
	var gz *gzip.Writer
	if strings.HasSuffix(o.overlay, ".gz") {
		gz = gzip.NewWriter(out)
		dst = gz
	}
	st, err := critpath.WriteOverlay(dst, src, t, r, gaps.QueueTracks(t))
	if err == nil && gz != nil {
		err = gz.Close()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(o.overlay)
		return &writeError{fmt.Errorf("--overlay %s: %v", o.overlay, err)}
	}
	if st.Marked != st.Want {
		note(e.stderr, fmt.Sprintf("warning: --overlay: marked %d of the %d path events (the others were not found again in %s)", st.Marked, st.Want, o.path))
	}
	note(e.stderr, fmt.Sprintf("wrote %s: %d events, %d marked critical, %d flow arrows, %d launch-queue counter events", o.overlay, st.Events, st.Marked, st.Flows, st.Counters))
	return nil
}

// atCritpathGC runs a critical-path analysis (critical-path, check's
// budgets) at a GC target of 100, and sets the one before again when it
// returns. The analysis (the links included)
// allocates some 30 MB on a 200 MB trace, in columns per event and per
// launch call; at the commands' GC target of 20 that was a collection
// every few MB, each marking the whole trace. On the 20 MB default bench
// trace 71 M -> 48-51 M instructions in the runtime (info's: 48 M), 30 ->
// 27 collections on the 200 MB one; the price is peak RSS on the 200 MB
// bench shapes (2026-12-07, loaded machine, 7-9 runs each): default 75-77
// -> 77-85 MB, Kineto 58-60 -> 62-64, export 61-64 -> 62-66. At 50: 52 M
// instructions, the peaks no lower. The process's target is set here, by
// the command, not in the model (critical-path and check call it once).
func atCritpathGC(analyze func()) {
	defer setGCPercent(setGCPercent(100))
	analyze()
}
