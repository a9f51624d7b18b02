package export

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tracetab/tracetab/internal/gctune"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go/compress"

	"github.com/tracetab/tracetab/internal/atomicfile"
	"github.com/tracetab/tracetab/internal/fanout"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/trend"
)

// EventPartRows is the most events one file holds: a larger trace's events
// are written in several files (ID-0.parquet, ID-1.parquet, ...) at once,
// their number set by the trace alone, so that exporting it again replaces
// the same files.
const EventPartRows = 1 << 20

// Options of an export.
type Options struct {
	Dir       string
	Partition []string // keys of PartitionKeys, in directory order; none: files directly under each dataset
	Jobs      int      // traces exported at once (>= 1)
	Strict    bool     // stop at the first trace that cannot be exported
	// MaxMemory bounds the whole export: each of the Jobs traces read at
	// once may need a Jobs-th of it; a trace refused for its share is
	// exported after the others, alone, with the whole bound. 0: no bound.
	MaxMemory    int64
	Compression  string // one of Codecs ("" is zstd)
	RowGroupRows int64  // 0: RowGroupRows
	Version      string // tracetab's, written in each file
	// Load reads a trace within a memory bound (0: none).
	Load func(path string, maxMemory int64) (*trace.Trace, error)
	// TooLarge reports whether Load's error is a trace over its bound.
	TooLarge func(err error) bool
	// Done is called once per input as it completes (one call at a time).
	Done func(r *Result)
	// KeepGC leaves the collector's target to the caller (who paces it
	// over many traces), not lowered for each trace's gaps phase.
	KeepGC bool
}

// Result is what one input gave.
type Result struct {
	Path    string
	TraceID string
	Rows    map[string]int64 // per dataset
	Bytes   int64            // Parquet bytes written
	Files   int
	Err     error // the trace was not exported (reported and skipped unless Strict)
	Dup     string
	Elapsed time.Duration
}

// Summary totals an export.
type Summary struct {
	Traces, Failed, Duplicates int
	Rows                       map[string]int64
	Bytes                      int64
}

// marker is DIR/_tracetab_export.json: the schema and layout of the files
// under DIR, so that a later export adds files of the same form only.
type marker struct {
	Schema    string   `json:"schema"`
	Partition []string `json:"partition"`
	Datasets  []string `json:"datasets"`
}

// MarkerName is the marker's file name (engines skip names starting with _).
const MarkerName = "_tracetab_export.json"

// LayoutError is a DIR whose files have another schema or partitioning.
type LayoutError struct{ Msg string }

func (e *LayoutError) Error() string { return e.Msg }

// prepare creates DIR and its marker, or checks the marker there.
func prepare(o *Options) error {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	want := marker{Schema: Schema, Partition: o.Partition, Datasets: Datasets}
	if want.Partition == nil {
		want.Partition = []string{}
	}
	path := filepath.Join(o.Dir, MarkerName)
	if b, err := os.ReadFile(path); err == nil {
		var have marker
		if err := json.Unmarshal(b, &have); err != nil {
			return &LayoutError{fmt.Sprintf("%s is not an export marker (%v): export to another directory", path, err)}
		}
		if have.Schema != want.Schema {
			return &LayoutError{fmt.Sprintf("%s holds files of schema %s, not %s: export to another directory", o.Dir, have.Schema, want.Schema)}
		}
		if !slices.Equal(have.Partition, want.Partition) {
			return &LayoutError{fmt.Sprintf("%s is partitioned by %q, not %q: give --partition %s, or export to another directory",
				o.Dir, have.Partition, want.Partition, partitionFlag(have.Partition))}
		}
		return nil
	}
	b, _ := json.MarshalIndent(want, "", "  ")
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	return f.Commit()
}

func partitionFlag(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	s := keys[0]
	for _, k := range keys[1:] {
		s += "," + k
	}
	return s
}

