package critpath

import (
	"compress/gzip"
	"encoding/json"
	"github.com/tracetab/tracetab/internal/rawjson"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawEvent is an X event read straight from the JSON with encoding/json,
// its times converted from their decimal text with math/big: the
// independent side of the checks on real traces.
type rawEvent struct {
	Cat, Name string
	Pid, Tid  string // as written
	Ts, Dur   int64  // ns
	Corr      int64
	HasCorr   bool
}

func decNs(t testing.TB, v any) int64 {
	ns, err := rawjson.Ns(v)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// jsonEvent is what the checks read of an event.
type jsonEvent struct {
	Ph   string      `json:"ph"`
	Cat  string      `json:"cat"`
	Name string      `json:"name"`
	Pid  any         `json:"pid"`
	Tid  any         `json:"tid"`
	Ts   json.Number `json:"ts"`
	Dur  json.Number `json:"dur"`
	Args struct {
		Correlation *json.Number `json:"correlation"`
	} `json:"args"`
}

// decodeEvents reads every X event of a trace's JSON text, one element of
// traceEvents at a time.
func decodeEvents(t testing.TB, r io.Reader) []rawEvent {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	if tok == json.Delim('{') {
		for {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			if k == "traceEvents" {
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := dec.Token(); err != nil { // [
			t.Fatal(err)
		}
	}
	var out []rawEvent
	for dec.More() {
		var j jsonEvent
		if err := dec.Decode(&j); err != nil {
			t.Fatal(err)
		}
		if j.Ph != "X" {
			continue
		}
		e := rawEvent{Cat: j.Cat, Name: j.Name, Pid: rawjson.ID(j.Pid), Tid: rawjson.ID(j.Tid), Ts: decNs(t, j.Ts), Dur: max(0, decNs(t, j.Dur))}
		if c := j.Args.Correlation; c != nil {
			e.Corr, _ = c.Int64()
			e.HasCorr = true
		}
		out = append(out, e)
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

var rawCache, traceCache sync.Map

// readRaw is the trace's X events as encoding/json reads them (once per
// test binary).
func readRaw(t testing.TB, path string) []rawEvent {
	t.Helper()
	if v, ok := rawCache.Load(path); ok {
		return v.([]rawEvent)
	}
	f := openText(t, path)
	defer f.Close()
	evs := decodeEvents(t, f)
	rawCache.Store(path, evs)
	return evs
}

// load is the trace as tracetab reads it (once per test binary).
func load(t testing.TB, path string) *trace.Trace {
	t.Helper()
	if v, ok := traceCache.Load(path); ok {
		return v.(*trace.Trace)
	}
	tr, err := parse.Open(path, parse.Options{NoExtras: true})
	if err != nil {
		t.Fatal(err)
	}
	traceCache.Store(path, tr)
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
