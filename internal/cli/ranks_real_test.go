package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testenv"
)

// rawRank is what the truth of the ranks tests reads from a raw trace with
// encoding/json and integer arithmetic only.
type rawRank struct {
	rank, world int64
	base        int64
	origin      int64      // base + the ts of the Trace span (else the earliest event)
	device      string     // deviceProperties[0].name
	steps       [][3]int64 // N, start, end
	kernels     []rawKernel
	compute     [][2]int64 // device work that is not communication
	comp        [][2]int64 // kernels that are not communication (HTA's compute kernels)
	comm        [][2]int64
	win         [][2]int64 // each step, extended to the end of the device work launched in it
	sizedOps    int        // CPU ops with "In msg nelems" or "Out msg nelems"
	sizedUsed   int        // of those, the ones whose interval holds a communication kernel's launch call
}

type rawKernel struct {
	name       string
	start, dur int64 // start absolute (base + ts)
	launch     int64 // the launch call's start, absolute; -1 when it is not in the trace
	step       int64
	comm       bool
	size       rawSize
}

// rawSize is a collective's size as the raw args write it.
type rawSize struct {
	coll, dtype  string
	in, out, grp int64
	known        bool
}

func rawSizeOf(e *rawEvent) rawSize {
	z := rawSize{in: -1, out: -1, grp: -1}
	num := func(k string) int64 {
		if v, ok := numArg(e, k); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
		return -1
	}
	z.coll, z.dtype = strArg(e, "Collective name"), strArg(e, "dtype")
	z.in, z.out, z.grp = num("In msg nelems"), num("Out msg nelems"), num("Group size")
	z.known = z.in >= 0 || z.out >= 0
	return z
}

// rawComm is the definition of a communication kernel, written out again.
var rawComm = regexp.MustCompile(`(?i)nccl|rccl|allreduce|all_reduce|allgather|reducescatter|cross_device_reduce`)

