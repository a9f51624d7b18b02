package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/changepoint"
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/trendview"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/trend"
	"github.com/tracetab/tracetab/internal/units"
)

type trendOptions struct {
	format       string
	top          int
	order        string
	failOn       []string
	window       int
	alpha        string
	permutations int
	minSegment   int
	seed         uint64
	allowMissing bool
	width        int
	dataset      string
}

func newTrendCmd(e *env) *cobra.Command {
	o := &trendOptions{}
	cmd := &cobra.Command{
		Use:   "trend RUN... | DIR | --dataset DIR",
		Short: "A nightly series of traces: each metric's series and where it changed (E-divisive means)",
		Long: `trend reads a series of traces of the same workload (one per night, say; a DIR
means every *.json and *.json.gz in it), one after another, reduces each to a
few numbers, orders them by the trace's wall-clock start (baseTimeNanoseconds
plus the trace's origin; --order name: by the paths) and finds where each
metric changed level.

Metrics, by the definitions of the other commands:
  step_time           the median ProfilerStep#N time (diff's total.step_time)
  gpu_idle_pct        GPU idle over the steps, each extended to the end of the
                      device work it launched (gaps' verdict)
  exposed_comm        communication kernels not overlapped by compute (ranks);
                      traces with communication kernels only
  peak_allocated:DEV  the device's peak allocated memory (memory); traces
                      with [memory] records only
  op:NAME             the --top ops by self device time (diff's self_cuda)
  kernel:NAME         the --top kernels (memcpys and memsets too) by device time

Change points: E-divisive means with a permutation test (Matteson & James
2014; as R's ecp, MongoDB's signal processing and Apache Otava use it):
the best split of the series by the energy divergence of the two sides is
kept when --permutations shuffles within the current segments reach its
score with probability at most --alpha; then the segments are split again.
Each side of a change point has at least --min-segment runs. The shuffles
are seeded (--seed): the same series gives the same answer every time. A
change point's run is the first run of the new level; its size is the
median of the runs after it (to the next change point) against the median
of the runs before it (from the one before).

Runs that are not comparable with the newest run (another GPU model or
device count, world size or rank, exporter era, or number of profiler steps)
are left out of the series and named on stderr (ten by name, the rest
counted), never mixed in.

--fail-on METRIC>+P% (or METRIC<-P%; repeatable; METRIC may be a pattern such
as 'kernel:*') exits 1 when a change point among the newest --window runs
moves the metric by more than P percent in that direction; noise alone has
no change point and exits 0. A rule that matches no metric exits 1 unless
--allow-missing.

--dataset DIR reads the trend dataset of one or many exports (tracetab export
--to DIR, one per night, say) instead of the traces: the same JSON as over
the traces themselves, each run's path the path exported. A file that is not
a Parquet file of this export schema is named and exits 3.`,
		Example: `  tracetab trend nightly/                         # every trace in the folder, by wall-clock start
  tracetab trend nightly/ --fail-on 'step_time>+5%' --window 5
  tracetab trend run-*.json.gz --order name --top 10
  tracetab trend --dataset exports/        # the exports of the nights
  tracetab trend nightly/ --format json | jq '.metrics[] | select(.change_points != []) | .name'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if ds, _ := cmd.Flags().GetString("dataset"); ds != "" {
				if len(args) > 0 {
					return usageErrorf("trend --dataset %s reads the exports, not traces: drop %s", ds, args[0])
				}
				return nil
			}
			if len(args) == 0 {
				return usageErrorf("trend takes a series of traces (RUN... or a DIR), got none; see 'tracetab trend --help'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			if err := checkWidth(o.width); err != nil {
				return err
			}
			return runTrend(e, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	f.IntVar(&o.top, "top", 5, "follow this many ops and this many kernels (by their mean device time over the series)")
	f.StringVar(&o.order, "order", "time", "order of the runs: time (the trace's wall-clock start) or name (the paths)")
	f.StringArrayVar(&o.failOn, "fail-on", nil, "exit 1 when a change point in the newest --window runs moves METRIC beyond the threshold: 'step_time>+5%', 'kernel:*>+10%', 'op:aten::mm<-20%' (repeatable)")
	f.IntVar(&o.window, "window", 5, "--fail-on looks at change points in this many newest runs")
	f.StringVar(&o.alpha, "alpha", "0.01", "significance level of the permutation test")
	f.IntVar(&o.permutations, "permutations", changepoint.DefaultPermutations, "shuffles of the permutation test")
	f.IntVar(&o.minSegment, "min-segment", changepoint.DefaultMinSize, "the least number of runs on each side of a change point (from 2)")
	f.Uint64Var(&o.seed, "seed", changepoint.DefaultSeed, "seed of the permutation test's shuffles")
	f.BoolVar(&o.allowMissing, "allow-missing", false, "with --fail-on: a rule that matches no metric warns instead of failing")
	f.StringVar(&o.dataset, "dataset", "", "read the trend dataset of the exports under DIR (tracetab export --to DIR) instead of traces")
	widthFlag(f, &o.width)
	e.completeFlag(cmd, "format", fixedCompletion("text", "json"))
	e.completeFlag(cmd, "order", fixedCompletion("time", "name"))
	return cmd
}

// trendFiles expands the arguments: a directory stands for its *.json and
// *.json.gz files.
func trendFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			files = append(files, a) // the reader names what is wrong with it
			continue
		}
		var in []string
		for _, pat := range []string{"*.json", "*.json.gz"} {
			m, _ := filepath.Glob(filepath.Join(a, pat))
			in = append(in, m...)
		}
		if len(in) == 0 {
			return nil, usageErrorf("trend: the directory %s holds no *.json or *.json.gz file", a)
		}
		slices.Sort(in)
		files = append(files, in...)
	}
	return files, nil
}

// trendRuns reduces the traces, or reads the exports' trend dataset.
func trendRuns(e *env, o *trendOptions, args []string) ([]*trend.Run, error) {
	if o.dataset != "" {
		return datasetRuns(e, o.dataset)
	}
	files, err := trendFiles(args)
	if err != nil {
		return nil, err
	}
	runs := make([]*trend.Run, 0, len(files))
	err = loadEach(e, files, parse.Options{NoExtras: true},
		func(i int, t *trace.Trace) (*trend.Run, error) { return trend.Summarize(t, files[i]) },
		func(_ int, r *trend.Run) error { runs = append(runs, r); return nil })
	if err != nil {
		return nil, err
	}
	e.loading = ""
	return runs, nil
}

func runTrend(e *env, o *trendOptions, args []string) error {
	if o.order != "time" && o.order != "name" {
		return usageErrorf("--order %q: want time or name", o.order)
	}
	alpha, err := strconv.ParseFloat(o.alpha, 64)
	if err != nil || !(alpha > 0 && alpha < 1) {
		return usageErrorf("--alpha %q: want a significance level between 0 and 1, e.g. 0.01", o.alpha)
	}
	switch {
	case o.top < 1:
		return usageErrorf("--top %d: want a number of ops and kernels from 1", o.top)
	case o.window < 1:
		return usageErrorf("--window %d: want a number of runs from 1", o.window)
	case o.permutations < 1:
		return usageErrorf("--permutations %d: want a number from 1 (199 gives p-values down to 0.005)", o.permutations)
	case o.minSegment < 2:
		return usageErrorf("--min-segment %d: want a number of runs from 2", o.minSegment)
	}
	var rules []trend.Rule
	for _, s := range o.failOn {
		r, err := trend.ParseRule(s)
		if err != nil {
			return usageErrorf("%v", err)
		}
		rules = append(rules, r)
	}
	runs, err := trendRuns(e, o, args)
	if err != nil {
		return err
	}
	res, err := trend.Analyze(runs, trend.Options{Top: o.top, OrderByName: o.order == "name",
		CP: changepoint.Options{Alpha: alpha, Permutations: o.permutations, MinSize: o.minSegment, Seed: o.seed}})
	if err != nil {
		return usageErrorf("trend: %v", err)
	}
	noteLeftOut(e.stderr, res.LeftOut)
	if res.TooShort {
		note(e.stderr, fmt.Sprintf("%s: change points need at least %d (--min-segment %d on each side)",
			units.Plural(len(res.Runs), "comparable run", "comparable runs"), 2*res.Method.MinSize, res.Method.MinSize))
	}
	var g *diff.Gate
	if len(rules) > 0 {
		g = res.Gate(rules, o.window)
		g.AllowMissing = o.allowMissing
	}
	switch o.format {
	case "json":
		err = trendview.JSON(e.stdout, res, o.window, g)
	default:
		view := trendview.View{Width: e.textWidth(o.width), Glyphs: [9]rune(e.glyphs())}
		if len(rules) > 0 {
			view.Window = o.window
		}
		err = trendview.Text(e.stdout, res, view)
	}
	if err != nil || g == nil {
		return err
	}
	if o.format == "text" {
		for _, v := range g.Violations {
			fmt.Fprintf(e.stderr, "tracetab: [%s] %s\n", v.Rule, v.Msg)
		}
		for _, n := range g.NA {
			if !g.AllowMissing {
				fmt.Fprintf(e.stderr, "tracetab: n/a [%s] %s\n", n.Rule, n.Reason)
			}
		}
	}
	return gateResult(e, o.format, "trend rule", g)
}
