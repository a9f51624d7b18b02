package cli

import (
	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/render/compileview"
	"github.com/tracetab/tracetab/internal/units"
)

type compileOptions struct {
	format string
	top    int
	width  int
}

func newCompileCmd(e *env) *cobra.Command {
	o := &compileOptions{}
	cmd := &cobra.Command{
		Use:   "compile TRACE [COMPILED]",
		Short: "What torch.compile changed in a trace, and what it did not; eager against compiled",
		Long: `compile TRACE summarises what torch.compile left in one trace:

  regions   Torch-Compiled Region: F/C (Dynamo frame F, compile C: C > 0 is a
            recompile), CompiledFunction / CompiledFunctionBackward (AOTAutograd),
            ## Call CompiledFxGraph H ## (an Inductor graph): calls, CPU total,
            calls per profiler step
  cost      per outermost compiled call, its CPU time split into parts: the
            TorchDynamo Cache Lookup just before it, Dynamo's own time, Pregraph
            bytecode, the AOT wrapper (prologue/epilogue, CompiledFunction), the
            graph's code (and Inductor's per-kernel launcher ops), and the
            runtime/driver calls inside; every event's self time goes to the
            nearest enclosing part, so the parts add up to the call
  kernels   Inductor's Triton kernels (named triton_*), with the fused ops read
            from the name (triton_poi_fused__unsafe_view_mul_silu_2: pointwise,
            _unsafe_view, mul, silu; a heuristic: names it cannot read are
            listed), the library kernels the compiled code still calls (GEMM,
            attention, convolution, collectives) and its other kernels
  graphs    CUDA/HIP graph replays (cudaGraphLaunch, hipGraphLaunch): kernels per
            replay, distinct kernel sequences
  tax       compile work inside the profiled window ("... (dynamo_timed)"
            events, Dynamo/Inductor compile frames): its duration and step

A trace with no compiled region, no Inductor kernel and no graph replay says so
on stderr and exits 0.

compile EAGER COMPILED compares an eager trace with a compiled one, per
profiler step (steps paired by their number; unpaired steps are listed):
CPU time, GPU busy and idle, kernels, launch calls, median kernel duration,
memcpys, each with its ratio; what disappeared (eager ops and kernels with no
counterpart), what fused (each Inductor kernel and the eager ops its name
carries), what stayed (library kernels both call, with their time), and one
closing sentence. Device work counts in the step of its launch call. When
COMPILED shows no torch.compile activity, EAGER does, a side has no GPU work
(GPU figures are then n/a, null in JSON) or no ProfilerStep#N (whole traces
are compared), a note on stderr says so and the exit code stays 0.

Exit codes: 0 ok (also with the notes above), 2 usage error, 3 unreadable input.`,
		Example: `  tracetab compile trace.json.gz
  tracetab compile trace.json.gz --format json | jq '.kernels[] | select(.class == "inductor") | .fused.ops'
  tracetab compile eager.json.gz compiled.json.gz
  tracetab compile eager.json.gz compiled.json.gz --top 0
  tracetab compile eager.json.gz compiled.json.gz --format md >> "$GITHUB_STEP_SUMMARY"`,
		Args: rangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(o.format, "text", "md", "json"); err != nil {
				return err
			}
			if o.top < 0 {
				return usageErrorf("--top %d: want a number of rows from 0 (0: all)", o.top)
			}
			if err := checkWidth(o.width); err != nil {
				return err
			}
			if len(args) == 2 {
				return runCompare(e, o, args[0], args[1])
			}
			return runCompile(e, o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text, md or json")
	cmd.Flags().IntVar(&o.top, "top", 20, "text and md: list at most this many kernels, graph sequences, vanished ops, vanished kernels, fusions and kept kernels (0: all; json lists all)")
	widthFlag(cmd.Flags(), &o.width)
	e.completeFlag(cmd, "format", fixedCompletion("text", "md", "json"))
	return cmd
}

func runCompile(e *env, o *compileOptions, path string) error {
	t, err := e.loadBare(path)
	if err != nil {
		return err
	}
	s := compile.Summarize(t)
	if !s.HasCompile {
		msg := "no torch.compile activity in " + path + ": no compiled region, no Inductor kernel, no graph replay"
		if n := len(s.Capture.Windows); n > 0 {
			msg += "; it records " + units.Plural(n, "CUDA graph capture", "CUDA graph captures")
		}
		note(e.stderr, msg)
	}
	if o.format == "json" {
		return compileview.JSON(e.stdout, path, s)
	}
	return compileview.Text(e.stdout, o.format, path, s, compileview.View{Width: e.textWidth(o.width), Top: o.top})
}

func runCompare(e *env, o *compileOptions, eagerPath, compiledPath string) error {
	eager, err := e.loadBare(eagerPath)
	if err != nil {
		return err
	}
	compiled, err := e.loadBare(compiledPath)
	if err != nil {
		return err
	}
	c := compile.Compare(eager, compiled)
	for _, n := range compileview.CompareNotes(c, eagerPath, compiledPath) {
		note(e.stderr, n)
	}
	if o.format == "json" {
		return compileview.CompareJSON(e.stdout, eagerPath, compiledPath, c)
	}
	return compileview.CompareText(e.stdout, o.format, eagerPath, compiledPath, c, compileview.View{Width: e.textWidth(o.width), Top: o.top})
}