// Run exports every path. A trace that cannot be read or written is
// reported through Done and skipped; with Strict the first one stops the
// export and is returned. A cancelled ctx stops it too: files finished by
// then stay, none is left half written.
func Run(ctx context.Context, paths []string, o Options) (*Summary, error) {
	if o.Jobs < 1 {
		o.Jobs = 1
	}
	if o.RowGroupRows <= 0 {
		o.RowGroupRows = RowGroupRows
	}
	codec, err := codecOf(o.Compression)
	if err != nil {
		return nil, err
	}
	if err := prepare(&o); err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sum := &Summary{Rows: map[string]int64{}}
	gc := &gcTarget{set: gctune.Percent} // a no-op where the tuning is off (gctune)
	if o.KeepGC {
		gc.set = nil
	}
	var mu sync.Mutex
	var first error
	seen := map[string]string{} // trace id -> the path exported under it
	var later []string          // refused for their share of the bound: alone, after the others
	done := func(r *Result) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Err != nil:
			sum.Failed++
			if o.Strict && first == nil {
				first = r.Err
				cancel()
			}
		case r.Dup != "":
			sum.Duplicates++
		default:
			sum.Traces++
			for k, v := range r.Rows {
				sum.Rows[k] += v
			}
			sum.Bytes += r.Bytes
		}
		if o.Done != nil {
			o.Done(r)
		}
	}
	claim := func(id, path string) string {
		mu.Lock()
		defer mu.Unlock()
		if p, ok := seen[id]; ok {
			return p
		}
		seen[id] = path
		return ""
	}
	share := o.MaxMemory
	if share > 0 {
		share /= int64(o.Jobs)
	}
	// the traces are read Jobs at once and reported (Done) in input order;
	// once ctx is cancelled no new trace is started
	type job struct {
		r       *Result
		skipped bool // not started: ctx was cancelled
		later   bool // refused for its share of the bound
	}
	_ = fanout.Each(len(paths), o.Jobs, func(i int) (job, error) {
		if ctx.Err() != nil {
			return job{skipped: true}, nil
		}
		r := exportOne(ctx, paths[i], &o, codec, gc, share, claim)
		later := r.Err != nil && o.Jobs > 1 && o.TooLarge != nil && o.TooLarge(r.Err) && ctx.Err() == nil
		return job{r: r, later: later}, nil
	}, func(_ int, j job) error {
		switch {
		case j.skipped:
		case j.later:
			later = append(later, j.r.Path)
		default:
			done(j.r)
		}
		return nil
	})
	for _, path := range later {
		if ctx.Err() != nil {
			break
		}
		gctune.Collect() // the other jobs' traces are gone: this one has the whole bound
		done(exportOne(ctx, path, &o, codec, gc, o.MaxMemory, claim))
	}
	if first != nil {
		return sum, first
	}
	return sum, parent.Err()
}

