package cli

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/ranksview"
	"github.com/tracetab/tracetab/internal/trace"
)

type ranksOptions struct {
	format       string
	minSkew      string
	failOnSkew   string
	allowMissing bool
	collectives  bool
	top          int
	all          bool
	width        int
	dataset      string
}

func newRanksCmd(e *env) *cobra.Command {
	o := &ranksOptions{}
	cmd := &cobra.Command{
		Use:   "ranks FILE... | DIR | --dataset DIR",
		Short: "Which rank is slow: one trace per rank, device time per rank, who the collectives waited for",
		Long: `ranks reads one trace per rank of a distributed job (torch.profiler writes
one per rank; a DIR means every *.json and *.json.gz in it, sorted) one after
another, keeping a small summary of each, so memory is that of the largest
file alone.

Per rank (in rank order; the rank and world size come from distributedInfo,
else the rank is the file's position, with a warning): the ProfilerStep#N
numbers, the median step time (CPU), and on the device lane, over the union
of the steps (the device work window when the trace has none): compute
(union of kernels, memcpys and memsets that are not communication),
communication (union of communication kernels: names matching nccl, rccl,
allreduce, allgather, reducescatter, cross_device_reduce), exposed
communication (not overlapped by compute) and idle (the window minus all
device work).

Collectives: NCCL kernels of one collective end together on every rank of
the communicator: a rank that launches early waits inside the kernel for the
last one. The k-th kernel of each name on each rank is matched across the
ranks (within each ProfilerStep#N the ranks have in common; the step of a
kernel is the step its launch call ran in). Where every communication kernel
carries "Process Group Name" (and "Seq"), they are matched per process group
(by seq). In each matched collective the rank with the shortest kernel
arrived last; every other rank waited its duration minus the shortest. A
rank's caused wait is the sum of the waits in the collectives it arrived
last in (split evenly on a tie). No clock alignment is needed; where every
trace has wall-clock times, the median |end - end on the first rank| of the
matched collectives is reported as the clocks' skew.

Overlap (HTA's get_comm_comp_overlap): the communication time during which
a compute kernel (a kernel that is not communication; memcpys and memsets
are not compute) ran too, as a share of the communication time, per rank
over its window.

Verdict: the rank that caused the most wait is the slowest of the given
ranks. Its skew is the caused wait per other rank per step, as a share of
its median step time; below --min-skew (5%) the ranks are balanced. Groups
of kernels that do not match (different counts, a name missing on a rank)
are left out and named; if nothing matches there is no verdict.

Why it was late (where every rank has the steps): with comparable clocks,
each rank's ProfilerStep#N start on one clock. A straggler that entered
most common steps last, with the shortest step (every step ends when its
last collective ends), is "late before the step" (the delay is before the
step begins: data loading, the previous step's tail); otherwise "late
inside the step", with how much later into its own step it reached its
collectives than the median of the others. Without comparable clocks the
two cannot be told apart and ranks says so.

HTA's potential-straggler count (get_potential_stragglers with one
candidate): of the matched collectives whose longest kernel lasts at least
1% of the mean step, the one name (and process group) whose kernel
durations differ most across the ranks (the largest mean over the steps of
their standard deviation); in each step, the rank that arrived last at its
last occurrence (latest start on comparable clocks, as HTA, else the
shortest kernel) counts once.

--collectives lists every matched collective (name #k, step, process group
and seq) with the rank that arrived last, the start and end skew (latest
minus earliest, comparable clocks only), the wait it caused, and each rank's
launch time, kernel start, end, duration, wait and how far into its own
step it reached it, on one clock (from the earliest rank's trace start; each
rank's own when the clocks are not comparable). Text and Markdown list the
first --top (20; 0: all); JSON always has every one in "collectives", CSV
with --collectives is one row per collective and rank.

Bandwidth, where the trace records sizes ("Collective name", "dtype", "In
msg nelems", "Out msg nelems", "Group size" on the kernel, or on the
record_param_comms that launched it): the size S as nccl-tests counts it
(all-gather: the output; reduce-scatter and all-to-all: the input;
all-reduce, broadcast, reduce: the buffer), algbw = S / time and busbw =
algbw times nccl-tests' factor for n = Group size ranks (nccl-tests'
doc/PERFORMANCE.md: all-reduce 2(n-1)/n; all-gather, reduce-scatter and
all-to-all (n-1)/n; broadcast, reduce and send/recv 1), in GB/s of 1e9
bytes. A matched collective's time is its shortest kernel (the transfer once
the last rank arrived); the per-rank table divides by the rank's own kernel
durations, waits included (lower bounds). link is busbw as a share of the
device's nominal per-direction NVLink bandwidth (V100 SXM 150, A100 SXM 300,
H100/H200 450, B200 900 GB/s), an upper bound within one node only.

A job of more than 20 ranks: text and Markdown print, for each per-rank
table, the distribution of each column (min, median, p90, max) and below
it the ranks that stand out: a value more than 3 MADs (median absolute
deviations) from its column's median, or n/a where most ranks have a
value; the 5 farthest, and always the rank the verdict names. --all lists
every rank; CSV and JSON always have every rank.

--dataset DIR reads the ranks and collectives datasets of one or many
exports (tracetab export --to DIR; a tree of them, e.g. one export per
node or per night) instead of the traces: the same summaries, so the same
output as over the traces themselves (the files being the paths as
exported). A file there that is not a Parquet file of this export schema
(truncated, corrupt, foreign, of another version) is named and exits 3.

Two files with the same rank, or different world sizes, exit 2.
--fail-on-skew PCT exits 1 when the slowest rank's skew exceeds PCT, and
when there is no skew to measure (one rank, nothing matched, no steps)
unless --allow-missing.`,
		Example: `  tracetab ranks traces/                       # every *.json / *.json.gz in the directory
  tracetab ranks worker0.pt.trace.json.gz worker1.pt.trace.json.gz
  tracetab ranks traces/ --fail-on-skew 10      # CI: exit 1 when a rank holds the others back by more than 10% of a step
  tracetab ranks traces/ --collectives --top 0  # every matched collective, each rank's arrival on one clock
  tracetab ranks traces/ --all                  # a large job: every rank, not the distribution and the outliers
  tracetab ranks traces/ --format md >> "$GITHUB_STEP_SUMMARY"
  tracetab ranks --dataset fleet/              # the same, from 'tracetab export traces/ --to fleet/'
  tracetab ranks traces/ --format json | jq '.verdict.rank'
  tracetab ranks traces/ --format json | jq '.collectives[] | {name, last_rank, busbw_gbps}'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if d, _ := cmd.Flags().GetString("dataset"); d != "" {
				if len(args) > 0 {
					return usageErrorf("ranks --dataset %s reads the exported datasets: give no traces beside it (got %d)", d, len(args))
				}
				return nil
			}
			if len(args) == 0 {
				return usageErrorf("ranks takes one trace per rank (FILE... or a DIR), got none; see 'tracetab ranks --help'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(o.format, "text", "md", "csv", "json"); err != nil {
				return err
			}
			if o.top < 0 {
				return usageErrorf("--top %d: want a number of collectives from 0 (0: all)", o.top)
			}
			if err := checkWidth(o.width); err != nil {
				return err
			}
			return runRanks(e, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.minSkew, "min-skew", "5", "a slowest rank that makes each other rank wait less than this share of its median step time is no straggler: balanced (percent)")
	f.StringVar(&o.failOnSkew, "fail-on-skew", "", "exit 1 when the slowest rank's skew (caused wait per other rank per step, percent of its median step time) exceeds this")
	f.BoolVar(&o.allowMissing, "allow-missing", false, "with --fail-on-skew: a skew that cannot be measured (n/a) warns instead of failing")
	f.StringVar(&o.format, "format", "text", "output format: text, md, csv (the per-rank table; with --collectives one row per collective and rank) or json")
	f.BoolVar(&o.collectives, "collectives", false, "text, md and csv: list the matched collectives with each rank's arrival (json always has them)")
	f.IntVar(&o.top, "top", 20, "with --collectives, text and md: list at most this many collectives (0: all)")
	f.BoolVar(&o.all, "all", false, "text and md: list every rank in the per-rank tables (by default a job of more than 20 ranks shows each table's distribution and the ranks that stand out)")
	f.StringVar(&o.dataset, "dataset", "", "read the ranks and collectives datasets of the exports under this directory (tracetab export --to DIR) instead of traces")
	widthFlag(f, &o.width)
	e.completeFlag(cmd, "format", fixedCompletion("text", "md", "csv", "json"))
	return cmd
}

// rankFiles expands the arguments: a directory stands for its *.json and
// *.json.gz files, sorted.
func rankFiles(args []string) ([]string, error) {
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
			return nil, usageErrorf("ranks: the directory %s holds no *.json or *.json.gz file", a)
		}
		slices.Sort(in)
		files = append(files, in...)
	}
	return files, nil
}

func runRanks(e *env, o *ranksOptions, args []string) error {
	minSkew, err := strconv.ParseFloat(o.minSkew, 64)
	if err != nil {
		return usageErrorf("--min-skew %q: give a percentage from 0 to 100, e.g. 5 or 5%%", o.minSkew)
	}
	var failOn float64
	if o.failOnSkew != "" {
		if failOn, err = strconv.ParseFloat(o.failOnSkew, 64); err != nil {
			return usageErrorf("--fail-on-skew %q: give a percentage from 0 to 100, e.g. 10 or 10%%", o.failOnSkew)
		}
	}
	var ss []*ranks.Summary
	if o.dataset != "" {
		ss, err = datasetSummaries(e, o.dataset)
	} else {
		ss, err = traceSummaries(e, args)
	}
	if err != nil {
		return err
	}
	if err := checkRanks(e, ss); err != nil {
		return err
	}
	slices.SortStableFunc(ss, func(a, b *ranks.Summary) int { return cmp.Compare(a.Rank, b.Rank) })
	r := ranks.Compare(ss, minSkew)
	for _, n := range r.Notes {
		note(e.stderr, n)
	}
	switch o.format {
	case "json":
		err = ranksview.JSON(e.stdout, r)
	case "csv":
		err = ranksview.CSV(e.stdout, r, o.collectives)
	default:
		err = ranksview.Text(e.stdout, o.format, r, ranksview.View{Width: e.textWidth(o.width), Collectives: o.collectives, Top: o.top, All: o.all})
	}
	if err != nil || o.failOnSkew == "" {
		return err
	}
	rule := "skew<=" + o.failOnSkew + "%"
	g := &diff.Gate{AllowMissing: o.allowMissing, Rules: []string{rule}}
	switch v := r.Verdict; {
	case v == nil:
		g.NA = append(g.NA, diff.NA{Rule: rule, Reason: r.NoVerdict})
	case v.SkewPct > failOn:
		g.Violations = append(g.Violations, diff.Violation{Rule: rule,
			Msg: fmt.Sprintf("rank %d holds the others back by %.2f%% of its median step time, more than %s%%", v.Rank, v.SkewPct, o.failOnSkew)})
	}
	if len(g.Violations) > 0 && o.format != "json" && o.format != "csv" {
		fmt.Fprintf(e.stderr, "tracetab: [%s] %s\n", rule, g.Violations[0].Msg)
	}
	if len(g.NA) > 0 && !o.allowMissing && o.format != "json" && o.format != "csv" {
		fmt.Fprintf(e.stderr, "tracetab: n/a [%s] %s\n", rule, g.NA[0].Reason)
	}
	return gateResult(e, o.format, "skew check", g)
}

// traceSummaries reads the traces (several at once: loadEach), keeping
// the summary of each, in the order of the files.
func traceSummaries(e *env, args []string) ([]*ranks.Summary, error) {
	files, err := rankFiles(args)
	if err != nil {
		return nil, err
	}
	ss := make([]*ranks.Summary, 0, len(files))
	err = loadEach(e, files, parse.Options{NoExtras: true, NoMemory: true},
		func(i int, t *trace.Trace) (*ranks.Summary, error) { return ranks.Summarize(t, i), nil },
		func(_ int, s *ranks.Summary) error { ss = append(ss, s); return nil })
	if err != nil {
		return nil, err
	}
	return ss, nil
}

// checkRanks refuses ranks that cannot be one job (the same rank twice,
// different world sizes, more ranks than the world) and warns about files
// whose rank comes from their position.
func checkRanks(e *env, ss []*ranks.Summary) error {
	byRank := map[int64]*ranks.Summary{}
	var world *ranks.Summary
	for _, s := range ss {
		if s.RankFromFile {
			fmt.Fprintf(e.stderr, "tracetab: warning: %s: no rank in distributedInfo: rank %d from the file's position\n", s.Path, s.Rank)
		}
		if o, dup := byRank[s.Rank]; dup {
			return usageErrorf("ranks: %s and %s are both rank %d: give one trace per rank", o.Path, s.Path, s.Rank)
		}
		byRank[s.Rank] = s
		if s.WorldSize > 0 {
			if world != nil && world.WorldSize != s.WorldSize {
				return usageErrorf("ranks: %s has world size %d, %s has %d: not one job", world.Path, world.WorldSize, s.Path, s.WorldSize)
			}
			world = s
		}
	}
	if world != nil {
		var bad []string
		for _, s := range ss {
			if s.Rank >= world.WorldSize {
				bad = append(bad, fmt.Sprintf("%s is rank %d", s.Path, s.Rank))
			}
		}
		if len(bad) > 0 {
			return usageErrorf("ranks: the world size is %d, but %s", world.WorldSize, strings.Join(bad, ", "))
		}
		if int64(len(ss)) > world.WorldSize {
			return usageErrorf("ranks: %d traces for a world size of %d", len(ss), world.WorldSize)
		}
	}
	return nil
}
