package cli

import (
	"bytes"
	"os"
	"runtime"
	"strconv"

	"github.com/tracetab/tracetab/internal/fanout"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// workersEnv forces the number of traces read at once by the commands over
// many files (ranks, trend); 1 is the sequential run the tests compare to.
const workersEnv = "TRACETAB_WORKERS"

// fileNeedFactor is the memory a trace is assumed to take per byte of its
// file when --max-memory sets how many files are read at once (the
// parser's own bound, parse.Options.MaxMemory, still applies to each).
const fileNeedFactor = 4

// fanoutGCPercent is the GC target while loadEach reads files in parallel.
var fanoutGCPercent = 100

// seqCollectMin is the least file size after which the sequential loop
// collects before reading the next file. A forced collection waits for
// its sweep however small the trace: after each of a thousand 0.7 MB
// ranks it was half the run (ranks over 1,024 generated ranks, 727 MB, one
// worker: 11 s CPU with a collection after every file, 1023 of its 2055
// collections; 5.5 s without); below this size the collector's own target
// (and gcPacer's floor) keeps the heap bounded.
const seqCollectMin = 16 << 20

// largeFile reports whether path is at least seqCollectMin bytes on disk
// (compressed for gzip); false when it cannot be read.
func largeFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Size() >= seqCollectMin
}

// loadWorkers is how many of files are read at once: one per core
// (GOMAXPROCS), fewer when --max-memory cannot hold that many of the
// largest file, TRACETAB_WORKERS when set.
func (e *env) loadWorkers(files []string) int {
	if n, err := strconv.Atoi(os.Getenv(workersEnv)); err == nil && n >= 1 {
		return n
	}
	w := runtime.GOMAXPROCS(0)
	if b := e.maxMemory.bytes; b > 0 {
		var largest int64
		for _, f := range files {
			if st, err := os.Stat(f); err == nil && st.Size() > largest {
				largest = st.Size()
			}
		}
		if need := largest * fileNeedFactor; need > 0 {
			w = min(w, int(max(1, b/need)))
		}
	}
	return max(1, w)
}

// loaded is what a worker keeps of one trace: the command's summary of it
// and the reader's warnings, printed when its turn comes.
type loaded[T any] struct {
	v        T
	warnings []byte
	shared   bool
	err      error
}

// loadEach reads files (with the command's reading options), reduces each
// trace to sum's result on a worker and hands the results to emit in input
// order, printing each file's warnings first: the output is the sequential
// loop's. Only the summaries are kept, never the traces. The first failing
// file by input order decides the error, as in the sequential loop.
func loadEach[T any](e *env, files []string, opts parse.Options, sum func(i int, t *trace.Trace) (T, error), emit func(i int, v T) error) error {
	workers := e.loadWorkers(files)
	if workers == 1 {
		// under a tight --max-memory (or for one file) root's low
		// target stays
		gc := e.fanoutPacer(len(files))
		if gc != nil {
			defer setGCPercent(setGCPercent(fanoutGCPercent))
		}
		for i, path := range files {
			t, err := e.loadOpts(path, opts)
			if err != nil {
				return err
			}
			v, err := sum(i, t)
			if err != nil {
				return err
			}
			t = nil
			if err := emit(i, v); err != nil {
				return err
			}
			if i+1 < len(files) && largeFile(path) {
				collect() // the trace is dropped before the next one is read
			}
			gc.update()
		}
		return nil
	}
	opts.AllowTruncated, opts.Stdin, opts.MaxMemory, opts.ShapesOnly = e.allowTruncated, e.stdin, e.maxMemory.bytes, e.shapesOnly
	opts.Sequential = true // one goroutine per file: the files are the parallelism
	// the live heap is the few traces in flight, so root's low GC target
	// (20) would collect after every few hundred KiB read
	defer setGCPercent(setGCPercent(fanoutGCPercent))
	gc := e.fanoutPacer(len(files))
	work := func(i int) (r loaded[T], _ error) {
		defer safe.Recover(&r.err)
		var t *trace.Trace
		if testOpen != nil {
			t, r.shared, r.err = testOpen(files[i], opts)
		} else {
			t, r.err = parse.Open(files[i], opts)
		}
		if r.err != nil {
			return r, nil
		}
		var w bytes.Buffer
		printWarnings(&w, t)
		r.warnings = w.Bytes()
		if afterLoad != nil {
			afterLoad(t)
		}
		r.v, r.err = sum(i, t)
		return r, nil
	}
	return fanout.Each(len(files), workers, work, func(i int, r loaded[T]) error {
		e.loading = files[i]
		e.sharedTrace = e.sharedTrace || r.shared
		e.stderr.Write(r.warnings)
		if r.err != nil {
			return r.err
		}
		gc.update()
		return emit(i, r.v)
	})
}
