package chain

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawEv is an X event read straight from the JSON with encoding/json,
// independently of tracetab's parser: times are the decimal text of ts
// and dur turned into integer nanoseconds.
type rawEv struct {
	Idx       int
	Name, Cat string
	Pid, Tid  string
	Ts, Dur   int64
	Corr      int64
	HasCorr   bool
	ExtID     int64
	HasExt    bool
}

func (e rawEv) End() int64 { return e.Ts + e.Dur }

func (e rawEv) thread() string { return e.Pid + "/" + e.Tid }

func intArg(text string) (int64, bool) {
	i, err := strconv.ParseInt(text, 10, 64)
	return i, err == nil
}

// readRaw reads the X events of a trace file (decoded by rawjson).
func readRaw(t *testing.T, path string) []rawEv {
	t.Helper()
	var out []rawEv
	for _, m := range rawjson.MustRead(t, path) {
		if m.Ph != "X" {
			continue
		}
		e := rawEv{Idx: len(out), Name: m.Name, Cat: m.Cat, Pid: m.Pid, Tid: m.Tid, Ts: m.Ts, Dur: m.Dur}
		e.Corr, e.HasCorr = intArg(m.Corr)
		e.ExtID, e.HasExt = intArg(m.ExtID)
		out = append(out, e)
	}
	return out
}

func rawIsDevice(cat string) bool {
	switch strings.ToLower(cat) {
	case "kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset":
		return true
	}
	return false
}

func rawIsLaunchCat(cat string) bool {
	return cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "runtime"
}

func rawIsCPU(cat string) bool {
	switch cat {
	case "cpu_op", "Operator", "user_annotation", "python_function", "cuda_runtime", "cuda_driver", "Runtime", "runtime", "overhead":
		return true
	}
	return false
}

// rawAncestors lists the events on e's thread that contain e, innermost
// first (ties in file order: the later of two equal spans is inside).
func rawAncestors(evs []rawEv, e rawEv) []rawEv {
	var out []rawEv
	for _, c := range evs {
		if c.Idx == e.Idx || c.thread() != e.thread() || !rawIsCPU(c.Cat) {
			continue
		}
		if c.Ts <= e.Ts && e.End() <= c.End() && (c.Ts != e.Ts || c.End() != e.End() || c.Idx < e.Idx) {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Ts != b.Ts {
			return a.Ts > b.Ts
		}
		if a.End() != b.End() {
			return a.End() < b.End()
		}
		return a.Idx > b.Idx
	})
	return out
}

func shared(t *testing.T, name string) string {
	return filepath.Join(testenv.Shared(t), "traces", name)
}

func openTrace(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, _, err := testcache.Open(path, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
