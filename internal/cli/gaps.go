package cli

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/render/gapsview"
)

type gapsOptions struct {
	path       string
	device     int
	stream     int64
	minGap     time.Duration
	top        int
	steps      string
	format     string
	linked     bool
	hta        bool
	allThreads bool
	all        bool
	width      int
	section    string
	maxQueue   int
}

func newGapsCmd(e *env) *cobra.Command {
	o := &gapsOptions{}
	cmd := &cobra.Command{
		Use:   "gaps TRACE",
		Short: "Why the GPU sits idle: idle categories, a cause per gap, one verdict, torch's step breakdown",
		Long: `gaps reads the CPU lane and the GPU lane together.

Verdict: one class over one stated denominator, the union of the profiler-step
windows when the trace has steps (those --steps selects), else the GPU window
(first to last device op); with several devices the span counts once per
device. GPU idle is the span minus the union of kernels, memcpys and memsets
inside it (GPU annotation spans and syncs are not work). At most 20% idle is
gpu-bound; otherwise the class of the causes that hold most idle time:
input-bound (input), cpu-bound (cpu, untraced), launch-bound (launch,
dispatch), sync-bound (sync), dependency-bound (dependency, queued),
profiler (the trace is distorted), startup (one-time start-up calls).
steady_class is the same rule with the start-up idle left out of the idle
and of the denominator. --device and --stream narrow the verdict and say so.

Start-up calls: a runtime or driver call is one-time start-up when it creates
a stream, event, context, module or library handle (cuDNN, cuBLAS, MIOpen,
...), when it is a device property query the trace makes once, or when it is
an outlier of its name: 1ms or longer and at least 10 times the median of the
calls of its name, and the first call of that name, or the first launch of
the device op it launched (lazy module loading), or a memory call (cudaMalloc,
cudaFree, hipMalloc, hipFree, ...). A median of fewer than three calls never
makes an outlier.

Causes: each device gap (every stream of the device idle) is split by these
rules, in this order:
  1. after the last op: what the last op's launching thread did next;
  2. host wait (the next op's launch call started after the GPU went idle):
     what its launching thread did until the call, then the call itself
     (launch; startup for a start-up call), then rule 4;
  3. blocking launch (the call started before the GPU went idle and was
     still running): what the thread did until the call returned, the call
     innermost (launch, or startup), then rule 4;
  4. after the call returned: dependency when the op's stream waited on a
     recorded event (a cudaStreamWaitEvent call after the previous op on
     that stream, or a GPU-side wait), else dispatch (launched while the
     GPU was idle, it started late); when the call returned before the GPU
     went idle (queued), the whole gap: dependency as above, else dispatch
     when shorter than 30us, else queued (it waited on something the trace
     does not show);
  5. the profiler's own events take the time they overlap (first from
     untraced, dispatch, queued, dependency).
What a thread did is read instant by instant, each instant counted once for
the innermost event then (of events that overlap without nesting, the one
that started later), clipped to the window: input (enumerate(DataLoader),
__next__ and everything under them; and input preparation: a Python function
or annotation named with a word starting preprocess, collate, transform (not
transformer), tokeniz or processor, and everything under it), sync (a
*Synchronize, a synchronous memcpy, aten::item/_local_scalar_dense), startup
(start-up calls), launch (other launch calls), profiler (overhead events),
cpu (any other op, Python function or annotation), untraced (nothing
recorded). The largest share is the cause; the activity named beside it is
the innermost event covering more than half the gap (or the launch call, the
start-up call, the profiler's event) with the part of the gap it holds for
that cause, never more than the cause's own share. Every share is within
0-100% and the shares of a gap add up to it.

Idle categories (HolisticTraceAnalysis's rules, exact in integer ns): per
stream, ops sorted by start; each gap from the latest end so far to the next
start is host_wait when the next op's launch call started after the lane went
idle, else kernel_wait when shorter than 30us, else other_wait. A device is
its merged lane (each idle instant counted once), the total the sum of
devices. Device ops with no launch call in the trace are never a host wait
(HTA compares with a missing launch time, which is false). Idle before the
first and after the last op inside the span are their own lines. --hta
computes them as HTA 0.6.1 does: timestamps rounded to whole us (start up,
end down), only ops launched before the last ProfilerStep when there are two
or more, the gap to the previous op in start order even when negative, and
totals summed over streams; the text shows HTA's own idle (the sum of its
categories) beside the exact one.

Launch queue (HolisticTraceAnalysis's queue length): per stream, +1 when the
launch call of a device op starts, -1 when the op starts on the GPU (only ops
whose launch call is in the trace count; with --steps, those launched in the
selected steps). JSON streams[].queue gives the most and the time-weighted
median ops queued over the stream's window (first launch call to last op
start), the time at the most, and full_ns, the time with --max-queue (1024,
HTA's default) or more queued, when a launch call blocks. The text gives a
stream a line only when its queue was full or held half of --max-queue.

Steps: a device op belongs to the step its launch call ran in; a gap whose
two sides were launched in different steps is "between 3 and 4". Dead
windows are listed on the threads that launch GPU work or carry the step
annotations (--all-threads: every thread); every section obeys --steps and
--min-gap. A --steps, --device or --stream that selects nothing exits 2
naming what the trace has. A CPU-only trace says it has no GPU lane and
exits 0.

Output: text fits the terminal (--width N; 0: no limit), names cut in the middle and
columns a narrow terminal can do without left out; md prints every table
(names in code spans), csv one table: --section (gaps by default; verdict,
causes, startup, lanes, breakdown, latency, blocking, dead, steps); json
everything.`,
		Example: `  tracetab gaps trace.json.gz
  tracetab gaps trace.json --min-gap 50us --top 20
  tracetab gaps trace.json --device 0 --stream 7 --steps 3-5
  tracetab gaps trace.json --hta --format json | jq '.idle.total'
  tracetab gaps trace.json --format json | jq '.verdict | {class, steady_class, startup_pct}'
  tracetab gaps trace.json --width 80
  tracetab gaps trace.json --format json | jq '.streams[] | {stream, queue}'
  tracetab gaps trace.json --format csv --section causes`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if err := checkFormat(o.format, "text", "md", "csv", "json"); err != nil {
				return err
			}
			if o.minGap < 0 || o.top < 0 {
				return usageErrorf("--min-gap and --top must not be negative")
			}
			if o.maxQueue < 1 {
				return usageErrorf("--max-queue must be at least 1, got %d", o.maxQueue)
			}
			if err := checkWidth(o.width); err != nil {
				return err
			}
			if o.section != "" {
				if o.format != "csv" && o.format != "md" {
					return usageErrorf("--section picks one table of --format csv or md; got --format %s", o.format)
				}
				if !slices.Contains(gapsview.Sections, o.section) {
					return usageErrorf("--section %q: want one of %s", o.section, strings.Join(gapsview.Sections, ", "))
				}
			}
			return runGaps(e, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.device, "device", -1, "only this GPU (-1: all)")
	f.Int64Var(&o.stream, "stream", -1, "only this stream (-1: all)")
	f.Var(newDurationValue(&o.minGap), "min-gap", "list only gaps and dead windows at least this long (e.g. 20us, 1ms); all gaps still count")
	f.IntVar(&o.top, "top", 10, "how many gaps, blocking calls and dead windows to list (0: all)")
	f.StringVar(&o.steps, "steps", "", "only profiler steps A-B (e.g. 3-5, or 4)")
	f.BoolVar(&o.linked, "linked-only", false, "count only device ops whose launch call is in the trace (as TraceLens does)")
	f.BoolVar(&o.hta, "hta", false, "idle categories exactly as HTA 0.6.1's get_idle_time_breakdown computes them")
	f.BoolVar(&o.allThreads, "all-threads", false, "list dead windows on every CPU thread")
	f.BoolVar(&o.all, "all", false, "text: list every step in the steps table (by default more than 20 steps show their distribution, the cold steps and the steps that stand out)")
	f.IntVar(&o.maxQueue, "max-queue", gaps.QueueLimit, "the launch queue length counted as full (HTA's max_queue_length)")
	f.StringVar(&o.format, "format", "text", "output format: text, md (every table), csv (one table: --section) or json")
	widthFlag(f, &o.width)
	f.StringVar(&o.section, "section", "", "md or csv: one table ("+strings.Join(gapsview.Sections, ", ")+"; csv: gaps)")
	e.completeFlag(cmd, "section", fixedCompletion(gapsview.Sections...))
	e.completeFlag(cmd, "format", fixedCompletion("text", "md", "csv", "json"))
	return cmd
}

func runGaps(e *env, o *gapsOptions) error {
	opts := gaps.Options{Device: o.device, Stream: o.stream, MinGap: o.minGap.Nanoseconds(), Top: o.top, LinkedOnly: o.linked,
		HTA: o.hta, AllThreads: o.allThreads, MaxQueue: o.maxQueue}
	if o.format == "" || o.format == "text" {
		opts.Cells = sparkCells // the step rows' sparklines
	}
	if o.steps != "" {
		lo, hi, err := parseRange(o.steps)
		if err != nil {
			return usageErrorf("--steps: %v", err)
		}
		opts.StepLo, opts.StepHi, opts.HasStep = lo, hi, true
	}
	t, err := e.loadBare(o.path)
	if err != nil {
		return err
	}
	if opts.HasStep {
		if err := checkSteps(t, opts.StepLo, opts.StepHi); err != nil {
			return err
		}
	}
	if err := checkLane(t, o.device, o.stream); err != nil {
		return err
	}
	// The links are built once; gaps never looks an id up, reads
	// Links.Launched or follows the forward-backward flows.
	e.letGo(func() { t.OmitFromLinks(false, true) })
	l := t.Links()
	e.letGo(func() {
		l.ReleaseIDIndexes()
		l.Launched = nil
		t.Flows = nil
	})
	// What lives on is pointer-free event storage, cheap to mark: a tighter
	// GC target for the analysis's short-lived lists costs no measurable
	// CPU. Measured on the 1 GB trace (same minute, 3 runs each): peak RSS
	// 357/356/364 MiB at 20, 315/308/306 at 5, 296/293/300 at 2; user CPU
	// 1.97-2.06 s in every case. The rendering (JSON allocates much) runs
	// at the usual target again. What was set before (root's 20) is set
	// again when gaps returns.
	defer setGCPercent(setGCPercent(5))
	r := gaps.Analyze(t, opts)
	// The analysis's lists, and the trace once the filters are checked,
	// are garbage now: collect them before the rendering allocates, or the
	// heap grows to 1.2 times the size it had with them (1 GB trace, 5
	// paired runs: peak RSS 248 -> 237 MiB, wall the same). What is left
	// is small: the rendering runs at Go's default target (at 20 its few
	// MB of heap took a dozen collections).
	collect()
	setGCPercent(100)
	if r.NoGPU && (opts.HasStep || o.device >= 0 || o.stream >= 0 || o.linked) && t.HasDeviceWork() {
		return usageErrorf("the filters (%s) select no device op of %s, which has some", filterText(o), o.path)
	}
	if r.NoGPU {
		note(e.stderr, "the trace has no GPU lane (no kernels, memcpys or memsets): only the CPU lane is analysed")
	}
	if !r.NoGPU && !queueMeasured(r) {
		note(e.stderr, "launch queue: no device op has its launch call in the trace: the queue is not measured (streams[].queue is null)")
	}
	if r.Verdict.Class == gaps.ClassProfiler {
		note(e.stderr, "warning: the profiler's own work holds most of the idle time: this trace is distorted")
	}
	switch o.format {
	case "json":
		return gapsview.JSON(e.stdout, o.path, r)
	case "md", "csv":
		return gapsview.Tables(e.stdout, r, o.format, o.section)
	}
	return gapsview.Text(e.stdout, r, opts.MinGap, e.textWidth(o.width), o.all, gapsview.StepSparks{Cells: r.StepCells, Glyphs: e.glyphs()})
}

// queueMeasured reports whether some stream's launch queue was measured.
func queueMeasured(r *gaps.Report) bool {
	for _, q := range r.Queues {
		if q.Ops > 0 {
			return true
		}
	}
	return false
}
