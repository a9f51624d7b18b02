package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/render"
)

type gapsOptions struct {
	path   string
	device int
	stream int64
	minGap time.Duration
	top    int
	steps  string
	format string
	linked bool
}

func newGapsCmd(e *env) *cobra.Command {
	o := &gapsOptions{}
	cmd := &cobra.Command{
		Use:   "gaps TRACE",
		Short: "Where the GPU waits and why: busy/idle per device and stream, idle gaps with causes, launch latency",
		Long: `gaps reads the CPU lane and the GPU lane together: per device and stream the
window (first to last device op), busy time (union of kernels, memcpys and
memsets; GPU annotation spans and syncs are not work), idle time; the largest
idle stretches, each with a cause:

  sync         a blocking call on the CPU (cudaDeviceSynchronize, a synchronous
               memcpy, ...) spans the gap
  profiler     the profiler's own activity (Activity Buffer Request, ...) overlaps it
  cpu-starved  the next op's launch call started after the GPU went idle
  other        the next op was launched in time; the detail says what the
               launching thread was doing

then idle time by cause, launch latency (launch call to GPU start) overall and
per kernel, dead windows on the CPU lane, per-step busy/idle with a cold-start
flag, and a verdict: overhead-bound or compute-bound, with the numbers.
A CPU-only trace says it has no GPU lane and exits 0.`,
		Example: `  tracetab gaps trace.json.gz
  tracetab gaps trace.json --min-gap 50us --top 20
  tracetab gaps trace.json --device 0 --stream 7 --steps 3-5
  tracetab gaps trace.json --format json | jq '.devices[0].idle_us'`,
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
	f.Var(newDurationValue(&o.minGap), "min-gap", "list only gaps at least this long (e.g. 20us, 1ms); all gaps still count")
	f.IntVar(&o.top, "top", 10, "how many gaps and dead windows to list (0: all)")
	f.StringVar(&o.steps, "steps", "", "only profiler steps A-B (e.g. 3-5, or 4)")
	f.BoolVar(&o.linked, "linked-only", false, "count only device ops whose launch call is in the trace (as TraceLens does)")
	f.StringVar(&o.format, "format", "text", "output format: text, md, csv (the gap list) or json")
	cmd.RegisterFlagCompletionFunc("format", fixedCompletion("text", "md", "csv", "json"))
	return cmd
}

func runGaps(e *env, o *gapsOptions) error {
	opts := gaps.Options{Device: o.device, Stream: o.stream, MinGap: o.minGap.Nanoseconds(), Top: o.top, LinkedOnly: o.linked}
	if o.steps != "" {
		lo, hi, err := parseRange(o.steps)
		if err != nil {
			return usageErrorf("--steps: %v", err)
		}
		opts.StepLo, opts.StepHi, opts.HasStep = lo, hi, true
	}
	t, err := e.load(o.path)
	if err != nil {
		return err
	}
	r := gaps.Analyze(t, opts)
	if r.NoGPU {
		note(e.stderr, "the trace has no GPU lane (no kernels, memcpys or memsets): only the CPU lane is analysed")
	}
	switch o.format {
	case "json":
		return render.GapsJSON(e.stdout, o.path, r)
	case "md", "csv":
		return render.GapsGrid(r, o.format == "csv").Write(e.stdout, o.format)
	}
	return render.GapsText(e.stdout, r)
}