// rawNs converts a JSON number (or string) of microseconds
// ("1694128201429795", "12.345") to integer ns, exactly (rawjson).
func rawNs(t *testing.T, v any) int64 {
	t.Helper()
	switch v.(type) {
	case json.Number, string:
	default:
		t.Fatalf("not a number: %v", v)
	}
	n, err := rawjson.Ns(v)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var rawRanks struct {
	sync.Mutex
	m map[string]rawRank
}

// readRawRank reads path; a shared trace once per test binary (generated
// files may be rewritten between reads).
func readRawRank(t *testing.T, path string) rawRank {
	t.Helper()
	if dir, ok := testenv.SharedDir(); !ok || !strings.HasPrefix(filepath.Clean(path), filepath.Clean(dir)) {
		return readRawRankOnce(t, path)
	}
	rawRanks.Lock()
	defer rawRanks.Unlock()
	if r, ok := rawRanks.m[path]; ok {
		return r
	}
	r := readRawRankOnce(t, path)
	if rawRanks.m == nil {
		rawRanks.m = map[string]rawRank{}
	}
	rawRanks.m[path] = r
	return r
}

// rankTop is what the truth reads of a trace besides its events.
type rankTop struct {
	DistributedInfo map[string]any   `json:"distributedInfo"`
	Base            json.Number      `json:"baseTimeNanoseconds"`
	Devices         []map[string]any `json:"deviceProperties"`
}

// readRankTop decodes the trace's top-level fields (a bare array has none).
func readRankTop(t *testing.T, path string) rankTop {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = gz
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc rankTop
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return doc
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// numArg is args[k] when written as a JSON number: its text.
func numArg(e *rawEvent, k string) (string, bool) {
	v, ok := e.Arg(k)
	if !ok || len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return "", false
	}
	return string(v), true
}

// strArg is args[k] when written as a JSON string.
func strArg(e *rawEvent, k string) string {
	if v, ok := e.Arg(k); ok && len(v) > 0 && v[0] == '"' {
		return e.ArgText(k)
	}
	return ""
}

func readRawRankOnce(t *testing.T, path string) rawRank {
	t.Helper()
	doc := readRankTop(t, path)
	out := rawRank{rank: -1, world: -1}
	if d := doc.DistributedInfo; d != nil {
		if v, ok := d["rank"].(json.Number); ok {
			out.rank, _ = v.Int64()
		}
		if v, ok := d["world_size"].(json.Number); ok {
			out.world, _ = v.Int64()
		}
	}
	base, _ := doc.Base.Int64()
	out.base = base
	if len(doc.Devices) > 0 {
		out.device, _ = doc.Devices[0]["name"].(string)
	}
	type call struct {
		ts  int64
		tid string
	}
	launch := map[string]call{} // correlation -> launch call
	type pending struct {
		k    rawKernel
		corr string
	}
	type sized struct {
		start, end int64
		size       rawSize
		used       bool
	}
	ops := map[string][]*sized{} // tid -> sized CPU ops
	var ks []pending
	first, span := int64(math.MaxInt64), int64(-1)
	evs := readRaw(t, path)
	for k := range evs {
		e := &evs[k]
		if e.Ph != "X" {
			continue
		}
		name, cat := e.Name, e.Cat
		if !e.HasTs {
			t.Fatalf("%s: event %d: ts not a number", path, e.Index)
		}
		ts, dur := e.Ts, e.Dur
		first = min(first, ts)
		tid := e.Tid
		switch cat {
		case "Trace":
			if span < 0 {
				span = ts
			}
		case "user_annotation", "cpu_op":
			if n, ok := strings.CutPrefix(name, "ProfilerStep#"); ok {
				v, _ := strconv.ParseInt(n, 10, 64)
				out.steps = append(out.steps, [3]int64{v, ts, ts + dur})
			}
			if z := rawSizeOf(e); cat == "cpu_op" && z.known {
				ops[tid] = append(ops[tid], &sized{ts, ts + dur, z, false})
				out.sizedOps++
			}
		case "cuda_runtime", "cuda_driver":
			if c, ok := numArg(e, "correlation"); ok {
				if _, seen := launch[c]; !seen {
					launch[c] = call{ts, tid}
				}
			}
		case "kernel", "gpu_memcpy", "gpu_memset":
			c, _ := numArg(e, "correlation")
			ks = append(ks, pending{rawKernel{name: name, start: base + ts, dur: dur, step: -1, launch: -1, size: rawSizeOf(e)}, c})
			ks[len(ks)-1].k.comm = cat == "kernel" && rawComm.MatchString(name)
			if cat == "kernel" && !ks[len(ks)-1].k.comm {
				out.comp = append(out.comp, [2]int64{ts, ts + dur})
			}
		}
	}
	out.origin = base + first
	if span >= 0 {
		out.origin = base + span
	}
	// a communication kernel's launch call and, when the kernel records no
	// size, the innermost sized op around that call on its thread
	for i := range ks {
		p := &ks[i]
		l, ok := launch[p.corr]
		if !ok || p.corr == "" || !p.k.comm {
			continue
		}
		p.k.launch = base + l.ts
		var in *sized
		for _, o := range ops[l.tid] {
			if o.start <= l.ts && l.ts < o.end && (in == nil || o.start >= in.start) {
				in = o
			}
		}
		if in != nil {
			in.used = true
			if !p.k.size.known {
				p.k.size = in.size
			}
		}
	}
	for _, l := range ops {
		for _, o := range l {
			if o.used {
				out.sizedUsed++
			}
		}
	}
	// a device op belongs to the step its launch call ran in (its own
	// start when the call is not in the trace); each step's window runs to
	// the end of the device work launched in it
	for _, s := range out.steps {
		out.win = append(out.win, [2]int64{s[1], s[2]})
	}
	for _, p := range ks {
		at := p.k.start - base
		if l, ok := launch[p.corr]; ok && p.corr != "" {
			at = l.ts
		}
		for j, s := range out.steps {
			if s[1] <= at && at < s[2] {
				p.k.step = s[0]
				out.win[j][1] = max(out.win[j][1], p.k.start-base+p.k.dur)
			}
		}
		iv := [2]int64{p.k.start - base, p.k.start - base + p.k.dur}
		if p.k.comm {
			out.comm = append(out.comm, iv)
			out.kernels = append(out.kernels, p.k)
		} else {
			out.compute = append(out.compute, iv)
		}
	}
	sort.SliceStable(out.kernels, func(i, j int) bool { return out.kernels[i].start < out.kernels[j].start })
	return out
}

// rawUnion merges intervals.
func rawUnion(ivs [][2]int64) [][2]int64 {
	s := append([][2]int64(nil), ivs...)
	sort.Slice(s, func(i, j int) bool { return s[i][0] < s[j][0] })
	var out [][2]int64
	for _, x := range s {
		if x[1] <= x[0] {
			continue
		}
		if n := len(out); n > 0 && x[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], x[1])
		} else {
			out = append(out, x)
		}
	}
	return out
}

