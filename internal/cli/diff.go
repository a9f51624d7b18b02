package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/render/diffview"
	"github.com/tracetab/tracetab/internal/render/memoryview"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

type diffOptions struct {
	by             string
	key            string
	metrics        []string
	failOn         []string
	noNormalize    bool
	groupShape     bool
	torch          string
	limit          int
	top            int
	format         string
	alpha          float64
	allowMissing   bool
	requireSameEnv bool
	ignoreAddRem   bool
	correct        string
	width          int
	rules          []diff.Rule
	version        table.Version
}

func newDiffCmd(e *env) *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff BASE NEW | diff BASE... -- NEW...",
		Short: "Compare traces and fail when a significant change crosses a threshold (exit 1)",
		Long: `diff compares a base and a new side, each one trace, several traces
(diff b1.json b2.json -- n1.json n2.json) or a directory of traces.

Every metric has one sample per profiler step of every trace, for op and
kernel rows alike: the work inside the ProfilerStep#N windows (CPU events by
their start, device ops by the step of their launch call). A trace of more
than 24 steps has its row samples over groups of consecutive steps, each
divided by its step count (so a 30-step trace gives 15 samples to every
row), while the totals gpu_busy, gpu_idle and step_time keep one sample per
step. Work outside the steps is its own row, "(outside steps)", one sample
per trace, never divided by a step count. Each table says n, the samples per
side (a column when the rows differ: per-call metrics count the samples in
which the row ran). Each side shows the median with the spread of its 95%
confidence interval (± x%), then the change and the p-value of a two-sided
Mann-Whitney U test over the samples, as benchstat does. A change that is
not significant at --alpha is shown as ~ and never fails a rule; when the
samples are too few for the test to reach --alpha (3 vs 3 steps, or one
trace per side without steps) the p column says "few" and the thresholds
alone decide. --no-normalize compares one whole-trace sample per trace.

The p-values are per row: of 200 rows that did not change, about 10 pass
alpha 0.05 by chance. --correct holm adjusts them with Holm-Bonferroni over
the rows of each metric (the i-th smallest of m p-values becomes the largest
(m-j+1)p(j) for j <= i), so that no row of a metric is called changed by
chance more often than alpha; the adjusted p is shown and decides ~.

Rows are sorted by the largest absolute change first (text: in each metric's
table; Markdown, JSON and CSV: by the first --metric). A CPU row gone from
BASE and one new in NEW with the same median calls, half to twice its
cpu_total and names that share at least half of their words are paired as
"changed form" (a DataLoader iterator of num_workers=0 becoming the
multi-process one): listed together with the time that moved.

Rows are aligned by key: op name (--by op), device op name (--by kernel;
--key op keys them by the op that launched them, so a renamed cuBLAS kernel
is a change of aten::mm, not an added and a removed kernel), step position
(--by step, labelled with each trace's own ProfilerStep numbers) or module
path (--by module: the nn.Module tree of table --by module, on traces recorded
with with_modules=True or with_stack=True; count is a module's occurrences,
cpu_total and self_cpu its host total and self time, cuda_total and
self_cuda its device total and self time; a sample is the module's frames
that start in a step). A rule's @ on module rows is a path, a module name
only one path has, or else a regular expression over the paths.

--fail-on RULE (repeatable) sets thresholds; all changes are printed and
only those over a threshold fail (exit 1, listing each violation):

  METRIC>REL%          relative growth, e.g. self_cuda>10%
  METRIC>ABS           absolute growth, e.g. self_cuda>50us, count>0
  METRIC>REL%&ABS      both must be exceeded, e.g. self_cuda>10%&50us
  ...@REGEX            only rows whose name matches, e.g. count>0@^aten::copy_$
  total.METRIC>...     a total, e.g. total.gpu_idle>5%, total.gpu_idle_pct>3 (points)

A rule whose metric a trace lacks (no steps, no device ops, no memory
events) or whose pattern matches no row is n/a and fails (exit 1) unless
--allow-missing. Traces from different environments (GPU model, device
count, world size, rank, exporter era, step count, shapes/stacks/memory
recorded) are compared with a warning per difference; --require-same-env
makes that exit 1.

Row metrics: ` + strings.Join(diff.RowMetrics, ", ") + `.
Total metrics: ` + strings.Join(diff.TotalMetrics, ", ") + `.
torch's sort keys (table --sort) name the same metrics in --metric and
--fail-on: ` + metricnames.Help(diff.RowMetrics...) + `
(also as total.self_cpu_time_total, total.self_cuda_time_total).
ABS is a time with its unit (50us, 1.5ms, 2s), a count, or a size (512MB, 1GiB).`,
		Example: `  tracetab diff base.json.gz new.json.gz
  tracetab diff base.json new.json --by kernel --key op --fail-on 'self_cuda>10%&50us'
  tracetab diff base1.json base2.json -- new1.json new2.json --fail-on 'self_cuda>5%'
  tracetab diff base.json new.json --fail-on 'total.gpu_idle>5%' --fail-on 'count>0@^aten::copy_$'
  tracetab diff base.json new.json --by module --fail-on 'cuda_total>10%@Linear_15'
  tracetab diff base.json new.json --format md >> "$GITHUB_STEP_SUMMARY"
  tracetab diff base.json new.json --correct holm --fail-on 'self_cpu>5%'   # many rows: Holm-Bonferroni
  tracetab diff base.json new.json --fail-on 'self_cuda>10%' --format junit > tracetab.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			base, nw, err := splitSides(cmd, args)
			if err != nil {
				return err
			}
			if o.by == "kernel" && !cmd.Flags().Changed("metric") {
				o.metrics = []string{"self_cuda", "count", "self_cuda_per_call"} // device rows have no CPU time
			}
			if o.by == "module" && !cmd.Flags().Changed("metric") {
				o.metrics = []string{"cuda_total", "cpu_total", "count"} // a module's totals: device, host, occurrences
			}
			if err := o.validate(); err != nil {
				return err
			}
			if n := countStdin(base) + countStdin(nw); n > 1 {
				return usageErrorf("diff: standard input (-) can be only one of the traces")
			}
			return runDiff(e, o, base, nw)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.by, "by", "op", "rows: op, kernel, step or module (one row per nn.Module path; needs with_modules=True or with_stack=True)")
	f.StringVar(&o.key, "key", "name", "--by kernel rows keyed by the device op's name or by the op that launched it (op)")
	f.StringSliceVar(&o.metrics, "metric", []string{"self_cuda", "self_cpu", "count"}, "metrics to show (repeatable or comma-separated; --by kernel: self_cuda, count, self_cuda_per_call); torch's sort keys work too (self_cuda_time_total, ...)")
	f.StringArrayVar(&o.failOn, "fail-on", nil, "threshold rule (repeatable), e.g. self_cuda>10%&50us (or self_cuda_time_total>10%&50us)")
	f.BoolVar(&o.noNormalize, "no-normalize", false, "one whole-trace sample per trace instead of one per step")
	f.BoolVar(&o.groupShape, "group-by-shape", false, "op rows keyed by (name, input shapes)")
	f.StringVar(&o.torch, "torch", "", "op rows: "+torchFlagHelp+"; see table --help")
	f.IntVar(&o.limit, "limit", 50, "rows to print per table (negative: all); violations are always listed")
	f.IntVar(&o.top, "top", 20, "md: rows in the main table; the rest fold into <details>")
	f.StringVar(&o.format, "format", "text", "output format: text, md, json, junit or csv")
	f.Float64Var(&o.alpha, "alpha", 0.05, "significance level of the Mann-Whitney test")
	f.BoolVar(&o.allowMissing, "allow-missing", false, "rules that measure nothing (n/a) warn instead of failing")
	f.BoolVar(&o.requireSameEnv, "require-same-env", false, "exit 1 when the traces come from different environments")
	f.BoolVar(&o.ignoreAddRem, "ignore-added-removed", false, "leave out device rows found on one side only")
	f.StringVar(&o.correct, "correct", "none", "correct the p-values for the many rows: none, or holm (Holm-Bonferroni over the rows of each metric)")
	widthFlag(f, &o.width)
	e.completeFlag(cmd, "correct", fixedCompletion("none", "holm"))
	return cmd
}

// splitSides reads BASE NEW, or BASE... -- NEW...; a directory stands for
// the traces in it.
func splitSides(cmd *cobra.Command, args []string) (base, nw []string, err error) {
	dash := cmd.ArgsLenAtDash()
	switch {
	case dash < 0 && len(args) == 2:
		base, nw = args[:1], args[1:]
	case dash > 0 && dash < len(args):
		base, nw = args[:dash], args[dash:]
	default:
		return nil, nil, usageErrorf("diff takes BASE NEW, or BASE... -- NEW... (got %s); see 'tracetab diff --help'", units.Plural(len(args), "argument", "arguments"))
	}
	expand := func(list []string) ([]string, error) {
		var out []string
		for _, p := range list {
			st, err := os.Stat(p)
			if err != nil || !st.IsDir() {
				out = append(out, p)
				continue
			}
			var found []string
			for _, pat := range []string{"*.json", "*.json.gz"} {
				m, _ := filepath.Glob(filepath.Join(p, pat))
				found = append(found, m...)
			}
			if len(found) == 0 {
				return nil, usageErrorf("%s: no .json or .json.gz traces in the directory", p)
			}
			slices.Sort(found)
			out = append(out, found...)
		}
		return out, nil
	}
	if base, err = expand(base); err != nil {
		return nil, nil, err
	}
	nw, err = expand(nw)
	return base, nw, err
}

func (o *diffOptions) validate() error {
	if err := checkFormat(o.format, "text", "md", "json", "junit", "csv"); err != nil {
		return err
	}
	switch o.by {
	case "op", "kernel", "step", "module":
	default:
		return usageErrorf("unknown --by %q: use op, kernel, step or module", o.by)
	}
	if o.by == "module" && o.groupShape {
		return usageErrorf("--group-by-shape applies to op rows, not --by module")
	}
	switch o.key {
	case "name":
	case "op":
		if o.by != "kernel" {
			return usageErrorf("--key op applies to --by kernel")
		}
	default:
		return usageErrorf("unknown --key %q: use name or op", o.key)
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usageErrorf("--alpha %v: want a level between 0 and 1, e.g. 0.05", o.alpha)
	}
	switch o.correct {
	case "none", "":
		o.correct = diff.CorrectNone
	case "holm":
		o.correct = diff.CorrectHolm
	default:
		return usageErrorf("unknown --correct %q: use none or holm", o.correct)
	}
	if o.top < 0 {
		return usageErrorf("--top %d: want a number of rows from 0", o.top)
	}
	if err := checkWidth(o.width); err != nil {
		return err
	}
	for i, m := range o.metrics {
		o.metrics[i] = metricnames.Short(m)
		if !slices.Contains(diff.RowMetrics, o.metrics[i]) {
			return usageErrorf("unknown --metric %q: use %s%s", m, strings.Join(diff.RowMetrics, ", "), diff.AliasHint)
		}
	}
	if len(o.metrics) == 0 {
		return usageErrorf("--metric: name at least one metric")
	}
	for _, s := range o.failOn {
		r, err := diff.ParseRule(s)
		if err != nil {
			return usageErrorf("--fail-on: %v", err)
		}
		o.rules = append(o.rules, r)
	}
	v, err := parseTorch(o.torch)
	if err != nil {
		return err
	}
	o.version = v
	return nil
}

func loadAll(e *env, paths []string) ([]*trace.Trace, error) {
	var out []*trace.Trace
	for _, p := range paths {
		t, err := e.load(p)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func runDiff(e *env, o *diffOptions, basePaths, newPaths []string) error {
	if o.by == "step" && (len(basePaths) > 1 || len(newPaths) > 1) {
		return usageErrorf("--by step compares one trace per side")
	}
	opts := diff.Options{By: o.by, GroupByShape: o.groupShape, Torch: o.version, Normalize: !o.noNormalize, KeyOp: o.key == "op"}
	var sides [2][]*trace.Trace
	for k, paths := range [][]string{basePaths, newPaths} {
		ts, err := loadAll(e, paths)
		if err != nil {
			return err
		}
		sides[k] = ts
		if o.by == "module" {
			if err := needModuleFrames(ts, paths, "compare"); err != nil {
				return err
			}
		}
		for j, t := range ts {
			if opts.Normalize && len(t.StepWindows()) == 0 {
				note(e.stderr, paths[j]+" has no ProfilerStep#N annotations: one whole-trace sample per trace, and step metrics are n/a")
				opts.Normalize = false
			}
		}
	}
	if opts.Torch == (table.Version{}) {
		var vs []string
		for _, ts := range sides {
			for _, t := range ts {
				if v := table.RecordingOf(t).Default().String(); !slices.Contains(vs, v) {
					vs = append(vs, v)
				}
			}
		}
		if len(vs) > 1 {
			note(e.stderr, "the op rows follow each trace's recording torch ("+strings.Join(vs, ", ")+", from their eras); --torch prints every side by one version's rules")
		}
	}
	base, err := diff.Reduce(sides[0], basePaths, opts)
	if err != nil {
		return err
	}
	nw, err := diff.Reduce(sides[1], newPaths, opts)
	if err != nil {
		return err
	}
	if o.by == "module" {
		keys := diff.Keys(base, nw)
		for i, r := range o.rules {
			if r.Total || diff.IsMemoryMetric(r.Metric) {
				continue
			}
			if o.rules[i].Match, err = resolveModuleMatch("--fail-on "+r.Text, r.Match, keys); err != nil {
				return err
			}
		}
	}
	d := diff.Compare(base, nw, diff.CompareOptions{Metrics: o.metrics, Alpha: o.alpha, IgnoreAddedRemoved: o.ignoreAddRem, Correct: o.correct})
	g := &diff.Gate{AllowMissing: o.allowMissing, RequireSameEnv: o.requireSameEnv, Mismatches: d.Mismatches}
	g.Violations, g.NA, g.Checked = diff.Evaluate(d, o.rules)
	diffMemory(d, g, sides, o.rules)
	for _, r := range o.rules {
		g.Rules = append(g.Rules, r.Text)
	}
	for _, m := range d.Mismatches {
		fmt.Fprintf(e.stderr, "tracetab: warning: traces not comparable: %s differs: %s (%s) vs %s (%s)\n",
			diff.MismatchLabel(m.Field), m.Base, m.BaseFile, m.New, m.NewFile)
	}
	switch o.format {
	case "json":
		err = diffview.JSON(e.stdout, d, g)
	case "junit":
		err = diffview.JUnit(e.stdout, "tracetab.diff", g)
	case "csv":
		err = diffview.CSV(e.stdout, d)
	default:
		err = diffview.Text(e.stdout, o.format, d, g, diffview.View{Top: o.top, Limit: o.limit, Width: e.textWidth(o.width)})
		if err == nil {
			err = memoryview.DiffText(e.stdout, d.Memory, o.format, o.top, e.textWidth(o.width))
		}
	}
	if err != nil {
		return err
	}
	return gateResult(e, o.format, "rule", g)
}

// countStdin counts the "-" (standard input) among paths.
func countStdin(paths []string) (n int) {
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	return n
}
