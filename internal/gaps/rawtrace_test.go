package gaps

import (
	"cmp"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/rawjson"
)

// rawEvent is an X event as the JSON writes it (read by rawjson, apart
// from tracetab's parser): the independent side of the checks on real
// traces.
type rawEvent struct {
	Cat, Name string
	Pid, Tid  string // as written
	Ts, End   int64  // ns
	Corr      int64
	HasCorr   bool
	Idx       int
}

var rawCache sync.Map // path -> []rawEvent: several tests read the same traces

// readRaw is the trace's X events (decoded by rawjson), Idx their place
// in traceEvents.
func readRaw(t *testing.T, path string) []rawEvent {
	t.Helper()
	if v, ok := rawCache.Load(path); ok {
		return v.([]rawEvent)
	}
	var out []rawEvent
	for _, m := range rawjson.MustRead(t, path) {
		if m.Ph != "X" {
			continue
		}
		e := rawEvent{Idx: m.Index, Cat: m.Cat, Name: m.Name, Pid: m.Pid, Tid: m.Tid, Ts: m.Ts, End: m.Ts + m.Dur}
		if c, err := strconv.ParseInt(m.Corr, 10, 64); err == nil {
			e.Corr, e.HasCorr = c, true
		}
		out = append(out, e)
	}
	rawCache.Store(path, out)
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
