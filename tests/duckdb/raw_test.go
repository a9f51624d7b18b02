package duckdb_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	jsoniter "github.com/json-iterator/go"
)

// rawEvent is an element of traceEvents as the JSON holds it, read with
// encoding/json: the truth the tests hold tracetab's figures to.
type rawEvent struct {
	Ph   string          `json:"ph"`
	Cat  string          `json:"cat"`
	Name string          `json:"name"`
	Pid  json.RawMessage `json:"pid"`
	Tid  json.RawMessage `json:"tid"`
	Ts   json.RawMessage `json:"ts"`
	Dur  json.RawMessage `json:"dur"`
	Args struct {
		Bytes json.RawMessage `json:"Bytes"`
	} `json:"args"`
}

var rawCache sync.Map // path -> []rawEvent (nil: not strict JSON)

// rawEvents reads the trace's events, or nil when encoding/json refuses
// the file (traces with raw control characters or bare words).
func rawEvents(t testing.TB, path string) []rawEvent {
	t.Helper()
	if v, ok := rawCache.Load(path); ok {
		return v.([]rawEvent)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var evs []rawEvent
	var obj struct {
		TraceEvents []rawEvent `json:"traceEvents"`
	}
	// json-iterator in encoding/json's strict mode: another parser than
	// tracetab's own, and fast enough for the shared traces
	dec := jsoniter.ConfigCompatibleWithStandardLibrary
	switch {
	case len(b) > 0 && b[0] == '[':
		err = dec.Unmarshal(b, &evs)
	default:
		err = dec.Unmarshal(b, &obj)
		evs = obj.TraceEvents
	}
	if err != nil {
		t.Logf("%s: not strict JSON (%v): no raw check", path, err)
		evs = nil
	}
	rawCache.Store(path, evs)
	return evs
}

// decNs reads a decimal count of microseconds ("12.345", "12", "\"12\"")
// as integer ns with string arithmetic.
func decNs(raw json.RawMessage) (int64, bool) {
	s := strings.Trim(string(raw), `"`)
	if s == "" || strings.ContainsAny(s, "eE") {
		return 0, false
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	frac = (frac + "000")[:3]
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	ns := w*1000 + f
	if neg {
		ns = -ns
	}
	return ns, true
}

// deviceWorkCats are the categories of kernels, memcpys and memsets in
// every era.
var deviceWorkCats = map[string]string{
	"kernel": "kernel", "Kernel": "kernel", "xpu_kernel": "kernel", "mtia_ccp_events": "kernel",
	"gpu_memcpy": "gpu_memcpy", "Memcpy": "gpu_memcpy", "xpu_memcpy": "gpu_memcpy",
	"gpu_memset": "gpu_memset", "Memset": "gpu_memset", "xpu_memset": "gpu_memset",
}