// exportOne reads one trace and writes its files.
func exportOne(ctx context.Context, path string, o *Options, codec compress.Codec, gc *gcTarget, bound int64, claim func(id, path string) string) *Result {
	start := time.Now()
	r := &Result{Path: path, Rows: map[string]int64{}}
	fail := func(err error) *Result {
		r.Err, r.Elapsed = err, time.Since(start)
		return r
	}
	// the file's digest (its id) is read beside the parse
	dg := make(chan struct {
		d   fileDigest
		err error
	}, 1)
	go func() {
		d, err := digest(path)
		dg <- struct {
			d   fileDigest
			err error
		}{d, err}
	}()
	t, err := o.Load(path, bound)
	got := <-dg
	if err != nil {
		return fail(err)
	}
	if got.err != nil {
		return fail(fmt.Errorf("%s: %v", path, got.err))
	}
	d := got.d
	id := TraceID(d.sum)
	r.TraceID = id
	if p := claim(id, path); p != "" {
		r.Dup, r.Elapsed = p, time.Since(start)
		return r
	}
	c := &common{id: id}
	if t.Dist.Present && t.Dist.Rank >= 0 {
		c.rank = ptr(t.Dist.Rank)
	}
	spec := &fileSpec{dir: o.Dir, keys: o.Partition, vals: partitionValues(t, id), traceID: id, codec: codec,
		rowGroups: o.RowGroupRows, version: o.Version}
	var mu sync.Mutex
	var werr error
	var files []*atomicfile.File
	record := func(dataset string, f *atomicfile.File, rows, size int64, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil && werr == nil {
			werr = fmt.Errorf("%s: writing %s: %w", path, dataset, err)
		}
		if f != nil {
			files = append(files, f)
		}
		r.Rows[dataset] += rows
		r.Bytes += size
	}
	abort := func(err error) *Result {
		for _, f := range files {
			f.Abort()
		}
		return fail(err)
	}
	// The datasets of tracetab gaps' report come first, alone: the report
	// lists every gap and is the largest thing export holds beside the
	// trace; it is dropped once they are written. Then two lanes: the
	// events (most of the rows, streamed in parts of EventPartRows,
	// several files of one trace) followed by the small datasets of the
	// trace's other views, and the op and kernel tables of every step
	// followed by the trend and traces rows.
	// What the trend row reads of the gaps report and of the whole
	// trace's op table is kept from their own datasets (trend.Reuse).
	reuse := &trend.Reuse{}
	func() {
		gc.enter()
		defer gc.leave()
		reuse.Diff.Gaps = writeGapTables(ctx, spec, c, t, record)
	}()
	of, memOf := eventSteps(t), memSteps(t)
	var wg sync.WaitGroup
	wg.Add(2)
	ranks := make(chan struct{}) // reuse.Ranks is set
	side := sideTables(ctx, spec, c, t, memOf, path, reuse, ranks, record)
	go func() {
		defer wg.Done()
		writeEvents(ctx, spec, c, t, of, record)
		side.take()
	}()
	go func() {
		defer wg.Done()
		all, err := writeStepTables(ctx, spec, c, t, of, memOf, record)
		side.take()
		<-ranks
		if err == nil {
			reuse.Diff.Table = all
			writeTraceTables(ctx, spec, c, t, path, d, o.Version, reuse, record)
		}
	}()
	wg.Wait()
	if werr == nil {
		werr = ctx.Err()
	}
	if werr != nil {
		return abort(werr)
	}
	// Every file is written: they are renamed into place together, the
	// trace's own row last, so a trace listed in traces has all its files
	// and an export stopped before this point leaves none of them.
	slices.SortStableFunc(files, func(a, b *atomicfile.File) int {
		return boolCmp(a.Path() == spec.path(DatasetTraces), b.Path() == spec.path(DatasetTraces))
	})
	// their bytes are made durable together (one syncfs, not a sync per
	// file: a 256-rank export of 3,585 files took 4.7 s with a sync each
	// and 2.9 s without, medians of 5) before any is renamed, so a file
	// under its name is whole after a crash too
	if err := atomicfile.SyncAll(files); err != nil {
		return abort(fmt.Errorf("%s: %w", path, err))
	}
	for k, f := range files {
		if err := f.CommitSynced(); err != nil {
			for _, g := range files[k+1:] {
				g.Abort()
			}
			return fail(fmt.Errorf("%s: %w", path, err))
		}
	}
	r.Files = len(files)
	r.Elapsed = time.Since(start)
	return r
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// writeEvents writes the events in files of EventPartRows events at most,
// on as many goroutines as there are cores beside the other lane (one on
// two cores: each part's writer holds some 20 MiB).
func writeEvents(ctx context.Context, spec *fileSpec, c *common, t *trace.Trace, of []int32, record recordFunc) {
	n := t.NumEvents()
	parts := max(1, (n+EventPartRows-1)/EventPartRows)
	next := make(chan int, parts)
	for k := range parts {
		next <- k
	}
	close(next)
	var wg sync.WaitGroup
	for range max(1, min(parts, runtime.GOMAXPROCS(0)-1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				if ctx.Err() != nil {
					return
				}
				ps := *spec
				if parts > 1 {
					ps.part = fmt.Sprintf("-%d", k)
				}
				lo, hi := k*EventPartRows, min(n, (k+1)*EventPartRows)
				f, rows, size, err := writeEventsFile(ctx, &ps, c, t, of, lo, hi)
				record(DatasetEvents, f, rows, size, err)
			}
		}()
	}
	wg.Wait()
}