// rawInside is the length of the union of ivs inside the union of win.
func rawInside(ivs, win [][2]int64) int64 {
	var n int64
	for _, a := range rawUnion(ivs) {
		for _, b := range rawUnion(win) {
			if lo, hi := max(a[0], b[0]), min(a[1], b[1]); hi > lo {
				n += hi - lo
			}
		}
	}
	return n
}

type rawWaits struct {
	wait, caused     []int64
	last, tied, coll []int
	matched          int
	endDiff          [][]int64 // per rank: |end - end on the first rank|
}

// rawMatch matches the k-th communication kernel of each name in each step
// the ranks share and charges the waits to the shortest kernel.
func rawMatch(rs []rawRank) rawWaits {
	n := len(rs)
	w := rawWaits{wait: make([]int64, n), caused: make([]int64, n), last: make([]int, n), tied: make([]int, n), coll: make([]int, n), endDiff: make([][]int64, n)}
	type key struct {
		step int64
		name string
	}
	groups := make([]map[key][]rawKernel, n)
	for i, r := range rs {
		groups[i] = map[key][]rawKernel{}
		for _, k := range r.kernels {
			groups[i][key{k.step, k.name}] = append(groups[i][key{k.step, k.name}], k)
		}
	}
	for k, g0 := range groups[0] {
		ok := true
		for i := 1; i < n; i++ {
			ok = ok && len(groups[i][k]) == len(g0)
		}
		if !ok {
			continue
		}
		for j := range g0 {
			lo := g0[j].dur
			for i := 1; i < n; i++ {
				lo = min(lo, groups[i][k][j].dur)
			}
			var total int64
			var tied []int
			for i := 0; i < n; i++ {
				x := groups[i][k][j]
				w.coll[i]++
				w.wait[i] += x.dur - lo
				total += x.dur - lo
				if x.dur == lo {
					tied = append(tied, i)
				}
				d := x.start + x.dur - g0[j].start - g0[j].dur
				w.endDiff[i] = append(w.endDiff[i], max(d, -d))
			}
			w.matched++
			if len(tied) == 1 {
				w.last[tied[0]]++
				w.caused[tied[0]] += total
				continue
			}
			for q, i := range tied {
				w.tied[i]++
				w.caused[i] += total / int64(len(tied))
				if int64(q) < total%int64(len(tied)) {
					w.caused[i]++
				}
			}
		}
	}
	return w
}

