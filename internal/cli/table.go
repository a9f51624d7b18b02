package cli

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

type tableOptions struct {
	path         string
	by           string
	sort         string
	limit        int
	groupShape   bool
	groupStack   int
	topLevel     bool
	nameWidth    int
	nameWidthSet bool // --name-width was given (the kernel view then caps names at it)
	timeUnit     string
	header       string
	torch        string
	match        string
	exclude      string
	steps        string
	format       string
	torchExact   bool
	hist         bool // --by kernel: a duration histogram per row (table_kernelhist.go)
	all          bool // --by step: every step, not the summary of many
	version      table.Version
	matchRe      *regexp.Regexp
	excludeRe    *regexp.Regexp
	stepLo       int64
	stepHi       int64
	stepsEnabled bool
	compact      *compactOptions // --columns, --width (table_columns.go)
	module       moduleOptions   // --by module (table_modules.go)
	seq          sequenceOptions // --by sequence (table_sequences.go)
}

func newTableCmd(e *env) *cobra.Command {
	o := &tableOptions{}
	cmd := &cobra.Command{
		Use:   "table TRACE",
		Short: "torch's key_averages() table from the trace, plus kernel and step views",
		Long: `table prints what prof.key_averages().table() printed inside the profiled
process, from the exported trace: self and total CPU and CUDA time per op,
calls, averages, memory.

Two sets of rules make the table. How events are REBUILT (which events get
kernels, the id and thread of a runtime call no op launched, which [memory]
records fall in an op) follows the torch that recorded the trace, judged from
its era (tracetab info names it). How the table is PRINTED (grouping key,
footer, units, layout) follows --torch, by default the recording torch's
version: the newest torch that writes the trace's form (1.9 for 2021 traces,
2.3 for integer-microsecond traces with "Ev Idx", ` + table.Newest.String() + ` for ns traces; info
says which and why). A --torch the trace cannot come from changes only the
printing: the events stay those of the nearest torch that writes the form.
Known versions: ` + table.KnownList() + `.

--by kernel lists GPU kernels (and memcpy/memset) by name with calls, total,
average, median, min, max, standard deviation and class (communication,
memory, wait, compute), and, where Kineto wrote the kernels' "blocks per SM"
and "est. achieved occupancy %", the TensorBoard plugin's Kernel view columns
(TC: Tensor Cores by name, Blk/SM, Occ%: duration-weighted means) and per GPU
its utilization, est. SM efficiency and est. achieved occupancy over the
steps; --by step lists profiler
steps with CPU time, GPU busy time and kernel counts (more than 20 steps:
the distribution of each column, min, median, p90 and max, then the cold
steps and the ones that stand out, more than 3 MADs from a column's median
or n/a where most have a value, the 5 farthest; --all lists every step);
--by module shows the
module tree of a trace recorded with with_modules=True (or with_stack=True):
per nn.Module, occurrences, host and device time, total and self; --by
category files the device time under GEMM, attention, convolution,
elementwise, reduction/norm, communication, memcpy/memset and other (by
the kernel's launching op, else its name), in total and per step.
--by sequence lists the kernel sequences one op launches again and again (HTA's
frequent CUDA kernel sequences): per top-level op occurrence (or, with
--op, per op named so) and stream, its device ops in time order, at least
--min-len of them, with count, device time and mean, the top --top by
device time (--sort count: by count) — where fusing kernels would pay.

Where the trace lacks what a column or grouping needs (no shapes, no stacks,
no memory events), tracetab says so on stderr and leaves it out. A --steps
that holds no step, or a --match/--exclude that leaves no row, exits 2
naming what the trace has.

In the text table a device row (kernel, memcpy, memset, GPU annotation span)
ends in [gpu], so it stands apart from a CPU row of the same name (a Triton op
and its kernel, ProfilerStep* on both lanes); --torch-exact prints torch's
bytes exactly, without the marker.`,
		Example: `  tracetab table trace.json.gz
  tracetab table trace.json.gz --sort self_cuda_time_total --limit 20
  tracetab table trace.json --group-by-shape --sort cpu_time_total
  tracetab table trace.json --torch 2.6.0 --top-level
  tracetab table trace.json --by kernel --format csv > kernels.csv
  tracetab table trace.json --by step
  tracetab table trace.json --by step --all     # every step of a long run, not the summary
  tracetab table trace.json --by module --depth 3
  tracetab table trace.json --by category
  tracetab table trace.json --by category --steps 3-5 --all --format json
  tracetab table trace.json --by sequence --top 5
  tracetab table trace.json --by sequence --op aten::linear --sort count`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			o.nameWidthSet = cmd.Flags().Changed("name-width")
			o.seq.limitSet = cmd.Flags().Changed("limit")
			if err := o.validate(); err != nil {
				return err
			}
			if err := o.checkSequence(cmd); err != nil {
				return err
			}
			return runTable(e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.by, "by", "op", "rows: op (torch's table), kernel, step, module, category or sequence")
	f.StringVar(&o.sort, "sort", "", "torch's sort_by: cpu_time_total, self_cuda_time_total, count, ... or none (first occurrence); the short names of diff and check work too ("+metricnames.Help()+")")
	f.IntVar(&o.limit, "limit", 100, "row_limit: rows to print; negative prints all")
	f.BoolVar(&o.groupShape, "group-by-shape", false, "group_by_input_shape: one row per (name, input shapes)")
	f.IntVar(&o.groupStack, "group-by-stack", 0, "group_by_stack_n: one row per (name, top N stack frames)")
	f.BoolVar(&o.topLevel, "top-level", false, "top_level_events_only: print only ops without a CPU parent")
	f.IntVar(&o.nameWidth, "name-width", 55, "max_name_column_width; 0 for no limit")
	f.StringVar(&o.timeUnit, "time-unit", "", "time_unit: s, ms or us for every time cell (torch >= 2.7)")
	f.StringVar(&o.header, "header", "", "header: a line printed above the table")
	f.StringVar(&o.torch, "torch", "", torchFlagHelp)
	f.StringVar(&o.match, "match", "", "keep only rows whose name matches this regular expression")
	f.StringVar(&o.exclude, "exclude", "", "drop rows whose name matches this regular expression")
	f.StringVar(&o.steps, "steps", "", "only profiler steps A-B (e.g. 3-5, or 4): their CPU events and the device ops they launched")
	f.StringVar(&o.format, "format", "text", "output format: text, md, csv or json")
	f.BoolVar(&o.torchExact, "torch-exact", false, "print torch's table byte for byte: no [gpu] marker on device rows (text op table only)")
	o.compact = addCompactFlags(cmd)
	addModuleFlags(cmd, o)
	addSequenceFlags(cmd, o)
	f.BoolVar(&o.hist, "hist", false, "with --by kernel (text, md): a compact histogram of each kernel's durations, 12 log-spaced bins from its min to its max (Unicode blocks on a terminal, ASCII otherwise)")
	f.BoolVar(&o.all, "all", false, "with --by step or category (text, md): list every step (by default more than 20 steps (--by category: 12) show their distribution, the cold steps and the steps that stand out)")
	e.completeFlag(cmd, "sort", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		keys := table.SortKeys()
		for _, m := range metricnames.Table {
			if m.Torch != "" && m.Torch != m.Short {
				keys = append(keys, m.Short)
			}
		}
		return keys, cobra.ShellCompDirectiveNoFileComp
	})
	e.completeFlag(cmd, "by", fixedCompletion("op", "kernel", "step", "module", "category", "sequence"))
	e.completeFlag(cmd, "format", fixedCompletion("text", "md", "csv", "json"))
	return cmd
}

