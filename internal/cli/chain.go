package cli

import (
	"os"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/chain"
	"github.com/tracetab/tracetab/internal/render"
)

type chainOptions struct {
	path     string
	pattern  string
	step     int64
	instance int
	all      bool
	summary  bool
	depth    int
	style    string
	format   string
}

func newChainCmd(e *env) *cobra.Command {
	o := &chainOptions{}
	cmd := &cobra.Command{
		Use:   "chain TRACE [PATTERN]",
		Short: "From a Python call down to the CUDA kernel, or from a kernel up to the code that launched it",
		Long: `chain prints the dispatch chain as a tree with the timing of every hop.

PATTERN is a regular expression over names. When it matches an op or an
annotation (matmul_add, aten::mm, ProfilerStep#3, Torch-Compiled Region.*),
chain walks down: child ops, runtime and driver calls, and the GPU work each
call launched (device, stream, queue delay = GPU start - launch start, GPU
duration, grid, block, registers, shared memory). When it matches a kernel,
memcpy or memset (.*gemm.*, triton_.*), it walks up: the launch call, the ops
around it, the annotation, the step, the Python frames.

Without PATTERN: the first profiler step. By default the first match in the
first profiler step that has one; --step, --instance and --all choose others.
Marked on the way: occupancy queries before a launch (a GEMM picking its
variant), memcpys the user did not write, blocking syncs, graph launches
(every kernel listed with a count), backward ops (fwdbwd flows).`,
		Example: `  tracetab chain trace.json
  tracetab chain trace.json matmul_add
  tracetab chain trace.json 'aten::mm' --summary
  tracetab chain trace.json '.*gemm.*' --step 3
  tracetab chain trace.json 'Torch-Compiled Region.*' --format json`,
		Args: rangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if len(args) == 2 {
				o.pattern = args[1]
			}
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			switch o.style {
			case "auto", "box", "plain":
			default:
				return usageErrorf("unknown --style %q: use auto, box or plain", o.style)
			}
			if o.instance < 1 {
				return usageErrorf("--instance counts from 1")
			}
			if o.summary && o.pattern == "" {
				return usageErrorf("--summary needs a PATTERN naming the ops to summarise")
			}
			return runChain(e, o, cmd.Flags().Changed("step"))
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.step, "step", 0, "only instances in ProfilerStep#N")
	f.IntVar(&o.instance, "instance", 1, "which instance to show (1 = the first)")
	f.BoolVar(&o.all, "all", false, "show every instance")
	f.BoolVar(&o.summary, "summary", false, "over all instances of the matched ops: device work per call, median queue delay, GPU time spread")
	f.IntVar(&o.depth, "depth", 0, "walk down at most this many levels (0: all)")
	f.StringVar(&o.style, "style", "auto", "tree drawing: box, plain, or auto (box on a terminal)")
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	return cmd
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runChain(e *env, o *chainOptions, hasStep bool) error {
	opts := chain.Options{Step: o.step, HasStep: hasStep, Instance: o.instance, All: o.all, MaxDepth: o.depth}
	if o.pattern != "" {
		re, err := regexp.Compile(o.pattern)
		if err != nil {
			return usageErrorf("PATTERN: %v", err)
		}
		opts.Pattern = re
	}
	t, err := e.load(o.path)
	if err != nil {
		return err
	}
	res := chain.Follow(t, opts)
	if o.summary {
		res.Summary = chain.Summarize(t, opts)
	}
	if len(res.Chains) == 0 {
		what := "no profiler step"
		if o.pattern != "" {
			what = "nothing matches " + o.pattern
		}
		if res.Matches > 0 {
			what = "no instance there (" + itoa(res.Matches) + " matches elsewhere; try --all or another --step)"
		}
		note(e.stderr, what)
	}
	if o.format == "json" {
		return render.ChainJSON(e.stdout, o.path, res)
	}
	box := o.style == "box" || (o.style == "auto" && isTerminal(e.stdout))
	return render.ChainText(e.stdout, res, box)
}
