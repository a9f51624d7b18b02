// Package testcache reads each reference trace once while it is kept (a
// few at a time, the most recently read; testenv.Cache): the tests of a
// package share the parsed trace (keyed by its path, size,
// modification time and reading options), so a suite that runs forty
// commands over twenty-five shared traces parses each one a few times
// instead of hundreds of times. Only the read-only inputs are cached (the
// shared reference data and the repository's testdata); a trace a test
// writes is read afresh. Cached traces must not be changed: commands that
// let go of parts of a trace to save memory skip that for a cached one.
package testcache

import (
	"os"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

type key struct {
	path     string
	size     int64
	modNs    int64
	truncOK  bool
	lean     bool
	noMem    bool
	shapes   bool // parse.Options.ShapesOnly
	dims     bool // parse.Options.DimsOnly
	maxBytes int64
	// not parse.Options.Sequential: the parallel reading is the sequential
	// one (parse's TestParallelRealTraces and TestGzipParallelRealTraces),
	// so one entry serves both
}

type parsed struct {
	t   *trace.Trace
	err error
}

// traces holds the parsed traces, a few at a time (testenv.Cache):
// TRACETAB_TEST_TRACES sets how many (default 0: all; see testenv.Cache).
var traces = &testenv.Cache[key, parsed]{Max: testenv.CacheSize("TRACETAB_TEST_TRACES", 0)}

// Cacheable reports whether path is one of the read-only inputs the cache
// keeps: a file under the shared reference data or the repository's
// testdata.
func Cacheable(path string) bool { return testenv.ReadOnlyInput(path) }

// Open is parse.Open, once per trace and options for the test binary;
// shared reports whether the trace came from (or went into) the cache.
func Open(path string, opts parse.Options) (t *trace.Trace, shared bool, err error) {
	if path == "-" || opts.Progress != nil || !Cacheable(path) {
		t, err = parse.Open(path, opts)
		return t, false, err
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		t, err = parse.Open(path, opts)
		return t, false, err
	}
	// keyed by the path as given: the trace names its file as it was opened
	k := key{path, st.Size(), st.ModTime().UnixNano(), false, opts.NoExtras, opts.NoMemory, opts.ShapesOnly, opts.DimsOnly, opts.MaxMemory}
	load := func(k key, opts parse.Options) parsed {
		p, _ := traces.Get(k, func() (parsed, error) {
			t, err := parse.Open(path, opts)
			return parsed{t, err}, nil
		})
		return p
	}
	// --allow-truncated changes nothing for a trace that reads whole (it
	// only keeps the events before an early end): one entry serves both
	strict := opts
	strict.AllowTruncated = false
	p := load(k, strict)
	if p.err != nil && opts.AllowTruncated {
		k.truncOK = true
		p = load(k, opts)
	}
	return p.t, true, p.err
}