// writeGapTables writes the datasets made from tracetab gaps' report
// (steps, gaps, queues); the report, which lists every gap, is dropped
// when they are written but for what the trend row reads of it (its
// verdict and device lanes), which is returned.
func writeGapTables(ctx context.Context, spec *fileSpec, c *common, t *trace.Trace, record recordFunc) *gaps.Report {
	rep := analyzeGaps(t)
	// The gap rows (every gap, from the report's compact records) are made
	// by two goroutines and written by this one; the other writes the
	// steps' and queues' rows when its share is made (they read other
	// parts of the report).
	var once sync.Once
	steps := func() {
		once.Do(func() {
			f, rows, size, err := writeRows(ctx, spec, DatasetSteps, stepRows(c, t, rep))
			record(DatasetSteps, f, rows, size, err)
			f, rows, size, err = writeRows(ctx, spec, DatasetQueues, queueRows(c, rep))
			record(DatasetQueues, f, rows, size, err)
		})
	}
	f, rows, size, err := writeFile(ctx, spec, DatasetGaps, func(emit func([]GapRow) error) error { return gapRowsBeside(c, rep, emit, steps) })
	record(DatasetGaps, f, rows, size, err)
	steps() // when the gaps' file could not be made, its rows never were
	return &gaps.Report{Verdict: rep.Verdict, Devices: rep.Devices}
}

// sideTables are the datasets that need neither the gaps report nor the
// whole trace's op table (memory, collectives, ranks, modules, categories,
// sequences), written by whichever lane is free: the events' lane once
// the events are written, the per-step tables' lane once those are. Which
// lane finishes first depends on the trace (on the 200 MB bench traces the
// events and these tables took 20-60 ms longer than the per-step tables
// when the events' lane wrote them all). ranks is closed once reuse.Ranks
// is set.
func sideTables(ctx context.Context, spec *fileSpec, c *common, t *trace.Trace, memOf []int32, path string, reuse *trend.Reuse, ranks chan struct{}, record recordFunc) *taskList {
	return &taskList{tasks: []func(){
		func() { // first: the trend and traces rows wait for it
			rr, cr, rs := rankTables(c, t, path)
			reuse.Ranks = rs
			close(ranks)
			f, rows, size, err := writeRows(ctx, spec, DatasetCollectives, cr)
			record(DatasetCollectives, f, rows, size, err)
			f, rows, size, err = writeRows(ctx, spec, DatasetRanks, []RankRow{rr})
			record(DatasetRanks, f, rows, size, err)
		},
		func() {
			f, rows, size, err := writeFile(ctx, spec, DatasetMemory, func(emit func([]MemoryRow) error) error { return memoryRows(c, t, memOf, emit) })
			record(DatasetMemory, f, rows, size, err)
		},
		func() {
			f, rows, size, err := writeRows(ctx, spec, DatasetModules, moduleRows(c, t))
			record(DatasetModules, f, rows, size, err)
		},
		func() {
			f, rows, size, err := writeRows(ctx, spec, DatasetCategories, categoryRows(c, t))
			record(DatasetCategories, f, rows, size, err)
		},
		func() {
			f, rows, size, err := writeRows(ctx, spec, DatasetSequences, sequenceRows(c, t))
			record(DatasetSequences, f, rows, size, err)
		},
	}}
}

// taskList runs each of its tasks once, on whichever goroutines call take.
type taskList struct {
	tasks []func()
	next  atomic.Int32
}

// take runs tasks not yet taken until none is left.
func (l *taskList) take() {
	for {
		k := int(l.next.Add(1)) - 1
		if k >= len(l.tasks) {
			return
		}
		l.tasks[k]()
	}
}

