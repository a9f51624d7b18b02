package sequences

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/rawjson"
)

// The test's own reading of a trace, apart from the parser and the links:
// encoding/json, exact decimal ns, categories listed here.
var (
	rawLaunchCats = map[string]bool{"cuda_runtime": true, "cuda_driver": true, "Runtime": true, "runtime": true}
	rawDeviceCats = map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true}
	rawOpCats     = map[string]bool{"cpu_op": true, "Operator": true, "operator": true}
	rawRootCats   = map[string]bool{"cpu_op": true, "Operator": true, "operator": true, "user_annotation": true, "python_function": true}
)

type rawEv struct {
	idx        int
	cat, name  string
	thread     string // pid/tid as written
	tid        string
	start, dur int64
	corr       string
}

func (e *rawEv) end() int64 { return e.start + e.dur }

// contains is the trace's nesting: b lies in a (half-open).
func (a *rawEv) contains(b *rawEv) bool {
	return a.start <= b.start && b.start < a.end() && b.end() <= a.end()
}

// rawSeq is one sequence by the raw reading.
type rawSeq struct {
	count, device, host int64
}

// rawEvents is the X events of a trace's JSON text (decoded by rawjson).
func rawEvents(t *testing.T, data []byte) []rawEv {
	t.Helper()
	evs, err := rawjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return rawXs(evs)
}

// rawFile is the X events of a trace file (decoded once per test binary).
func rawFile(t *testing.T, path string) []rawEv {
	t.Helper()
	return rawXs(rawjson.MustRead(t, path))
}

func rawXs(evs []rawjson.Event) []rawEv {
	var out []rawEv
	for _, e := range evs {
		if e.Ph != "X" {
			continue
		}
		out = append(out, rawEv{idx: e.Index, cat: e.Cat, name: e.Name, thread: e.Pid + "/" + e.Tid, tid: e.Tid,
			start: e.Ts, dur: max(e.Dur, 0), corr: e.Corr})
	}
	return out
}

// rawSequences computes the sequences of every root occurrence, keyed by
// root name, stream number (from the tid as written) and device op names.
// root(call) names the root event of a launch call, or -1. It also
// returns the device ops and their time.
func rawSequences(evs []rawEv, minLen int, root func(call int) int) (map[string]rawSeq, int, int64) {
	calls := map[string]int{} // correlation -> first launch call
	for i := range evs {
		if rawLaunchCats[evs[i].cat] && evs[i].corr != "" {
			if _, ok := calls[evs[i].corr]; !ok {
				calls[evs[i].corr] = i
			}
		}
	}
	type run struct {
		root   int
		thread string
	}
	runs := map[run][]int{}
	n, ns := 0, int64(0)
	for i := range evs {
		e := &evs[i]
		if !rawDeviceCats[e.cat] {
			continue
		}
		n++
		ns += e.dur
		c, ok := calls[e.corr]
		if e.corr == "" || !ok {
			continue
		}
		if r := root(c); r >= 0 {
			k := run{r, e.thread}
			runs[k] = append(runs[k], i)
		}
	}
	out := map[string]rawSeq{}
	for k, ops := range runs {
		if len(ops) < minLen {
			continue
		}
		slices.SortFunc(ops, func(a, b int) int {
			if c := cmp.Compare(evs[a].start, evs[b].start); c != 0 {
				return c
			}
			if c := cmp.Compare(evs[b].dur, evs[a].dur); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		var names []string
		var dev int64
		for _, d := range ops {
			names = append(names, evs[d].name)
			dev += evs[d].dur
		}
		key := seqKey(evs[k.root].name, streamOf(evs[ops[0]].tid), names)
		s := out[key]
		s.count++
		s.device += dev
		s.host += evs[k.root].dur
		out[key] = s
	}
	return out, n, ns
}

// streamOf is the stream number of a GPU tid as written: 7 or "stream 7".
func streamOf(tid string) int64 {
	s := strings.TrimSpace(strings.TrimPrefix(tid, "stream"))
	if i := strings.IndexAny(s, " ("); i > 0 {
		s = s[:i]
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func seqKey(op string, stream int64, names []string) string {
	return op + " | stream " + strconv.FormatInt(stream, 10) + " | " + strings.Join(names, " > ")
}

// byThread lists the events of the given categories per thread, sorted by
// start, the longer first, then file order (the outer one first).
func byThread(evs []rawEv, cats map[string]bool) map[string][]int {
	out := map[string][]int{}
	for i := range evs {
		if cats[evs[i].cat] {
			out[evs[i].thread] = append(out[evs[i].thread], i)
		}
	}
	for _, s := range out {
		slices.SortFunc(s, func(a, b int) int {
			if c := cmp.Compare(evs[a].start, evs[b].start); c != 0 {
				return c
			}
			if c := cmp.Compare(evs[b].dur, evs[a].dur); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
	}
	return out
}

// topLevelRoot is the default rule read from the raw events: the
// outermost cpu_op on the call's thread that contains the call. The
// top-level ops of a thread are those no earlier top-level op contains.
func topLevelRoot(evs []rawEv) func(int) int {
	tops := map[string][]int{}
	for th, ops := range byThread(evs, rawOpCats) {
		var top []int
		for _, o := range ops {
			if len(top) > 0 && evs[top[len(top)-1]].contains(&evs[o]) {
				continue
			}
			top = append(top, o)
		}
		tops[th] = top
	}
	return func(c int) int {
		call := &evs[c]
		top := tops[call.thread]
		// the last top-level op starting at or before the call, and the
		// ones before it that still contain it
		i, _ := slices.BinarySearchFunc(top, call.start, func(o int, s int64) int {
			if evs[o].start <= s {
				return -1
			}
			return 1
		})
		best := -1
		for j := i - 1; j >= 0; j-- {
			o := &evs[top[j]]
			if o.contains(call) {
				best = top[j]
			}
			if o.end() <= call.start && best >= 0 {
				break
			}
			if i-j > 64 {
				break
			}
		}
		return best
	}
}

// nameRoot is the --op rule read from the raw events: among the cpu_ops,
// annotations and Python frames whose name contains op, those at the
// shallowest depth (the number of events of the thread that contain
// them); the root of a call is the one of them that contains it.
func nameRoot(evs []rawEv, op string) func(int) int {
	threads := map[string][]int{}
	for i := range evs {
		if !rawDeviceCats[evs[i].cat] && evs[i].tid != "" {
			threads[evs[i].thread] = append(threads[evs[i].thread], i)
		}
	}
	depth := map[int]int{}
	minDepth := -1
	for _, all := range threads {
		for _, i := range all {
			if !rawRootCats[evs[i].cat] || !strings.Contains(evs[i].name, op) {
				continue
			}
			d := 0
			for _, j := range all {
				if j != i && evs[j].contains(&evs[i]) && !(evs[i].contains(&evs[j]) && j > i) {
					d++
				}
			}
			depth[i] = d
			if minDepth < 0 || d < minDepth {
				minDepth = d
			}
		}
	}
	return func(c int) int {
		for i, d := range depth {
			if d == minDepth && evs[i].thread == evs[c].thread && evs[i].contains(&evs[c]) {
				return i
			}
		}
		return -1
	}
}
