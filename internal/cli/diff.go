package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/render"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

type diffOptions struct {
	by          string
	metrics     []string
	failOn      []string
	noNormalize bool
	groupShape  bool
	torch       string
	limit       int
	format      string
	rules       []diff.Rule
	version     table.Version
}

func newDiffCmd(e *env) *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff BASE NEW",
		Short: "Compare two traces and fail when a threshold is crossed (exit 1)",
		Long: `diff aligns the rows of two traces by key (op name, kernel name, or step
position), prints base, new, absolute and relative change for each metric,
marks rows found in only one trace (added/removed), compares totals (self
CPU, self CUDA, GPU busy and idle, median step time), and sorts rows by the
size of the change. Values are per profiler step by default, so traces with
different numbers of steps compare fairly; --no-normalize compares totals.

--fail-on RULE (repeatable) sets thresholds; all changes are printed and
only those over a threshold fail (exit 1, listing each violation):

  METRIC>REL%          relative growth, e.g. self_cuda>10%
  METRIC>ABS           absolute growth, e.g. self_cuda>50us, count>0
  METRIC>REL%&ABS      both must be exceeded, e.g. self_cuda>10%&50us
  ...@REGEX            only rows whose name matches, e.g. count>0@^aten::copy_$
  total.METRIC>...     a total, e.g. total.gpu_idle>5%

Row metrics: ` + strings.Join(diff.RowMetrics, ", ") + `.
Total metrics: ` + strings.Join(diff.TotalMetrics, ", ") + `.
Times are microseconds; ABS takes 50us, 1.5ms, 2s or a plain number of us.`,
		Example: `  tracetab diff base.json.gz new.json.gz
  tracetab diff base.json new.json --by kernel --fail-on 'self_cuda>10%&50us'
  tracetab diff base.json new.json --fail-on 'total.gpu_idle>5%' --fail-on 'count>0@^aten::copy_$'
  tracetab diff base.json new.json --format md >> "$GITHUB_STEP_SUMMARY"
  tracetab diff base.json new.json --fail-on 'self_cuda>10%' --format junit > tracetab.xml`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			if args[0] == "-" && args[1] == "-" {
				return usageErrorf("diff: standard input can be only one of the two traces")
			}
			return runDiff(e, o, args[0], args[1])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.by, "by", "op", "rows: op, kernel or step")
	f.StringSliceVar(&o.metrics, "metric", []string{"self_cuda", "self_cpu", "count"}, "metrics to show (repeatable or comma-separated)")
	f.StringArrayVar(&o.failOn, "fail-on", nil, "threshold rule (repeatable), e.g. self_cuda>10%&50us")
	f.BoolVar(&o.noNormalize, "no-normalize", false, "compare totals instead of per-step values")
	f.BoolVar(&o.groupShape, "group-by-shape", false, "op rows keyed by (name, input shapes)")
	f.StringVar(&o.torch, "torch", table.Newest.String(), "torch rules for the op rows (see table --torch)")
	f.IntVar(&o.limit, "limit", 50, "rows to print (negative: all); violations are always listed")
	f.StringVar(&o.format, "format", "text", "output format: text, md, json or junit")
	return cmd
}

func (o *diffOptions) validate() error {
	if err := checkFormat(o.format, "text", "md", "json", "junit"); err != nil {
		return err
	}
	switch o.by {
	case "op", "kernel", "step":
	default:
		return usageErrorf("unknown --by %q: use op, kernel or step", o.by)
	}
	for _, m := range o.metrics {
		if !slices.Contains(diff.RowMetrics, m) {
			return usageErrorf("unknown --metric %q: use %s", m, strings.Join(diff.RowMetrics, ", "))
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
	v, err := table.ParseVersion(o.torch)
	if err != nil {
		return usageErrorf("--torch: %v", err)
	}
	o.version = v
	return nil
}

func runDiff(e *env, o *diffOptions, basePath, newPath string) error {
	opts := diff.Options{By: o.by, GroupByShape: o.groupShape, Torch: o.version, Normalize: !o.noNormalize}
	var traces [2]*trace.Trace
	for k, p := range []string{basePath, newPath} {
		t, err := e.load(p)
		if err != nil {
			return err
		}
		traces[k] = t
		if opts.Normalize && len(t.StepWindows()) == 0 {
			note(e.stderr, p+" has no ProfilerStep#N annotations: values are totals, not per step")
			opts.Normalize = false
		}
	}
	var sides [2]*diff.Side
	for k, p := range []string{basePath, newPath} {
		s, err := diff.Reduce(traces[k], p, opts)
		if err != nil {
			return err
		}
		sides[k] = s
	}
	d := diff.Compare(sides[0], sides[1], o.metrics, opts.Normalize)
	viol, checked := diff.Evaluate(d, o.rules)
	var err error
	switch o.format {
	case "json":
		err = render.DiffJSON(e.stdout, d, viol)
	case "junit":
		var names []string
		for _, r := range o.rules {
			names = append(names, r.Text)
		}
		err = render.JUnit(e.stdout, "tracetab.diff", names, checked, viol)
	default:
		err = render.DiffText(e.stdout, o.format, d, viol, len(o.rules), o.limit)
	}
	if err != nil {
		return err
	}
	return failIfViolated(e, o.format, "threshold", viol)
}