// writeTraceTables writes the trace's trend row (from what the other
// datasets computed: reuse) and its traces row.
func writeTraceTables(ctx context.Context, spec *fileSpec, c *common, t *trace.Trace, path string, d fileDigest, version string, reuse *trend.Reuse, record recordFunc) {
	if tr, err := trendRow(c, t, path, reuse); err != nil {
		record(DatasetTrend, nil, 0, 0, err)
	} else {
		f, rows, size, err := writeRows(ctx, spec, DatasetTrend, []TrendRow{tr})
		record(DatasetTrend, f, rows, size, err)
	}
	f, rows, size, err := writeRows(ctx, spec, DatasetTraces, []TraceRow{traceRow(c, t, path, d, version)})
	record(DatasetTraces, f, rows, size, err)
}

// recordFunc takes a written (or failed) file of a dataset.
type recordFunc func(dataset string, f *atomicfile.File, rows, size int64, err error)

// writeStepTables writes the op and kernel rows of the whole trace (step
// null) and of each profiler step (computed on the step's own events: see
// subTrace), a step at a time; it returns the whole trace's op table.
func writeStepTables(ctx context.Context, spec *fileSpec, c *common, t *trace.Trace, of, memOf []int32, record recordFunc) (*table.Result, error) {
	ops, err := newFileWriter[OpRow](ctx, spec, DatasetOps)
	if err != nil {
		record(DatasetOps, nil, 0, 0, err)
		return nil, err
	}
	kernels, err := newFileWriter[KernelRow](ctx, spec, DatasetKernels)
	if err != nil {
		ops.abort()
		record(DatasetKernels, nil, 0, 0, err)
		return nil, err
	}
	all, err := stepTableRows(c, t, of, memOf, ops.write, kernels.write)
	if err != nil {
		ops.abort()
		kernels.abort()
		record(DatasetOps, nil, 0, 0, err)
		return nil, err
	}
	f, rows, size, err := ops.finish()
	record(DatasetOps, f, rows, size, err)
	if err != nil {
		kernels.abort()
		return nil, err
	}
	f, rows, size, err = kernels.finish()
	record(DatasetKernels, f, rows, size, err)
	return all, err
}

// stepTableRows gives the op and kernel rows of the whole trace (step
// null), then of each profiler step (computed on the step's own events:
// see subTrace), a step at a time; it returns the whole trace's op table.
func stepTableRows(c *common, t *trace.Trace, of, memOf []int32, ops func([]OpRow) error, kernels func([]KernelRow) error) (*table.Result, error) {
	var all *table.Result
	names := kernelNames()
	// the rows and their optional values are reused from step to step:
	// the writers copy what they are given
	var opBuf []OpRow
	var kernelBuf []KernelRow
	opSlab, kernelSlab := newSlab(0, 0, 0, 0, 0), newSlab(0, 0, 0, 0, 0)
	write := func(u *trace.Trace, step *int64) error {
		o, res, err := opRows(c, u, step, opBuf, opSlab)
		if err != nil {
			return err
		}
		if step == nil {
			all = res
		}
		opBuf = o
		if err := ops(o); err != nil {
			return err
		}
		kernelBuf = kernelRows(c, u, step, names, kernelBuf, kernelSlab)
		return kernels(kernelBuf)
	}
	if err := write(t, nil); err != nil {
		return nil, err
	}
	split := splitSteps(t, of, memOf)
	for k, s := range split.steps {
		n := s.N
		if err := write(split.subTrace(t, k), &n); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// partitionValues are the Hive partition values of a trace's files.
func partitionValues(t *trace.Trace, id string) map[string]string {
	v := map[string]string{"trace": id, "date": HiveNull, "rank": HiveNull}
	if ns, ok := t.WallClock(); ok {
		v["date"] = dateOf(ns)
	}
	if t.Dist.Present && t.Dist.Rank >= 0 {
		v["rank"] = strconv.FormatInt(t.Dist.Rank, 10)
	}
	return v
}
