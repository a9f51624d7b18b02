package critpath

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"compress/gzip"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawEvent is an X event as the JSON writes it (read by rawjson, apart
// from tracetab's parser): the independent side of the checks on real
// traces.
type rawEvent struct {
	Cat, Name string
	Pid, Tid  string // as written
	Ts, Dur   int64  // ns; a negative dur is read as 0
	Corr      int64
	HasCorr   bool
}

// readRaw is the trace's X events, in file order.
func readRaw(t testing.TB, path string) []rawEvent {
	t.Helper()
	var out []rawEvent
	for _, e := range rawjson.MustRead(t, path) {
		if e.Ph != "X" {
			continue
		}
		r := rawEvent{Cat: e.Cat, Name: e.Name, Pid: e.Pid, Tid: e.Tid, Ts: e.Ts, Dur: max(0, e.Dur)}
		if c, err := strconv.ParseInt(e.Corr, 10, 64); err == nil {
			r.Corr, r.HasCorr = c, true
		}
		out = append(out, r)
	}
	return out
}

func openText(t testing.TB, path string) io.ReadCloser {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return f
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}
}

// load is the trace as tracetab reads it (once per test binary).
func load(t testing.TB, path string) *trace.Trace {
	t.Helper()
	tr, _, err := testcache.Open(path, parse.Options{NoExtras: true})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func sharedTrace(t testing.TB, name string) string {
	return filepath.Join(testenv.Shared(t), "traces", name)
}

// rawKey identifies an event by what the JSON wrote.
type rawKey struct {
	name    string
	ts, dur int64
}

func rawIndex(evs []rawEvent) map[rawKey][]int {
	m := map[rawKey][]int{}
	for k, e := range evs {
		m[rawKey{e.Name, e.Ts, e.Dur}] = append(m[rawKey{e.Name, e.Ts, e.Dur}], k)
	}
	return m
}
