package cli

import (
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/render"
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
gpu-bound; otherwise the class of the cause that holds most idle time:
input-bound (the DataLoader), cpu-bound (named CPU work, or nothing recorded
on the launching thread), launch-bound (launch calls and dispatch latency
between short kernels), sync-bound (blocking calls), dependency-bound (ops
queued behind another stream), profiler (the profiler's own work: the trace
is distorted). --device and --stream narrow the verdict and say so.

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
totals summed over streams.

Causes: each device gap whose next op was launched late (a host wait) is
split by what its launching thread did from the moment the GPU went idle to
the launch call, each instant counted for the innermost event running then:
input (enumerate(DataLoader), __next__ and everything under them), sync (a
*Synchronize, a synchronous memcpy, aten::item/_local_scalar_dense), launch
(launch calls; the time from the launch call to the op's start counts here
too), profiler (overhead events, on any thread), cpu (any other op, Python
function or annotation), untraced (nothing recorded). The largest share is
the cause; the innermost event covering more than half of the gap is named
with its share. A queued gap (launched before the GPU went idle) is
dependency when the op's stream waited on an event (a cudaStreamWaitEvent
call after the previous op on that stream, or a GPU-side wait), else
dispatch when shorter than 30us, else queued (it waited on something the
trace does not show: an event, another stream or rank, a graph's own
edges); dependency and queued make dependency-bound.

Steps: a device op belongs to the step its launch call ran in; a gap whose
two sides were launched in different steps is "between 3 and 4". Dead
windows are listed on the threads that launch GPU work or carry the step
annotations (--all-threads: every thread); every section obeys --steps and
--min-gap. A --steps, --device or --stream that selects nothing exits 2
naming what the trace has. A CPU-only trace says it has no GPU lane and
exits 0.`,
		Example: `  tracetab gaps trace.json.gz
  tracetab gaps trace.json --min-gap 50us --top 20
  tracetab gaps trace.json --device 0 --stream 7 --steps 3-5
  tracetab gaps trace.json --hta --format json | jq '.idle.total'
  tracetab gaps trace.json --format json | jq '.verdict.class'`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if err := checkFormat(o.format, "text", "md", "csv", "json"); err != nil {
				return err
			}
			if o.minGap < 0 || o.top < 0 {
				return usageErrorf("--min-gap and --top must not be negative")
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
	f.StringVar(&o.format, "format", "text", "output format: text, md, csv (verdict, lanes, causes, gap list) or json")
	cmd.RegisterFlagCompletionFunc("format", fixedCompletion("text", "md", "csv", "json"))
	return cmd
}

func runGaps(e *env, o *gapsOptions) error {
	opts := gaps.Options{Device: o.device, Stream: o.stream, MinGap: o.minGap.Nanoseconds(), Top: o.top, LinkedOnly: o.linked,
		HTA: o.hta, AllThreads: o.allThreads}
	if o.steps != "" {
		lo, hi, err := parseRange(o.steps)
		if err != nil {
			return usageErrorf("--steps: %v", err)
		}
		opts.StepLo, opts.StepHi, opts.HasStep = lo, hi, true
	}
	t, err := e.loadLean(o.path)
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
	// at the usual target again.
	debug.SetGCPercent(5)
	r := gaps.Analyze(t, opts)
	// The analysis's lists, and the trace once the filters are checked,
	// are garbage now: collect them before the rendering allocates, or the
	// heap grows to 1.2 times the size it had with them (1 GB trace, 5
	// paired runs: peak RSS 248 -> 237 MiB, wall the same). What is left
	// is small: the rendering runs at Go's default target (at 20 its few
	// MB of heap took a dozen collections).
	runtime.GC()
	debug.SetGCPercent(100)
	if r.NoGPU && (opts.HasStep || o.device >= 0 || o.stream >= 0 || o.linked) && hasDeviceWork(t) {
		return usageErrorf("the filters (%s) select no device op of %s, which has some", filterText(o), o.path)
	}
	if r.NoGPU {
		note(e.stderr, "the trace has no GPU lane (no kernels, memcpys or memsets): only the CPU lane is analysed")
	}
	if r.Verdict.Class == gaps.ClassProfiler {
		note(e.stderr, "warning: the profiler's own work holds most of the idle time: this trace is distorted")
	}
	switch o.format {
	case "json":
		return render.GapsJSON(e.stdout, o.path, r)
	case "md", "csv":
		return render.GapsTables(e.stdout, r, o.format)
	}
	return render.GapsText(e.stdout, r, opts.MinGap, render.StepSparks{Cells: gaps.BusyCells(t, opts, sparkCells), Glyphs: e.glyphs()})
}
