package cli

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/render/diffview"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

type checkOptions struct {
	budgetFile   string
	maxIdle      string
	maxStep      string
	max          []string
	min          []string
	noUnlinked   bool
	allowMissing bool
	by           string
	noNormalize  bool
	format       string
	torch        string
	version      table.Version
	budgets      []diff.Budget
	width        int
}

func newCheckCmd(e *env) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check TRACE",
		Short: "Hold one trace to absolute budgets and fail when one is exceeded (exit 1)",
		Long: `check compares one trace with budgets given by flags or by a budget file
(YAML or JSON) kept next to the CI config, prints every budget with the
value found, and exits 1 when any is exceeded (2 when a budget is wrong, 3
when the trace cannot be read). Row budgets apply to every row whose name
matches (all rows without match).

Budget file:

  budgets:
    - metric: total.gpu_idle_pct    # GPU idle, % of gaps' denominator
      max: 40
    - metric: total.step_time       # median ProfilerStep CPU time
      max: 25ms
    - metric: self_cuda_per_call    # an op's self CUDA time per call
      match: ^aten::mm$
      max: 50us
    - metric: self_cpu_per_call     # CPU time per call of the ops that matter
      match: ^aten::(mm|addmm)$
      max: 100us
    - metric: pct_peak              # the GEMMs at 40% of the device's peak or more
      match: ^aten::(mm|addmm)$
      min: 40

Values are medians over the profiler steps (the work inside ProfilerStep#N
windows; device ops by the step of their launch call; the work outside the
steps is the row "(outside steps)"), or whole-trace values with
--no-normalize. A budget whose metric the trace lacks (total.step_time
without ProfilerStep, a CUDA metric without device ops, a memory metric
without [memory] events) or whose match selects no row is n/a and fails
(exit 1) unless --allow-missing.

--by module holds the rows of table --by module to the budgets (traces
recorded with with_modules=True or with_stack=True): count is a module's
occurrences, cpu_total and self_cpu its host total and self time,
cuda_total and self_cuda its device total and self time, per step; the
match is a module path, a module name only one path has (a name at
several paths exits 2 listing them), or else a regular expression over
the paths.

Row metrics: ` + strings.Join(diff.RowMetrics, ", ") + `; and pct_peak, an op's
time-weighted % of the peak of its bound resource (tracetab roofline's
peak_pct, per step; it needs record_shapes=True and a device the peak table
knows), held by a floor: "min: 40" in a budget file, --min 'pct_peak@RE=40'.
Total metrics: total.` + strings.Join(diff.TotalMetrics, ", total.") + `.
Memory metrics, per device (match selects devices by name: cuda:0, cpu;
see tracetab memory --help): ` + strings.Join(diff.MemoryMetrics, ", ") + `
(peak Total Allocated, peak Total Reserved, median growth per step).
Critical-path metrics (tracetab critical-path --help has the rules):
critical_path.path_time (the median over the steps of the path's length),
critical_path.<category>_pct (the median over the steps of the category's
share of the path; categories cpu, gpu_compute, gpu_comm, launch,
kernel_kernel, data_loading).
torch's sort keys (table --sort) name the same metrics in --max and budget
files: ` + metricnames.Help(diff.RowMetrics...) + `
(also as total.self_cpu_time_total, total.self_cuda_time_total).`,
		Example: `  tracetab check trace.json --max-gpu-idle 40 --max-step-time 25ms
  tracetab check trace.json --max 'self_cuda_per_call@^aten::mm$=50us' --max 'self_cuda_mem=2GB' --allow-missing
  tracetab check trace.json --budget perf-budget.yaml --format junit > tracetab.xml
  tracetab check trace.json --by module --max 'cpu_total@Model_0/Encoder_0=2ms'
  tracetab check trace.json --max 'peak_allocated@^cuda=20GiB' --max 'step_growth=0'`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			return runCheck(e, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.budgetFile, "budget", "", "budget file (YAML or JSON)")
	f.StringVar(&o.maxIdle, "max-gpu-idle", "", "total.gpu_idle_pct at most this: GPU idle in percent of the steps' GPU windows, the number gaps' verdict gives (docs/output.md, \"GPU idle\")")
	f.StringVar(&o.maxStep, "max-step-time", "", "median profiler step time at most this (e.g. 25ms)")
	f.StringArrayVar(&o.min, "min", nil, "METRIC[@REGEX]=MIN, repeatable: a floor, e.g. 'pct_peak@^aten::(mm|addmm)$=40' (an op's time-weighted % of peak, tracetab roofline; needs record_shapes)")
	f.StringArrayVar(&o.max, "max", nil, "METRIC[@REGEX]=MAX, repeatable, e.g. 'self_cuda_per_call@^aten::mm$=50us' (METRIC: a short name or torch's sort key, see below)")
	f.BoolVar(&o.noUnlinked, "no-unlinked", false, "fail when a device op has no launch call in the trace (ops in flight when the profiler window opened have none)")
	f.BoolVar(&o.allowMissing, "allow-missing", false, "budgets that measure nothing (n/a) warn instead of failing")
	f.StringVar(&o.by, "by", "op", "rows for row budgets: op, kernel or module (one row per nn.Module path; match a path, a unique module name or a regular expression over paths)")
	f.BoolVar(&o.noNormalize, "no-normalize", false, "row and time totals over the whole trace instead of per step")
	f.StringVar(&o.format, "format", "text", "output format: text, md, json or junit")
	f.StringVar(&o.torch, "torch", "", "op rows: "+torchFlagHelp+"; see table --help")
	addWidthFlag(cmd, &o.width)
	return cmd
}

