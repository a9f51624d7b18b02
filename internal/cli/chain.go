package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/chain"
	"github.com/tracetab/tracetab/internal/render/chainview"
	"github.com/tracetab/tracetab/internal/render/tableview"
)

// defaultChainLines bounds chain's output unless --max-lines says otherwise.
const defaultChainLines = 1000

type chainOptions struct {
	path     string
	pattern  string
	regex    bool
	up, down bool
	step     int64
	instance int
	all      bool
	summary  bool
	depth    int
	maxLines int
	width    int
	style    string
	format   string
}

func newChainCmd(e *env) *cobra.Command {
	o := &chainOptions{}
	cmd := &cobra.Command{
		Use:   "chain TRACE [PATTERN]",
		Short: "From a Python call down to the CUDA kernel, or from a kernel up to the code that launched it",
		Long: `chain prints the dispatch chain with the timing of every hop.

PATTERN is an exact event name, as 'tracetab table' prints it (parentheses
and all; "ProfilerStep*" takes every step, a name cut with "..." takes the
names with that head and tail); --regex makes it a regular expression. A
PATTERN that names nothing is refused with the closest names (exit 2).

From an op or annotation (matmul_add, aten::mm, ProfilerStep#3) chain walks
down: child ops, runtime and driver calls, and the GPU work each call
launched (device, stream, queue delay = GPU start - launch start, GPU
duration, grid, block, registers, shared memory). From a kernel, memcpy or
memset it walks up, one frame per line: the launch call, the ops around it,
the annotation, the step. A name that is both (a Triton CPU op and its
kernel) needs --down or --up; --up from CPU events shows what encloses them.

Without PATTERN: the first profiler step, or, in a trace without steps, the
first top-level event that launched GPU work (the header says which).
--instance N is the N-th instance in the trace (or in --step N); --all takes
every instance (one nested in another is shown inside it). An annotation
with no child on its own thread hops to the events other threads ran in its
window; walking up, a step annotation on another thread is found by time.

Output is bounded: --max-lines (default 1000, 0 for all) and --depth (levels
shown below the root; self times always count every child) cut the display,
and the lines left out are counted. --summary prints, over every instance,
the device work per call (ops) or who launched them (device ops).
Marked on the way: occupancy queries before a launch (a GEMM picking its
variant), memcpys the user did not write, blocking syncs, graph launches,
backward ops (fwdbwd flows).`,
		Example: `  tracetab chain trace.json
  tracetab chain trace.json matmul_add
  tracetab chain trace.json aten::mm --summary
  tracetab chain trace.json --regex '.*gemm.*' --step 3
  tracetab chain trace.json triton_poi_fused_add_0 --up
  tracetab chain trace.json --regex '^Torch-Compiled Region' --all --format json`,
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
			// a name pasted from the torch table with its device marker
			// names the device op: walk up from it
			if !o.regex && strings.HasSuffix(o.pattern, tableview.GPUMarker) {
				o.pattern = strings.TrimSuffix(o.pattern, tableview.GPUMarker)
				if o.down {
					return usageErrorf("%q names a device op ([gpu]); walking down from it is not possible", o.pattern+tableview.GPUMarker)
				}
				o.up = true
			}
			switch {
			case cmd.Flags().Changed("instance") && o.instance < 1:
				return usageErrorf("--instance %d: instances count from 1", o.instance)
			case cmd.Flags().Changed("instance") && o.all:
				return usageErrorf("--instance and --all exclude each other")
			case o.up && o.down:
				return usageErrorf("--up and --down exclude each other")
			case o.depth < 0:
				return usageErrorf("--depth %d: give a number of levels >= 0 (0: all)", o.depth)
			case checkWidth(o.width) != nil:
				return checkWidth(o.width)
			case o.maxLines < 0:
				return usageErrorf("--max-lines %d: give a number of lines >= 0 (0: all)", o.maxLines)
			case o.pattern == "" && (o.summary || o.up || o.down || o.regex):
				return usageErrorf("--summary, --up, --down and --regex need a PATTERN")
			}
			return runChain(e, o, cmd.Flags().Changed("step"))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.regex, "regex", false, "PATTERN is a regular expression (unanchored) instead of an exact name")
	f.BoolVar(&o.up, "up", false, "walk up: from the device ops PATTERN names (or, when it names none, from its CPU events)")
	f.BoolVar(&o.down, "down", false, "walk down from the CPU events PATTERN names")
	f.Int64Var(&o.step, "step", 0, "only instances in ProfilerStep#N (a device op is in the step of its launch)")
	f.IntVar(&o.instance, "instance", 1, "which instance to show, counted in the trace (or in --step) from 1")
	f.BoolVar(&o.all, "all", false, "show every instance (up to --max-lines)")
	f.BoolVar(&o.summary, "summary", false, "over all instances: device work per call (ops) or who launched them (device ops); no chain")
	f.IntVar(&o.depth, "depth", 0, "show at most this many levels below the root (0: all); self times are unchanged")
	f.IntVar(&o.maxLines, "max-lines", defaultChainLines, "stop printing after this many lines and count the rest (0: no limit)")
	addWidthFlag(cmd, &o.width)
	f.StringVar(&o.style, "style", "auto", "tree drawing: box, plain, or auto (box on a terminal)")
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	return cmd
}

