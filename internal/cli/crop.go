package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/crop"
	"github.com/tracetab/tracetab/internal/render/cropview"
	"github.com/tracetab/tracetab/internal/units"
)

type cropOptions struct {
	path   string
	out    string
	step   int64
	window string
	rank   int
	format string
}

func newCropCmd(e *env) *cobra.Command {
	o := &cropOptions{}
	cmd := &cobra.Command{
		Use:   "crop TRACE --step N | --window START..END | --rank N -o OUT",
		Short: "Cut one step, a time window or one rank's GPU out of a trace, for Perfetto or chrome://tracing",
		Long: `crop writes a smaller Chrome trace (OUT: .json, or .json.gz to compress it)
that holds only what belongs to the selection, so that a viewer opens it
(Perfetto stops near 2 GB, chrome://tracing near 500 MB) and tracetab reads it
with the same numbers for that part.

What belongs to the selection (the same rule as table --steps and gaps
--steps):
  --step N             the window of the ProfilerStep#N annotation (its CPU start
                       to its CPU end)
  --window START..END  a window of offsets from the origin (the profiler's Trace
                       event, as every offset tracetab prints), with units:
                       1.5ms..4ms
  an event belongs to the window when it starts in it (start <= t < end);
  a device op (kernel, memcpy, memset) when its launch call does, wherever it
  ran on the GPU, with its launch flow; a device op with no launch call in
  the trace, and a GPU annotation span, by its own start. Events are kept
  whole, never clipped: an event that starts in the window and ends after it
  keeps its duration, and one that started before the window (an enclosing
  Python frame, a step annotation) is left out. [memory] records, counters
  and other instants belong by their time; a forward-to-backward flow is kept
  when all its ends are.
  --rank N             the GPU of one rank (device N: torch runs one rank per
                       GPU) and the processes that launched work on it; other
                       devices' lanes and processes are left out. It combines
                       with --step or --window.

Always kept: the profiler's Trace event (the origin, so every offset and
rounding stays that of the original), the process and thread names, and every
other top-level key as written (deviceProperties, distributedInfo,
baseTimeNanoseconds, schemaVersion, traceName, ...). Events are copied as
written, made strict JSON where the trace was lenient (raw control characters
escaped, invalid UTF-8 replaced by U+FFFD, bare words such as N/A written as
null).

Added: each kept stream's launch queue as a counter track (ph C, cat
tracetab_queue, "Queue Length stream N" in the GPU's process; see gaps),
computed over the whole trace and clipped to the window (its first point the
length in force when the window opens); counters of that category in the
input (an earlier crop's) are left out, not doubled.

The input is read twice and never held whole: a lean first reading decides
the window and the launches to keep, the second streams the text through.
OUT appears only once complete (written to a temporary file, then renamed).`,
		Example: `  tracetab crop trace.json.gz --step 3 -o step3.json          # then open step3.json in Perfetto
  tracetab crop trace.json.gz --window 1.5s..1.7s -o slow.json.gz
  tracetab crop trace.json.gz --rank 2 --step 10 -o rank2-step10.json.gz
  tracetab table step3.json                                     # the same rows as: tracetab table trace.json.gz --steps 3`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			opts, err := o.options(cmd)
			if err != nil {
				return err
			}
			return runCrop(e, o, opts)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.step, "step", 0, "keep ProfilerStep#N: what starts in its window, and the device ops launched from it")
	f.StringVar(&o.window, "window", "", "keep the window START..END, offsets from the origin with units (e.g. 1.5ms..4ms)")
	f.IntVar(&o.rank, "rank", -1, "keep the GPU of one rank (device N) and the processes that launched work on it")
	f.StringVarP(&o.out, "out", "o", "", "the crop to write: a .json file, or .json.gz to compress it (required)")
	f.StringVar(&o.format, "format", "text", "the summary on stdout: text or json")
	e.completeFlag(cmd, "format", fixedCompletion("text", "json"))
	return cmd
}

// options checks the selection flags.
func (o *cropOptions) options(cmd *cobra.Command) (crop.Options, error) {
	opts := crop.Options{Device: -1}
	fl := cmd.Flags()
	if fl.Changed("step") {
		opts.Step, opts.HasStep = o.step, true
	}
	if fl.Changed("window") {
		a, b, ok := strings.Cut(o.window, "..")
		if !ok {
			return opts, usageErrorf("--window %q: give START..END, offsets from the origin with units, e.g. 1.5ms..4ms", o.window)
		}
		lo, err := units.ParseDur(a)
		if err != nil {
			return opts, usageErrorf("--window: the start: %v", err)
		}
		hi, err := units.ParseDur(b)
		if err != nil {
			return opts, usageErrorf("--window: the end: %v", err)
		}
		if hi <= lo {
			return opts, usageErrorf("--window %q: the end must come after the start", o.window)
		}
		opts.WindowLo, opts.WindowHi, opts.HasWindow = lo, hi, true
	}
	if fl.Changed("rank") {
		if o.rank < 0 {
			return opts, usageErrorf("--rank %d: give a device index from 0", o.rank)
		}
		opts.Device = o.rank
	}
	switch {
	case opts.HasStep && opts.HasWindow:
		return opts, usageErrorf("crop takes --step or --window, not both")
	case !opts.HasStep && !opts.HasWindow && opts.Device < 0:
		return opts, usageErrorf("crop needs a selection: --step N, --window START..END or --rank N; see 'tracetab crop --help'")
	case o.out == "":
		return opts, usageErrorf("crop needs -o OUT: the .json or .json.gz file to write")
	case o.path == "-":
		return opts, usageErrorf("crop reads its input twice: give a file, not - (standard input)")
	case !strings.HasSuffix(o.out, ".json") && !strings.HasSuffix(o.out, ".json.gz"):
		return opts, usageErrorf("-o %s: the crop is a .json or .json.gz file", o.out)
	}
	if same(o.path, o.out) {
		return opts, usageErrorf("-o %s is the input: write the crop to another file", o.out)
	}
	return opts, nil
}

// same reports whether two paths name one existing file.
func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

func runCrop(e *env, o *cropOptions, opts crop.Options) error {
	t, err := e.loadLean(o.path)
	if err != nil {
		return err
	}
	plan, err := crop.NewPlan(t, opts)
	if err != nil {
		return usageErrorf("%v", err)
	}
	t = nil
	collect() // the model is not needed to stream the text
	res, err := crop.File(plan, o.path, o.out, e.allowTruncated)
	var oe *crop.OutputError
	var ce *crop.Error
	switch {
	case errors.As(err, &oe):
		return &exitError{code: ExitUnreadable, err: oe}
	case errors.As(err, &ce):
		return &exitError{code: ExitUnreadable, err: ce}
	case err != nil:
		return &exitError{code: ExitUnreadable, err: fmt.Errorf("%s: %v", o.path, err)}
	}
	if res.Events == 0 {
		note(e.stderr, "the selection holds no complete event: the crop has only the trace's metadata")
	}
	if o.format == "json" {
		return cropview.JSON(e.stdout, o.path, o.out, plan, res)
	}
	return cropview.Text(e.stdout, o.out, plan, res)
}