// rawMedian is the middle value, the mean of the middle two for an even
// count (an odd half ns rounded up).
func rawMedian(d []int64) int64 {
	s := append([]int64(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1] + (s[n/2]-s[n/2-1]+1)/2
}

type ranksDoc struct {
	Schema      string  `json:"schema"`
	ClockSkewNs *int64  `json:"clock_skew_ns"`
	NoVerdict   *string `json:"no_verdict_reason"`
	Matching    *struct {
		Collectives int `json:"collectives"`
	} `json:"matching"`
	Ranks []struct {
		Rank         int64   `json:"rank"`
		WorldSize    *int64  `json:"world_size"`
		Steps        []int64 `json:"steps"`
		MedianStepNs *int64  `json:"median_step_ns"`
		GPU          bool    `json:"gpu"`
		Window       *string `json:"window"`
		ComputeNs    *int64  `json:"compute_ns"`
		CommNs       *int64  `json:"communication_ns"`
		ExposedNs    *int64  `json:"exposed_communication_ns"`
		IdleNs       *int64  `json:"idle_ns"`
		CommKernels  int     `json:"communication_kernels"`
		Collectives  int     `json:"collectives"`
		WaitNs       *int64  `json:"collective_wait_ns"`
		CausedWaitNs *int64  `json:"caused_wait_ns"`
		Last         *int    `json:"last_arrivals"`
		Tied         *int    `json:"tied_last_arrivals"`
		EndSkewNs    *int64  `json:"end_skew_ns"`
	} `json:"ranks"`
	Verdict *struct {
		Class        string  `json:"class"`
		Rank         int64   `json:"rank"`
		Last         int     `json:"last_arrivals"`
		CausedWaitNs int64   `json:"caused_wait_ns"`
		SkewPct      float64 `json:"skew_pct"`
		Text         string  `json:"text"`
	} `json:"verdict"`
}

func ranksJSONOf(t *testing.T, args ...string) (ranksDoc, string) {
	t.Helper()
	out, stderr, code := run(t, append([]string{"ranks", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("ranks %v: exit %d: %s", args, code, stderr)
	}
	var d ranksDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d, stderr
}

// checkRankFigures asserts the per-rank device figures against the raw
// trace: over the union of the steps, compute and communication are
// unions, exposed is their union minus compute, idle the rest.
func checkRankFigures(t *testing.T, r rawRank, got int, d ranksDoc) {
	t.Helper()
	g := d.Ranks[got]
	if g.Rank != r.rank || len(g.Steps) != len(r.steps) || g.CommKernels != len(r.kernels) {
		t.Errorf("rank %d: rank %d, %d steps, %d comm kernels; the raw trace: %d, %d, %d", got, g.Rank, len(g.Steps), g.CommKernels, r.rank, len(r.steps), len(r.kernels))
	}
	all := append(append([][2]int64(nil), r.compute...), r.comm...)
	if len(all) == 0 {
		if g.GPU || g.ComputeNs != nil {
			t.Errorf("rank %d: device figures on a trace without device work", g.Rank)
		}
		return
	}
	win := r.win
	if len(win) == 0 {
		u := rawUnion(all)
		win = [][2]int64{{u[0][0], u[len(u)-1][1]}}
	}
	var winNs int64
	for _, x := range rawUnion(win) {
		winNs += x[1] - x[0]
	}
	compute, comm, busy := rawInside(r.compute, win), rawInside(r.comm, win), rawInside(all, win)
	if *g.ComputeNs != compute || *g.CommNs != comm || *g.ExposedNs != busy-compute || *g.IdleNs != winNs-busy {
		t.Errorf("rank %d: compute %d comm %d exposed %d idle %d; raw %d %d %d %d", g.Rank, *g.ComputeNs, *g.CommNs, *g.ExposedNs, *g.IdleNs,
			compute, comm, busy-compute, winNs-busy)
	}
	if len(r.steps) > 0 {
		var durs []int64
		for _, s := range r.steps {
			durs = append(durs, s[2]-s[1])
		}
		if *g.MedianStepNs != rawMedian(durs) {
			t.Errorf("rank %d: median step %d, raw %d", g.Rank, *g.MedianStepNs, rawMedian(durs))
		}
	}
}

// TestRanksDLRM: the two DLRM ranks (V100, ranks 0 and 1 of 8): every
// figure, wait, caused wait, last arrival and the verdict equal a matching
// made from the raw JSON; the ends of matched collectives coincide (the
// clocks are comparable) and the arrival times agree with the verdict.
func TestRanksDLRM(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	files := []string{
		filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz"),
		filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz"),
	}
	rs := []rawRank{readRawRank(t, files[0]), readRawRank(t, files[1])}
	// the files are given in reverse: the output is in rank order
	d, stderr := ranksJSONOf(t, files[1], files[0])
	if d.Schema != "tracetab.ranks/2" || len(d.Ranks) != 2 {
		t.Fatalf("schema %q, %d ranks", d.Schema, len(d.Ranks))
	}
	for i, r := range rs {
		if r.rank != int64(i) {
			t.Fatalf("raw rank %d in file %d", r.rank, i)
		}
		checkRankFigures(t, r, i, d)
	}
	w := rawMatch(rs)
	if w.matched == 0 || d.Matching.Collectives != w.matched {
		t.Fatalf("matched %d, raw %d", d.Matching.Collectives, w.matched)
	}
	best := 0
	for i, g := range d.Ranks {
		if g.Collectives != w.coll[i] || *g.WaitNs != w.wait[i] || *g.CausedWaitNs != w.caused[i] || *g.Last != w.last[i] || *g.Tied != w.tied[i] {
			t.Errorf("rank %d: %d collectives, wait %d, caused %d, last %d, tied %d; raw %d %d %d %d %d", g.Rank, g.Collectives, *g.WaitNs,
				*g.CausedWaitNs, *g.Last, *g.Tied, w.coll[i], w.wait[i], w.caused[i], w.last[i], w.tied[i])
		}
		if *g.EndSkewNs != rawMedian(w.endDiff[i]) {
			t.Errorf("rank %d: end skew %d, raw %d", g.Rank, *g.EndSkewNs, rawMedian(w.endDiff[i]))
		}
		if w.caused[i] > w.caused[best] {
			best = i
		}
	}
	v := d.Verdict
	if v == nil || v.Rank != int64(best) || v.CausedWaitNs != w.caused[best] || v.Last != w.last[best] {
		t.Fatalf("verdict %+v; raw: rank %d caused %d", v, best, w.caused[best])
	}
	// with one other rank and one step, the skew is the caused wait over
	// the straggler's step
	if want := float64(w.caused[best]) * 100 / float64(rawMedian([]int64{rs[best].steps[0][2] - rs[best].steps[0][1]})); v.SkewPct < want-0.01 || v.SkewPct > want+0.01 {
		t.Errorf("skew %.2f%%, raw %.4f%%", v.SkewPct, want)
	}
	if v.Class != "straggler" || !strings.Contains(v.Text, "6 ranks not given may be slower") {
		t.Errorf("verdict text %q", v.Text)
	}
	// the clocks: the first SendRecv ends at the same instant on both ranks,
	// and every matched collective's ends differ by less than 1% of the
	// largest wait (the arrivals differ by ms, the ends by a few us)
	k0, k1 := rs[0].kernels[0], rs[1].kernels[0]
	if k0.name != k1.name || k0.start+k0.dur != k1.start+k1.dur {
		t.Errorf("first collective: %s ends %d, %s ends %d", k0.name, k0.start+k0.dur, k1.name, k1.start+k1.dur)
	}
	for _, x := range w.endDiff[1] {
		if x*100 >= w.caused[best] {
			t.Errorf("a matched collective's ends differ by %d ns: not one clock", x)
		}
	}
	if d.ClockSkewNs == nil || *d.ClockSkewNs != rawMedian(w.endDiff[1]) {
		t.Errorf("clock skew %v, raw median %d", d.ClockSkewNs, rawMedian(w.endDiff[1]))
	}
	t.Logf("end differences (ns): %v", w.endDiff[1])
	// cross-check on arrival times (never used to decide): in the
	// collective with the largest wait, the straggler started last
	var big [2]rawKernel
	for j := range rs[0].kernels {
		a, b := rs[0].kernels[j], rs[1].kernels[j]
		if x := a.dur - b.dur; max(x, -x) > max(big[0].dur-big[1].dur, big[1].dur-big[0].dur) {
			big = [2]rawKernel{a, b}
		}
	}
	if late := big[best]; late.start < big[1-best].start {
		t.Errorf("the straggler's kernel of the largest wait started at %d, before the other's %d", late.start, big[1-best].start)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("unexpected warning: %s", stderr)
	}
	text, _, _ := run(t, "ranks", files[0], files[1])
	if !strings.Contains(text, "verdict     "+v.Text) {
		t.Errorf("text verdict differs from JSON's:\n%s", text)
	}
	t.Logf("verdict: %s", v.Text)
}

// TestRanksSingleReal: single-rank inputs (GPU traces with NCCL kernels, a
// CPU-only trace): the per-rank row, the note, no verdict, exit 0; the
// counts and device figures equal the raw JSON's.
func TestRanksSingleReal(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	for _, c := range []struct {
		file, note string
	}{
		{"TraceLens__b200__eager_trace.json.gz", "no ProfilerStep#N"},
		{"HTA__negative_queue_length_values_check__rank0.json.gz", ""},
		{"HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", "no GPU lane"},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			r := readRawRank(t, path)
			d, stderr := ranksJSONOf(t, path)
			if d.Verdict != nil || d.NoVerdict == nil || *d.NoVerdict != "one rank: nothing to compare" || d.Matching != nil {
				t.Errorf("verdict %+v, reason %v", d.Verdict, d.NoVerdict)
			}
			if !strings.Contains(stderr, "one rank: nothing to compare") || !strings.Contains(stderr, c.note) {
				t.Errorf("stderr %q", stderr)
			}
			checkRankFigures(t, r, 0, d)
			if r.world > 0 && (d.Ranks[0].WorldSize == nil || *d.Ranks[0].WorldSize != r.world) {
				t.Errorf("world size %v, raw %d", d.Ranks[0].WorldSize, r.world)
			}
			if _, _, code := run(t, "ranks", "--fail-on-skew", "10", path); code != ExitCheck {
				t.Errorf("--fail-on-skew on one rank: exit %d, want 1 (n/a)", code)
			}
			if _, _, code := run(t, "ranks", "--fail-on-skew", "10", "--allow-missing", path); code != 0 {
				t.Errorf("--fail-on-skew --allow-missing on one rank: exit %d, want 0", code)
			}
		})
	}
}

// TestRanksRefusedReal: two real traces of different world sizes are not
// one job (exit 2, naming both); the same file twice is one rank twice.
func TestRanksRefusedReal(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	a, b := filepath.Join(dir, "HTA__trace_diff__control__control.json.gz"), filepath.Join(dir, "HTA__trace_diff__test__test.json.gz")
	if _, stderr, code := run(t, "ranks", a, b); code != ExitUsage || !strings.Contains(stderr, "world size 8") || !strings.Contains(stderr, "has 2") ||
		!strings.Contains(stderr, filepath.Base(a)) || !strings.Contains(stderr, filepath.Base(b)) {
		t.Errorf("different world sizes: exit %d %q", code, stderr)
	}
	if _, stderr, code := run(t, "ranks", a, a); code != ExitUsage || !strings.Contains(stderr, "are both rank 3") {
		t.Errorf("same rank twice: exit %d %q", code, stderr)
	}
}

// pgPair writes HTA's NCCL trace as a.json (rank 0) and a copy as b.json
// (rank 1, every communication kernel 1 ms longer, written back with
// encoding/json) into a new directory.
func pgPair(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testenv.Shared(t), "traces", "HTA__nccl_parser_config__nccl_data.json.gz")
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	gz, _ := gzip.NewReader(f)
	dec := json.NewDecoder(gz)
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f.Close()
	doc["distributedInfo"].(map[string]any)["rank"] = 1
	longer := 0
	for _, x := range doc["traceEvents"].([]any) {
		e := x.(map[string]any)
		if name, _ := e["name"].(string); e["cat"] == "kernel" && rawComm.MatchString(name) {
			d := rawNs(t, e["dur"]) + 1_000_000
			e["dur"] = json.Number(strconv.FormatInt(d/1000, 10) + "." + strconv.FormatInt(1000+d%1000, 10)[1:])
			longer++
		}
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	raw, _ := json.Marshal(doc)
	os.WriteFile(b, raw, 0o644)
	in, _ := os.Open(src)
	gz2, _ := gzip.NewReader(in)
	plain, _ := io.ReadAll(gz2)
	in.Close()
	os.WriteFile(a, plain, 0o644)
	if longer == 0 {
		t.Fatal("no communication kernel made longer")
	}
	return dir
}

// TestRanksProcessGroupReal: HTA's NCCL trace carries "Process Group
// Name" on its kernels (no Seq): a second rank made from it (rank 1, every
// communication kernel 1ms longer, written back with encoding/json) is
// matched by process group, name and occurrence, and rank 0 arrived last
// in every matched collective, as the raw matching says.
func TestRanksProcessGroupReal(t *testing.T) {
	dir := pgPair(t)
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	rs := []rawRank{readRawRank(t, a), readRawRank(t, b)}
	w := rawMatch(rs)
	var m map[string]any
	runJSON(t, &m, "ranks", "--format", "json", dir)
	by := m["matching"].(map[string]any)["by"].(string)
	if !strings.HasPrefix(by, "process group, name and occurrence") {
		t.Errorf("matched by %q", by)
	}
	d, _ := ranksJSONOf(t, dir)
	if w.matched == 0 || d.Matching.Collectives != w.matched || w.last[0] != w.matched {
		t.Fatalf("matched %d, raw %d (rank 0 last in %d)", d.Matching.Collectives, w.matched, w.last[0])
	}
	if v := d.Verdict; v == nil || v.Rank != 0 || v.Last != w.matched || v.CausedWaitNs != w.caused[0] || v.CausedWaitNs != int64(w.matched)*1_000_000 {
		t.Errorf("verdict %+v; raw caused %d over %d", v, w.caused[0], w.matched)
	}
	if *d.Ranks[1].WaitNs != w.wait[1] || *d.Ranks[1].CausedWaitNs != 0 {
		t.Errorf("rank 1: wait %d caused %d; raw %d", *d.Ranks[1].WaitNs, *d.Ranks[1].CausedWaitNs, w.wait[1])
	}
}