func fixedCompletion(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

func (o *tableOptions) validate() error {
	if err := checkFormat(o.format, "text", "md", "csv", "json"); err != nil {
		return err
	}
	switch o.by {
	case "op", "kernel", "step", "module", "category", "sequence":
	default:
		return usageErrorf("unknown --by %q: use op, kernel, step, module, category or sequence", o.by)
	}
	if err := o.checkModule(); err != nil {
		return err
	}
	if o.all && o.by != "step" && o.by != "category" {
		return usageErrorf("--all lists every step of --by step and --by category; the op and kernel tables take --limit (negative: all)")
	}
	if err := o.checkCategory(); err != nil {
		return err
	}
	if o.by != "module" && o.by != "category" && o.by != "sequence" && !table.ValidSort(o.sort) {
		k, ok := metricnames.Torch(o.sort)
		if !ok {
			if _, known := metricnames.Lookup(o.sort); known {
				return usageErrorf("--sort %s: torch's table() has no sort key for it; use one of %s (or a short name: %s)", o.sort, strings.Join(table.SortKeys(), ", "), metricnames.Help())
			}
			cands := table.SortKeys()
			for _, m := range metricnames.Table {
				cands = append(cands, m.Short)
			}
			if hint := didYouMean(o.sort, cands); hint != "" {
				return usageErrorf("unknown --sort %q%s", o.sort, hint)
			}
			return usageErrorf("unknown --sort %q: use one of %s (or a short name: %s)", o.sort, strings.Join(table.SortKeys(), ", "), metricnames.Help())
		}
		o.sort = k
	}
	var err error
	if o.version, err = parseTorch(o.torch); err != nil {
		return err
	}
	switch o.timeUnit {
	case "", "s", "ms", "us":
	default:
		return usageErrorf("unknown --time-unit %q: use s, ms or us", o.timeUnit)
	}
	if err := o.checkTimeUnit(); err != nil {
		return err
	}
	if o.groupStack < 0 {
		return usageErrorf("--group-by-stack must be >= 0")
	}
	if o.nameWidth < 0 {
		return usageErrorf("--name-width must be >= 0")
	}
	if o.match != "" {
		if o.matchRe, err = regexp.Compile(o.match); err != nil {
			return usageErrorf("--match: %v", err)
		}
	}
	if o.exclude != "" {
		if o.excludeRe, err = regexp.Compile(o.exclude); err != nil {
			return usageErrorf("--exclude: %v", err)
		}
	}
	if o.torchExact && (o.by != "op" || o.format != "text" || o.compact.active()) {
		return usageErrorf("--torch-exact is for torch's own text table: drop it, or drop --by, --format, --columns and --width")
	}
	if err := o.checkHist(); err != nil {
		return err
	}
	if o.steps != "" {
		lo, hi, err := parseRange(o.steps)
		if err != nil {
			return usageErrorf("--steps: %v", err)
		}
		o.stepLo, o.stepHi, o.stepsEnabled = lo, hi, true
	}
	return nil
}

// checkTimeUnit refuses --time-unit for a table() that has none; with no
// --torch it is checked again once the trace's era gives the version.
func (o *tableOptions) checkTimeUnit() error {
	if v := o.version; o.timeUnit != "" && v != (table.Version{}) && !v.HasTimeUnit() {
		how := ""
		if o.torch == "" {
			how = " (assumed from the trace's era, see tracetab info)"
		}
		return usageErrorf("--time-unit: torch %s's table()%s has no time_unit (it came after 2.6); drop --time-unit or use --torch 2.7 or later", v, how)
	}
	return nil
}

// parseRange reads "A-B" or "A".
func parseRange(s string) (int64, int64, error) {
	var lo, hi int64
	if n, err := fmt.Sscanf(s, "%d-%d", &lo, &hi); err == nil && n == 2 && lo <= hi {
		return lo, hi, nil
	}
	if n, err := fmt.Sscanf(s, "%d", &lo); err == nil && n == 1 && !strings.Contains(s, "-") {
		return lo, lo, nil
	}
	return 0, 0, fmt.Errorf("%q is not a step range such as 3-5 or 4", s)
}

func runTable(e *env, o *tableOptions) error {
	// Only the op view grouped by shapes or stacks reads them; only the op
	// view reads the [memory] records.
	load := e.loadLean
	if o.by == "op" && (o.groupShape || o.groupStack > 0 || o.compact.needsModel()) {
		load = e.load
	} else if o.by != "op" {
		load = e.loadBare
	}
	t, err := load(o.path)
	if err != nil {
		return err
	}
	if o.stepsEnabled {
		if err := checkSteps(t, o.stepLo, o.stepHi); err != nil {
			return err
		}
	}
	e.letGo(func() { dropUnused(t, o) })
	switch o.by {
	case "kernel":
		return runKernelView(e, o, t)
	case "step":
		return runStepView(e, o, t)
	case "module":
		return runModuleView(e, o, t)
	case "category":
		return runCategoryView(e, o, t)
	case "sequence":
		return runSequenceView(e, o, t)
	}
	if o.version == (table.Version{}) {
		o.version = table.RecordingOf(t).Default()
		if err := o.checkTimeUnit(); err != nil {
			return err
		}
	}
	opts := table.Options{Torch: o.version, GroupByShape: o.groupShape, GroupByStack: o.groupStack,
		SortBy: o.sort, Match: o.matchRe, Exclude: o.excludeRe, StepLo: o.stepLo, StepHi: o.stepHi, HasSteps: o.stepsEnabled}
	e.letGo(func() { omitUnused(t) })
	notes := tableNotes(t, &opts)
	e.letGo(func() { freeUnused(t) })
	if table.NeedsMemory(o.sort) && len(t.Mem) == 0 {
		return usageErrorf("--sort %s needs [memory] events, and %s has none (profile_memory was off, or a legacy export)", o.sort, o.path)
	}
	// the device ops no call launched are counted beside the table (a
	// pass over every event; the table's own work leaves a core idle)
	var unlaunched []string
	wait := safe.Go(func() { unlaunched = table.UnlaunchedNotes(t) }) // a panic there is raised again by wait
	res, err := table.Compute(t, opts)
	wait()
	notes = append(notes, unlaunched...)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if len(res.Rows) == 0 && (opts.Match != nil || opts.Exclude != nil) {
		if err := refuseEmptyOps(t, o, opts); err != nil {
			return err
		}
	}
	if len(res.Rows) == 0 {
		what := "no CPU op, annotation, runtime call or device op"
		if o.stepsEnabled {
			what += " in the selected steps"
		}
		return usageErrorf("%s has %s, so the op table has no row (torch's table() would print nothing)", o.path, what)
	}
	if o.compact.active() || e.compactForTerminal(o, res) {
		if o.compact.needsModel() {
			var mn []string
			o.compact.rowModel, mn = tableRowModels(t, opts)
			notes = append(notes, mn...)
		}
		if err := writeCompact(e, o, res); err != nil {
			return err
		}
		for _, n := range append(notes, res.Notes...) {
			note(e.stderr, n)
		}
		return nil
	}
	lay := tableview.DefaultTorchLayout()
	lay.Limit, lay.TopLevel, lay.NameWidth, lay.TimeUnit, lay.Header = o.limit, o.topLevel, o.nameWidth, o.timeUnit, o.header
	lay.TorchExact = o.torchExact
	if err := tableview.OpTable(e.stdout, o.format, o.path, o.sort, res, lay); err != nil {
		return err
	}
	for _, n := range append(notes, res.Notes...) {
		note(e.stderr, n)
	}
	return nil
}

// compactForTerminal reports whether the op table goes to a terminal
// narrower than torch's layout (one line per row, about 150 columns and
// more): then the compact table is shown at the terminal's width, with a
// note. --torch-exact, --width, a format other than text and a pipe keep
// torch's layout.
func (e *env) compactForTerminal(o *tableOptions, res *table.Result) bool {
	w := e.textWidth(widthAuto)
	if w == 0 || o.torchExact || o.format != "text" || o.compact.width != widthAuto {
		return false
	}
	lay := tableview.DefaultTorchLayout()
	lay.Limit, lay.TopLevel, lay.NameWidth, lay.TimeUnit, lay.Header = o.limit, o.topLevel, o.nameWidth, o.timeUnit, o.header
	var b strings.Builder
	if tableview.OpTable(&b, o.format, o.path, o.sort, res, lay) != nil {
		return false
	}
	widest := 0
	for _, l := range strings.Split(b.String(), "\n") {
		widest = max(widest, layout.Width(l))
	}
	if widest <= w {
		return false
	}
	o.compact.width = w
	note(e.stderr, fmt.Sprintf("torch's layout is %d columns, wider than this terminal (%d): the compact table is shown (--torch-exact prints torch's)", widest, w))
	return true
}

// refuseEmptyOps, once --match/--exclude left no op row, computes the
// rows again unfiltered to name what the trace has.
func refuseEmptyOps(t *trace.Trace, o *tableOptions, opts table.Options) error {
	opts.Match, opts.Exclude = nil, nil
	all, err := table.Compute(t, opts)
	if err != nil {
		return usageErrorf("%v", err)
	}
	names := make([]string, len(all.Rows))
	for i := range all.Rows {
		names[i] = all.Rows[i].Name
	}
	return checkRowFilter(o, "op", 0, names)
}

// tableNotes says what the trace cannot give, and turns off groupings it
// cannot do.
func tableNotes(t *trace.Trace, o *table.Options) []string {
	var notes []string
	if o.GroupByShape && !table.HasShapes(t) {
		notes = append(notes, "--group-by-shape: the trace has no input shapes (record_shapes was off, or a legacy export); rows are not split by shape and the Input Shapes column is left out")
		o.GroupByShape = false
	}
	if o.GroupByStack > 0 && !table.HasStacks(t) {
		notes = append(notes, "--group-by-stack: the trace has no call stacks (\"Call stack\" args); rows are not split by stack and the Source Location column is left out")
		o.GroupByStack = 0
	}
	if t.Meta["with_flops"] == "1" {
		notes = append(notes, "the trace was recorded with with_flops, but FLOPs are not exported to the trace: the Total FLOPs column is left out")
	}
	if len(t.Mem) == 0 && (t.Meta["profile_memory"] == "1" || t.LegacyExport) {
		notes = append(notes, "the trace has no [memory] events, so the memory columns are left out")
	}
	return notes
}

func note(w io.Writer, msg string) {
	io.WriteString(w, "tracetab: note: "+msg+"\n")
}

// dropUnused lets go, before the links are built, the parts of the trace
// that no table view reads: the launch parameters of device ops, and the
// shapes and stacks unless the op view groups by them. The memory the views
// need then comes from there (a 1 GB trace: about 60 MB).
func dropUnused(t *trace.Trace, o *tableOptions) {
	if o.by == "kernel" {
		return // the kernel view reads the kernels' efficiency args (few distinct Auxes)
	}
	t.Aux = trace.Store[trace.Aux]{}
	if o.by != "op" || (!o.groupShape && o.groupStack == 0 && !o.compact.needsModel()) {
		t.Extras = trace.Store[trace.Extra]{}
	}
	// Reclaim it now, or the links are built on top of it (the heap is
	// still at its goal from the parse) and the peak rises by its size.
	collect()
}

// freeUnused lets go of the links table never reads: the per-track nesting
// (it nests events by torch's own rules) and the launch counts.
func freeUnused(t *trace.Trace) {
	omitUnused(t)
	l := t.Links()
	l.Parent, l.Launched = nil, nil
}

// omitUnused has the links, when they are built after it, made without
// what freeUnused lets go of: 8 bytes an event never allocated (the 200 MB
// default-shape trace, 505 thousand events, 7 alternating pairs: table's
// peak RSS 54.3 -> 50.7 MiB, medians; gaps, which omits the launch counts
// alone, 53.7 -> 53.1, within its spread).
func omitUnused(t *trace.Trace) { t.OmitFromLinks(true, true) }
