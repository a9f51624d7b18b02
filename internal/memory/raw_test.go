package memory

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"io"
	"math/big"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// The independent side of the checks on real traces: events read straight
// from the JSON by rawjson (encoding/json, exact decimal times; a time
// finer than a nanosecond fails), args by math/big, nothing from
// tracetab's reader or model.

type rawX struct {
	Cat, Name string
	Thread    string // pid and tid as text
	Ts, End   int64  // ns
	Class     int8   // classOp, classAnnotation (not a ProfilerStep#N), classPython, or 0
}

const (
	classOp = 1 + iota
	classAnnotation
	classPython
)

func classOf(cat, name string) int8 {
	switch {
	case cat == "cpu_op" || cat == "Operator" || cat == "operator":
		return classOp
	case cat == "user_annotation" && !strings.HasPrefix(name, "ProfilerStep#"):
		return classAnnotation
	case cat == "python_function":
		return classPython
	}
	return 0
}

type rawMem struct {
	Thread            string
	Ts                int64
	Dev               [2]int64 // Device Type, Device Id
	Bytes             int64
	Total, Resv, Addr int64
	HasTotal, HasResv bool
	HasAddr           bool
	Idx               int // file order among the records
}

type rawTrace struct {
	X      []rawX
	Mem    []rawMem
	Origin int64 // the Trace span's start, else the earliest X start
	ByThr  map[string][]int
	mu     sync.Mutex
	ops    map[[2]any]string // rawOp's answers
}

func decInt(raw json.RawMessage) (int64, bool) {
	s := strings.Trim(string(raw), `"`)
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

func rawID(raw json.RawMessage) string { return strings.Trim(string(raw), `"`) }

var rawCache sync.Map

func readRaw(t testing.TB, path string) *rawTrace {
	t.Helper()
	if v, ok := rawCache.Load(path); ok {
		return v.(*rawTrace)
	}
	r := readRawFile(t, path)
	rawCache.Store(path, r)
	return r
}

func readRawFile(t testing.TB, path string) *rawTrace {
	rt := &rawTrace{ByThr: map[string][]int{}}
	hasSpan, first := false, true
	for _, e := range rawjson.MustReadArgs(t, path) {
		if e.SubNs {
			t.Fatalf("%s: event %d: a time finer than a nanosecond", path, e.Index)
		}
		thr := e.Pid + "/" + e.Tid
		switch {
		case e.Ph == "X" && e.HasTs:
			ts, dur := e.Ts, e.Dur
			if e.Cat == "Trace" {
				rt.Origin, hasSpan = ts, true
			} else if !hasSpan && (first || ts < rt.Origin) {
				rt.Origin, first = ts, false
			}
			rt.ByThr[thr] = append(rt.ByThr[thr], len(rt.X))
			rt.X = append(rt.X, rawX{Cat: e.Cat, Name: e.Name, Thread: thr, Ts: ts, End: ts + dur, Class: classOf(e.Cat, e.Name)})
		case (e.Ph == "i" || e.Ph == "I") && e.Name == "[memory]":
			arg := func(k string) json.RawMessage { v, _ := e.Arg(k); return v }
			m := rawMem{Thread: thr, Ts: e.Ts, Idx: len(rt.Mem)}
			m.Dev = [2]int64{-1, -1}
			if v, ok := decInt(arg("Device Type")); ok {
				m.Dev[0] = v
			}
			if v, ok := decInt(arg("Device Id")); ok {
				m.Dev[1] = v
			}
			m.Bytes, _ = decInt(arg("Bytes"))
			m.Total, m.HasTotal = decInt(arg("Total Allocated"))
			m.Resv, m.HasResv = decInt(arg("Total Reserved"))
			m.Addr, m.HasAddr = decInt(arg("Addr"))
			rt.Mem = append(rt.Mem, m)
		}
	}
	return rt
}

// innermost is the name of the innermost X event of a class on thread
// thr whose [start, end) holds ts: the latest start, then the shortest;
// "" when none.
func (rt *rawTrace) innermost(thr string, ts int64, class int8) string {
	best := -1
	for _, i := range rt.ByThr[thr] {
		e := &rt.X[i]
		if e.Class != class || !(e.Ts <= ts && ts < e.End) {
			continue
		}
		if best < 0 || e.Ts > rt.X[best].Ts || e.Ts == rt.X[best].Ts && e.End < rt.X[best].End {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return rt.X[best].Name
}

// rawOp is the allocating op as the checks name it.
func (rt *rawTrace) rawOp(thr string, ts int64) string {
	k := [2]any{thr, ts}
	rt.mu.Lock()
	op, ok := rt.ops[k]
	rt.mu.Unlock()
	if ok {
		return op
	}
	if op = rt.innermost(thr, ts, classOp); op == "" {
		op = NoOp
	}
	rt.mu.Lock()
	if rt.ops == nil {
		rt.ops = map[[2]any]string{}
	}
	rt.ops[k] = op
	rt.mu.Unlock()
	return op
}

// byDevice returns each device's records in time order (file order among
// equal times).
func (rt *rawTrace) byDevice() map[[2]int64][]rawMem {
	out := map[[2]int64][]rawMem{}
	for _, m := range rt.Mem {
		out[m.Dev] = append(out[m.Dev], m)
	}
	for k := range out {
		slices.SortStableFunc(out[k], func(a, b rawMem) int { return cmp.Compare(a.Ts, b.Ts) })
	}
	return out
}

// sharedTraces lists every trace of ../shared/traces.
func sharedTraces(t *testing.T) []string { return testenv.SharedTraces(t) }

var parsed sync.Map // path -> *trace.Trace: each shared trace is read once per test binary

type parsedOnce struct {
	once sync.Once
	t    *trace.Trace
	err  error
}

func load(t *testing.T, path string) *trace.Trace {
	t.Helper()
	v, _ := parsed.LoadOrStore(path, &parsedOnce{})
	p := v.(*parsedOnce)
	p.once.Do(func() { p.t, p.err = parse.Open(path, parse.Options{}) })
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.t
}

// hasMemory reports whether the file's JSON holds a "[memory]" name at all.
func hasMemory(t testing.TB, path string) bool {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		in = zr
	}
	data, err := io.ReadAll(in)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(data, []byte(`"[memory]"`))
}
