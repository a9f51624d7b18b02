package gaps

import (
	"cmp"
	"compress/gzip"
	"encoding/json"
	"github.com/tracetab/tracetab/internal/rawjson"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// rawEvent is an X event read straight from the JSON with encoding/json,
// its times converted from their decimal text with math/big: the
// independent side of the checks on real traces.
type rawEvent struct {
	Cat, Name string
	Pid, Tid  string // as written
	Ts, End   int64  // ns
	Corr      int64
	HasCorr   bool
	Idx       int
}

func decNs(t *testing.T, v any) int64 {
	ns, err := rawjson.Ns(v)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

var rawCache sync.Map // path -> []rawEvent: several tests read the same traces

func readRaw(t *testing.T, path string) []rawEvent {
	t.Helper()
	if v, ok := rawCache.Load(path); ok {
		return v.([]rawEvent)
	}
	evs := readRawFile(t, path)
	rawCache.Store(path, evs)
	return evs
}

func readRawFile(t *testing.T, path string) []rawEvent {
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
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		t.Fatal(err)
	}
	var evs []any
	switch x := top.(type) {
	case []any:
		evs = x
	case map[string]any:
		evs, _ = x["traceEvents"].([]any)
	}
	var out []rawEvent
	for k, v := range evs {
		m, _ := v.(map[string]any)
		if m == nil || m["ph"] != "X" {
			continue
		}
		e := rawEvent{Idx: k, Pid: rawjson.ID(m["pid"]), Tid: rawjson.ID(m["tid"])}
		e.Cat, _ = m["cat"].(string)
		e.Name, _ = m["name"].(string)
		e.Ts = decNs(t, m["ts"])
		e.End = e.Ts + decNs(t, m["dur"])
		if a, ok := m["args"].(map[string]any); ok {
			if c, ok := a["correlation"].(json.Number); ok {
				e.Corr, _ = c.Int64()
				e.HasCorr = true
			}
		}
		out = append(out, e)
	}
	return out
}

func rawIsDeviceWork(cat string) bool {
	switch cat {
	case "kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset":
		return true
	}
	return false
}

func rawIsLaunch(cat string) bool {
	switch cat {
	case "cuda_runtime", "Runtime", "runtime", "cuda_driver":
		return true
	}
	return false
}

// rawStreams groups device work by (pid, tid) as written, sorted by start
// then file order, with each op's launch call (by correlation; the first
// call with that id).
type rawOp struct {
	rawEvent
	launch *rawEvent
}

func rawStreams(evs []rawEvent) map[[2]string][]rawOp {
	calls := map[int64]*rawEvent{}
	for k := range evs {
		e := &evs[k]
		if rawIsLaunch(e.Cat) && e.HasCorr {
			if _, dup := calls[e.Corr]; !dup {
				calls[e.Corr] = e
			}
		}
	}
	out := map[[2]string][]rawOp{}
	for _, e := range evs {
		if !rawIsDeviceWork(e.Cat) {
			continue
		}
		o := rawOp{rawEvent: e}
		if e.HasCorr {
			o.launch = calls[e.Corr]
		}
		key := [2]string{e.Pid, e.Tid}
		out[key] = append(out[key], o)
	}
	for _, ops := range out {
		slices.SortStableFunc(ops, func(a, b rawOp) int {
			if c := cmp.Compare(a.Ts, b.Ts); c != 0 {
				return c
			}
			return cmp.Compare(a.Idx, b.Idx)
		})
	}
	return out
}
