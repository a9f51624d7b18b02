package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/dataset"
	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/exportview"
	"github.com/tracetab/tracetab/internal/trace"
)

type exportOptions struct {
	to          string
	partition   string
	jobs        int
	strict      bool
	compression string
	format      string
}

func newExportCmd(e *env) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export PATH... --to DIR",
		Short: "Write traces as Parquet datasets for DuckDB, Spark, Trino or BigQuery",
		Long: `export writes what tracetab reads and computes as Parquet files (schema
` + export.Schema + `, documented column by column in docs/schema.md), so that a
query engine answers fleet-sized questions: DuckDB on a laptop, Spark, Trino
or BigQuery on a cluster. A PATH is a trace file or a directory (every *.json
and *.json.gz under it).

One dataset per table, each in its own directory under DIR:
  events   every complete event: ids, lane, category, name, start_ns (from the
           origin) and dur_ns, correlation, External id, step, parent, launch
           call and launching op, shapes, stacks, launch parameters
  ops      tracetab table's rows (torch's key_averages(), by the recording
           torch's rules) over the whole trace (step null) and per step
  kernels  tracetab table --by kernel, over the whole trace and per step,
           with the kernels' efficiency (Tensor Cores, blocks per SM,
           est. achieved occupancy; null when the trace lacks the args)
  steps    each ProfilerStep#N: its windows, the device work it launched, and
           the step-time breakdown of tracetab gaps
  gaps     every idle stretch of every GPU with its cause (tracetab gaps)
  memory   the [memory] records: device, address, bytes, totals, and the op
           that made each (the innermost cpu_op on its thread holding its time)
  collectives  every communication kernel tracetab ranks matches: rank, step,
           occurrence, name, process group, seq, launch/start/end (ns from the
           trace's origin, on the rank's clock), collective, dtype, bytes
  ranks    one row per input: tracetab ranks' summary of it (steps, device
           lane's compute, communication, idle), for ranks --dataset
  trend    one row per input: tracetab trend's run (wall-clock start, the
           environment, every metric's value), for trend --dataset
  modules  every node of the module tree (table --by module): path, parent,
           depth, occurrences, host and device self and total ns
  categories  device time and calls per category (table --by category), over
           the whole trace and per step
  sequences  the top 10 sequences of device ops (table --by sequence)
  queues   each stream's launch queue (gaps --format json, streams[].queue)
  traces   one row per input: path, size, sha256, rank, world size, devices,
           era, torch hints, warnings
A step's rows are computed on the step's own events (those of table --steps
N: CPU events by their start, device ops by their launch call's), as on a
crop of it (tracetab crop --step N).

Files: DIR/DATASET/KEY=VALUE/.../ID.parquet, one per trace and dataset (ID:
the first 16 hex digits of the file's SHA-256, so the same file exported
again replaces its own files), Hive-style directories by --partition (trace,
date: the UTC date of the trace's origin, rank; __HIVE_DEFAULT_PARTITION__
when missing) so that engines prune. Exporting one more trace adds its files
and rewrites none. A trace's files are written under temporary names (.*.tmp,
which engines skip) and renamed into place together once all are complete,
its traces row last: an export stopped at any point leaves no partial file
and no half-exported trace. DIR/_tracetab_export.json records the schema and
partitioning; an export into a DIR of another form is refused.

--jobs traces are read at once, each within a --jobs-th of --max-memory; a
trace too large for its share is exported after the others, alone. A trace
that cannot be read is reported and skipped (the exit code is then 3);
--strict stops at the first.

The text lists each trace exported and the total; at a terminal, over more
than ` + strconv.Itoa(exportLinesMax) + ` traces, a progress line on stderr stands for the list (piped,
and with --format json, every trace is listed).`,
		Example: `  tracetab export traces/ --to fleet/
  tracetab export nightly/2026-06-*/ --to fleet/ --partition date,trace --jobs 4
  duckdb -c "SELECT name, sum(self_cuda_ns)/1e6 AS ms FROM 'fleet/ops/**/*.parquet' WHERE step IS NULL GROUP BY name ORDER BY ms DESC LIMIT 10"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("export takes traces or directories of traces, got none; see 'tracetab export --help'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			if o.to == "" {
				return usageErrorf("export needs --to DIR: the directory to write the datasets into")
			}
			if o.jobs < 1 {
				return usageErrorf("--jobs %d: give 1 or more", o.jobs)
			}
			if !slices.Contains(export.Codecs, o.compression) {
				return usageErrorf("--compression %q: use %s", o.compression, strings.Join(export.Codecs, " or "))
			}
			keys, err := partitionKeys(o.partition)
			if err != nil {
				return err
			}
			return runExport(e, o, keys, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "", "the directory to write the datasets into (created if missing)")
	f.StringVar(&o.partition, "partition", "trace", "Hive-style directory keys, in order: trace, date, rank, a comma list of them (date,trace), or none")
	f.IntVar(&o.jobs, "jobs", min(runtime.GOMAXPROCS(0), 4), "traces exported at once")
	f.BoolVar(&o.strict, "strict", false, "stop at the first trace that cannot be exported (default: report it, skip it, exit 3 at the end)")
	f.StringVar(&o.compression, "compression", "zstd", "Parquet compression: zstd or snappy")
	f.StringVar(&o.format, "format", "text", "the summary on stdout: text or json")
	e.completeFlag(cmd, "format", fixedCompletion("text", "json"))
	e.completeFlag(cmd, "compression", fixedCompletion(export.Codecs...))
	e.completeFlag(cmd, "partition", fixedCompletion("trace", "date", "rank", "date,trace", "none"))
	return cmd
}

// partitionKeys reads --partition.
func partitionKeys(s string) ([]string, error) {
	if s == "none" || s == "" {
		return nil, nil
	}
	var keys []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if !slices.Contains(export.PartitionKeys, k) {
			return nil, usageErrorf("--partition %q: give keys among %s (a comma list, e.g. date,trace) or none", s, strings.Join(export.PartitionKeys, ", "))
		}
		if slices.Contains(keys, k) {
			return nil, usageErrorf("--partition %q: %s is given twice", s, k)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// exportFiles expands the arguments: a directory stands for every *.json
// and *.json.gz under it (hidden files and directories skipped), sorted.
func exportFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		if a == "-" {
			return nil, usageErrorf("export reads each trace twice (its SHA-256, then its events): give files, not - (standard input)")
		}
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			files = append(files, a) // the reader names what is wrong with it
			continue
		}
		var in []string
		walk := dataset.WalkRoot(a)
		err = filepath.WalkDir(walk, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != walk && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".json.gz")) {
				in = append(in, p)
			}
			return nil
		})
		if err != nil {
			return nil, &exitError{code: ExitUnreadable, err: fmt.Errorf("export: %v", err)}
		}
		if len(in) == 0 {
			return nil, usageErrorf("export: the directory %s holds no *.json or *.json.gz file", a)
		}
		slices.Sort(in)
		files = append(files, in...)
	}
	return files, nil
}

func runExport(e *env, o *exportOptions, keys []string, args []string) error {
	files, err := exportFiles(args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var results []*export.Result
	var mu sync.Mutex
	// at a terminal the lines fit its width, and over many traces a
	// progress line stands for a line each (exportLinesMax)
	width, tty := e.terminalWidth()
	perTrace := o.format == "text" && (!tty || len(files) <= exportLinesMax)
	var prog *exportProgress
	if o.format == "text" && !perTrace && isTerminal(e.stderr) {
		prog = &exportProgress{w: e.stderr, total: len(files)}
		defer prog.clear()
	}
	opts := export.Options{Dir: o.to, Partition: keys, Jobs: o.jobs, Strict: o.strict, MaxMemory: e.maxMemory.bytes,
		Compression: o.compression, Version: version(),
		Load: func(path string, bound int64) (*trace.Trace, error) {
			releaseBefore(path)
			t, err := parse.Open(path, parse.Options{AllowTruncated: e.allowTruncated, MaxMemory: bound})
			if err != nil {
				return nil, err
			}
			releaseAfter(t.BytesRead)
			mu.Lock()
			if len(t.Warnings) > 0 && prog != nil {
				prog.clear()
			}
			printWarnings(e.stderr, t)
			mu.Unlock()
			return t, nil
		},
		TooLarge: func(err error) bool {
			var pe *parse.Error
			return errors.As(err, &pe) && pe.TooLarge
		},
		Done: func(r *export.Result) {
			mu.Lock()
			defer mu.Unlock()
			results = append(results, r)
			if prog != nil && (r.Err != nil && !o.strict || r.Dup != "") {
				prog.clear()
			}
			switch {
			case r.Err != nil && o.strict:
			case r.Err != nil && errors.Is(r.Err, context.Canceled) && ctx.Err() != nil:
				// a trace stopped by the interrupt: the end says how many were exported
			case r.Err != nil:
				fmt.Fprintf(e.stderr, "tracetab: warning: skipped: %v\n", r.Err)
			case r.Dup != "":
				note(e.stderr, fmt.Sprintf("%s is the same file as %s (sha256): exported once", r.Path, r.Dup))
			case perTrace:
				exportview.Line(e.stdout, r, width)
			}
			if prog != nil {
				prog.add(r.Err != nil)
			}
		},
	}
	// Over many traces the live heap is the few in flight: the collector's
	// target is paced as for ranks and trend (fanoutPacer, a heap goal of
	// at least 32 MB), and export's own lower target for its gaps phase
	// is off. Measured over 100 generated ranks of 0.7 MB: below.
	if gc := e.fanoutPacer(len(files)); gc != nil {
		defer setGCPercent(setGCPercent(fanoutGCPercent))
		opts.KeepGC = true
		done := opts.Done
		opts.Done = func(r *export.Result) {
			done(r)
			gc.update()
		}
	}
	sum, err := export.Run(ctx, files, opts)
	if prog != nil {
		prog.clear()
	}
	var le *export.LayoutError
	switch {
	case errors.As(err, &le):
		return usageErrorf("export: %v", le)
	case errors.Is(err, context.Canceled):
		return &exitError{code: ExitUnreadable, err: fmt.Errorf("export interrupted: %d of %d traces were exported before the stop; no file is left half written", sum.Traces, len(files))}
	case err != nil && sum == nil:
		return &exitError{code: ExitUnreadable, err: fmt.Errorf("export: %v", err)}
	case err != nil: // --strict: the first trace that failed
		return &exitError{code: ExitUnreadable, err: fmt.Errorf("%v (--strict: the export stopped; %d traces were exported before it)", err, sum.Traces)}
	}
	if o.format == "json" {
		if err := exportview.JSON(e.stdout, o.to, keys, len(files), sum, results); err != nil {
			return err
		}
	} else {
		exportview.Total(e.stdout, o.to, sum, width)
	}
	if sum.Failed > 0 {
		return &exitError{code: ExitUnreadable, err: fmt.Errorf("%d of %d traces could not be exported (skipped; named above)", sum.Failed, len(files))}
	}
	return nil
}