func (o *checkOptions) validate() error {
	if err := checkFormat(o.format, "text", "md", "json", "junit"); err != nil {
		return err
	}
	if err := checkWidth(o.width); err != nil {
		return err
	}
	if o.by != "op" && o.by != "kernel" && o.by != "module" {
		return usageErrorf("unknown --by %q: use op, kernel or module", o.by)
	}
	var err error
	if o.version, err = parseTorch(o.torch); err != nil {
		return err
	}
	add := func(metric, match, max string) error {
		b, err := diff.NewBudget(metric, match, max)
		if err != nil {
			return usageErrorf("%v", err)
		}
		o.budgets = append(o.budgets, b)
		return nil
	}
	for _, m := range o.min {
		lhs, min, ok := strings.Cut(m, "=")
		if !ok {
			return usageErrorf("--min %q: want METRIC[@REGEX]=MIN", m)
		}
		metric, match, _ := strings.Cut(lhs, "@")
		b, err := diff.NewMinBudget(metric, match, min)
		if err != nil {
			return usageErrorf("--min: %v", err)
		}
		o.budgets = append(o.budgets, b)
	}
	if o.budgetFile != "" {
		data, err := os.ReadFile(o.budgetFile)
		if err != nil {
			return usageErrorf("--budget: %v", err)
		}
		bs, err := diff.ParseBudgetFile(o.budgetFile, data)
		if err != nil {
			return usageErrorf("%v", err)
		}
		o.budgets = append(o.budgets, bs...)
	}
	if o.maxIdle != "" {
		if err := add("total.gpu_idle_pct", "", o.maxIdle); err != nil {
			return err
		}
	}
	if o.maxStep != "" {
		if err := add("total.step_time", "", o.maxStep); err != nil {
			return err
		}
	}
	for _, m := range o.max {
		lhs, max, ok := strings.Cut(m, "=")
		if !ok {
			return usageErrorf("--max %q: want METRIC[@REGEX]=MAX", m)
		}
		metric, match, _ := strings.Cut(lhs, "@")
		if err := add(metric, match, max); err != nil {
			return err
		}
	}
	if o.noUnlinked {
		if err := add("total.unlinked", "", "0"); err != nil {
			return err
		}
	}
	if len(o.budgets) == 0 {
		return usageErrorf("no budgets: give --budget FILE or --max-gpu-idle, --max-step-time, --max, --min, --no-unlinked")
	}
	return nil
}

func runCheck(e *env, o *checkOptions, path string) error {
	t, err := e.load(path)
	if err != nil {
		return err
	}
	rowBudgets, memBudgets := diff.SplitMemory(o.budgets)
	var rowOut, memOut []diff.Outcome
	if len(rowBudgets) > 0 {
		if o.by == "module" {
			if err := needModuleFrames([]*trace.Trace{t}, []string{path}, "check"); err != nil {
				return err
			}
		}
		opts := diff.Options{By: o.by, Torch: o.version, Normalize: !o.noNormalize}
		for _, b := range rowBudgets {
			opts.Roofline = opts.Roofline || diff.IsModelMetric(b.Metric)
		}
		if opts.Normalize && len(t.StepWindows()) == 0 {
			note(e.stderr, path+" has no ProfilerStep#N annotations: whole-trace values, and step metrics are n/a")
			opts.Normalize = false
		}
		s, err := diff.Reduce([]*trace.Trace{t}, []string{path}, opts)
		if err != nil {
			return err
		}
		if o.by == "module" {
			keys := diff.Keys(s)
			for i, b := range rowBudgets {
				if b.Total || b.Match == nil || diff.IsCriticalPath(b.Metric) {
					continue
				}
				if rowBudgets[i].Match, err = resolveModuleMatch(b.Text, b.Match, keys); err != nil {
					return err
				}
			}
		}
		if diff.NeedsCriticalPath(rowBudgets) {
			atCritpathGC(func() { diff.AddCriticalPath(t, s, opts.Normalize) })
		}
		rowOut = diff.Check(s, rowBudgets)
	}
	if len(memBudgets) > 0 {
		memOut = diff.CheckMemory(memory.Build(t, memory.Options{}), memBudgets)
	}
	out := diff.MergeOutcomes(o.budgets, rowOut, memOut)
	g := &diff.Gate{AllowMissing: o.allowMissing, Checked: map[string]int{}}
	for _, oc := range out {
		g.Violations = append(g.Violations, oc.Failed...)
		g.Rules = append(g.Rules, oc.Budget.Text)
		g.Checked[oc.Budget.Text] = oc.Rows
		if oc.Missing != "" {
			g.NA = append(g.NA, diff.NA{Rule: oc.Budget.Text, Reason: oc.Missing})
		}
	}
	switch o.format {
	case "json":
		err = diffview.CheckJSON(e.stdout, path, out, g)
	case "junit":
		err = diffview.JUnit(e.stdout, "tracetab.check", g)
	default:
		err = diffview.CheckText(e.stdout, o.format, path, out, g, e.textWidth(o.width), o.by == "module")
	}
	if err != nil {
		return err
	}
	return gateResult(e, o.format, "budget", g)
}