func isTerminal(w any) bool {
	if ww, ok := w.(*wrapWriter); ok {
		w = ww.f
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runChain(e *env, o *chainOptions, hasStep bool) error {
	q := chain.Query{Step: o.step, HasStep: hasStep, Instance: o.instance, All: o.all}
	switch {
	case o.up:
		q.Dir = chain.Up
	case o.down:
		q.Dir = chain.Down
	}
	if o.pattern != "" {
		m, err := chain.NewMatcher(o.pattern, o.regex)
		if err != nil {
			return usageErrorf("PATTERN: %v", err)
		}
		q.Match = m
	}
	// The summary reads no launch parameters, bytes, shapes or memory.
	load := e.load
	if o.summary {
		load = e.loadBare
	}
	if _, err := os.Stat(o.path); err != nil && o.path != "-" && o.pattern != "" {
		if st, err2 := os.Stat(o.pattern); err2 == nil && st.Mode().IsRegular() {
			return usageErrorf("%s is not a file, %s is: the trace comes first (tracetab chain TRACE PATTERN)", o.path, o.pattern)
		}
	}
	t, err := load(o.path)
	if err != nil {
		return err
	}
	// chain looks no id up once the links are built, and counts launches
	// itself: let go of both before the walk allocates (the counts never
	// made).
	e.letGo(func() { t.OmitFromLinks(false, true) })
	l := t.Links()
	e.letGo(func() {
		l.ReleaseIDIndexes()
		l.Launched = nil
	})
	sel, err := chain.Select(t, q)
	if err != nil {
		var nm *chain.NoMatch
		var am *chain.Ambiguous
		var em *chain.Empty
		if errors.As(err, &nm) || errors.As(err, &am) || errors.As(err, &em) {
			return usageErrorf("%s: %v", o.path, err)
		}
		return err
	}
	var sink chain.Sink
	if o.format == "json" {
		sink = chainview.NewJSON(e.stdout, o.path)
	} else {
		box := o.style == "box" || (o.style == "auto" && e.isTerminal())
		ts := chainview.NewText(e.stdout, box)
		ts.SetWidth(e.textWidth(o.width))
		sink = ts
	}
	if o.summary {
		return chain.RunSummary(sel, sink)
	}
	f, err := chain.Run(sel, chain.Options{MaxDepth: o.depth, MaxLines: o.maxLines}, sink)
	if err != nil {
		return err
	}
	if f.OmittedLines > 0 || f.OmittedInstances > 0 {
		msg := "output cut at --max-lines " + itoa(o.maxLines) + ": " + itoa(f.OmittedLines) + " more lines"
		if f.OmittedInstances > 0 {
			msg += " and " + itoa(f.OmittedInstances) + " more instances"
		}
		note(e.stderr, msg+" not shown (--max-lines 0 shows all)")
	}
	return nil
}
