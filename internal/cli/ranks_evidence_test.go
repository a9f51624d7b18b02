package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// The evidence behind ranks' verdict (issue 25): every matched
// collective with each rank's kernel on one clock, the bandwidth of sized
// collectives, the overlap, why the straggler was late and HTA's count,
// each recomputed here from the raw JSON (rawRank, ranks_real_test.go).

type evArrival struct {
	Rank     int64  `json:"rank"`
	LaunchNs *int64 `json:"launch_ns"`
	StartNs  int64  `json:"start_ns"`
	EndNs    int64  `json:"end_ns"`
	DurNs    int64  `json:"dur_ns"`
	WaitNs   int64  `json:"wait_ns"`
	InStepNs *int64 `json:"in_step_ns"`
}

type evColl struct {
	Name        string      `json:"name"`
	Occurrence  int         `json:"occurrence"`
	Step        *int64      `json:"step"`
	LastRank    *int64      `json:"last_rank"`
	TiedRanks   []int64     `json:"tied_ranks"`
	LatestStart *int64      `json:"started_last_rank"`
	StartSkewNs *int64      `json:"start_skew_ns"`
	EndSkewNs   *int64      `json:"end_skew_ns"`
	CausedNs    int64       `json:"caused_wait_ns"`
	Bytes       *int64      `json:"bytes"`
	AlgBW       *float64    `json:"algbw_gbps"`
	BusBW       *float64    `json:"busbw_gbps"`
	Ranks       []evArrival `json:"ranks"`
}

type evBW struct {
	Rank    int64    `json:"rank"`
	Coll    string   `json:"collective"`
	Dtype   string   `json:"dtype"`
	Bytes   int64    `json:"bytes"`
	Count   int      `json:"count"`
	TotalNs int64    `json:"total_ns"`
	AlgBW   *float64 `json:"algbw_gbps"`
	BusBW   *float64 `json:"busbw_gbps"`
	LinkPct *float64 `json:"link_pct"`
}

type evDoc struct {
	ClockOriginNs *int64   `json:"clock_origin_ns"`
	Collectives   []evColl `json:"collectives"`
	Bandwidth     []evBW   `json:"bandwidth"`
	Notes         []string `json:"notes"`
	Potential     *struct {
		Collective string `json:"collective"`
		Steps      int    `json:"steps"`
		Ranks      []struct {
			Rank  int64 `json:"rank"`
			Steps int   `json:"steps"`
		} `json:"ranks"`
	} `json:"potential_stragglers"`
	Ranks []struct {
		Rank       int64    `json:"rank"`
		StepsCount int      `json:"steps_count"`
		OverlapNs  *int64   `json:"comm_overlap_ns"`
		OverlapPct *float64 `json:"comm_overlap_pct"`
		SizedOps   int      `json:"sized_ops"`
		NoKernel   int      `json:"sized_ops_without_kernel"`
	} `json:"ranks"`
	Verdict *struct {
		Rank int64 `json:"rank"`
		Late *struct {
			Kind        string `json:"kind"`
			Step        *int64 `json:"step"`
			EntryNs     *int64 `json:"entry_ns"`
			EnteredLast int    `json:"entered_last_steps"`
			Steps       int    `json:"steps"`
		} `json:"late"`
	} `json:"verdict"`
}

func evJSON(t *testing.T, args ...string) (evDoc, string) {
	t.Helper()
	out, stderr, code := run(t, append([]string{"ranks", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("ranks %v: exit %d: %s", args, code, stderr)
	}
	var d evDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d, stderr
}

// rawCollKey names a matched collective: the k-th kernel of a name in a step.
type rawCollKey struct {
	step int64
	name string
	k    int
}

// rawCollectives matches the ranks' kernels by name and occurrence within
// each step every rank has (as rawMatch does) and returns each rank's
// kernel per collective.
func rawCollectives(rs []rawRank) map[rawCollKey][]rawKernel {
	out := map[rawCollKey][]rawKernel{}
	counts := make([]map[rawCollKey]int, len(rs))
	for i, r := range rs {
		counts[i] = map[rawCollKey]int{}
		for _, k := range r.kernels {
			base := rawCollKey{k.step, k.name, 0}
			counts[i][base]++
			key := rawCollKey{k.step, k.name, counts[i][base]}
			for len(out[key]) < i {
				out[key] = append(out[key], rawKernel{dur: -1})
			}
			out[key] = append(out[key], k)
		}
	}
	for key, ks := range out {
		whole := len(ks) == len(rs)
		for _, k := range ks {
			whole = whole && k.dur >= 0
		}
		for i := range rs {
			whole = whole && counts[i][rawCollKey{key.step, key.name, 0}] == counts[0][rawCollKey{key.step, key.name, 0}]
		}
		if !whole {
			delete(out, key)
		}
	}
	return out
}

// rawBytes is nccl-tests' S from the raw size; -1 when unknown.
func rawBytes(t *testing.T, z rawSize) int64 {
	elem := map[string]int64{"Float": 4, "BFloat16": 2, "Half": 2, "Int": 4, "Long": 8, "Byte": 1, "Char": 1, "Bool": 1, "Double": 8}
	if !z.known {
		return -1
	}
	b, ok := elem[z.dtype]
	if !ok {
		t.Fatalf("dtype %q: add it to the test's table", z.dtype)
	}
	switch z.coll {
	case "allreduce", "all_reduce", "broadcast", "reduce", "reduce_scatter", "_reduce_scatter_base", "all_to_all":
		return z.in * b
	case "allgather", "all_gather", "_allgather_base", "all_gather_into_tensor":
		return z.out * b
	}
	t.Fatalf("collective %q: add it to the test's table", z.coll)
	return -1
}

// rawFactor is nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md).
func rawFactor(coll string, n int64) float64 {
	f := float64(n-1) / float64(n)
	switch coll {
	case "allreduce", "all_reduce":
		return 2 * f
	case "broadcast", "reduce":
		return 1
	}
	return f
}

// close3 compares a JSON figure rounded to 3 decimals with the truth.
func close3(got *float64, want float64) bool {
	return got != nil && math.Abs(*got-math.Round(want*1000)/1000) < 1e-9
}

// checkCollectives asserts every entry of "collectives" against the raw
// matching: the same collectives, each rank's kernel on the clock of the
// earliest rank's trace start, the waits, skews, last arrival and, where
// sizes are recorded, bytes and bandwidth over the shortest kernel.
func checkCollectives(t *testing.T, rs []rawRank, d evDoc) {
	t.Helper()
	raw := rawCollectives(rs)
	if len(d.Collectives) != len(raw) || len(raw) == 0 {
		t.Fatalf("%d collectives, raw %d", len(d.Collectives), len(raw))
	}
	origin := rs[0].origin
	for _, r := range rs {
		origin = min(origin, r.origin)
	}
	if d.ClockOriginNs == nil || *d.ClockOriginNs != origin {
		t.Errorf("clock origin %v, raw %d", d.ClockOriginNs, origin)
	}
	byRank := map[int64]int{}
	for i, r := range rs {
		byRank[r.rank] = i
	}
	for _, c := range d.Collectives {
		if c.Step == nil {
			t.Fatalf("%s #%d: no step", c.Name, c.Occurrence)
		}
		ks, ok := raw[rawCollKey{*c.Step, c.Name, c.Occurrence}]
		if !ok || len(c.Ranks) != len(ks) {
			t.Fatalf("%s #%d in step %d: not in the raw matching", c.Name, c.Occurrence, *c.Step)
		}
		lo := ks[0].dur
		for _, k := range ks {
			lo = min(lo, k.dur)
		}
		var caused, s0, s1, e0, e1 int64 = 0, math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64
		var tied []int64
		latest := int64(-1)
		for _, a := range c.Ranks {
			i := byRank[a.Rank]
			k := ks[i]
			if a.StartNs != k.start-origin || a.EndNs != k.start+k.dur-origin || a.DurNs != k.dur || a.WaitNs != k.dur-lo {
				t.Errorf("%s #%d rank %d: start %d end %d dur %d wait %d; raw %d %d %d %d", c.Name, c.Occurrence, a.Rank, a.StartNs, a.EndNs, a.DurNs, a.WaitNs,
					k.start-origin, k.start+k.dur-origin, k.dur, k.dur-lo)
			}
			if (k.launch < 0) != (a.LaunchNs == nil) || (a.LaunchNs != nil && *a.LaunchNs != k.launch-origin) {
				t.Errorf("%s #%d rank %d: launch %v, raw %d", c.Name, c.Occurrence, a.Rank, a.LaunchNs, k.launch-origin)
			}
			for _, st := range rs[i].steps {
				if st[0] == *c.Step && (a.InStepNs == nil || *a.InStepNs != k.start-rs[i].base-st[1]) {
					t.Errorf("%s #%d rank %d: in step %v, raw %d", c.Name, c.Occurrence, a.Rank, a.InStepNs, k.start-rs[i].base-st[1])
				}
			}
			caused += k.dur - lo
			if k.dur == lo {
				tied = append(tied, a.Rank)
			}
			if k.start > s1 {
				latest = a.Rank
			}
			s0, s1, e0, e1 = min(s0, k.start), max(s1, k.start), min(e0, k.start+k.dur), max(e1, k.start+k.dur)
		}
		if c.CausedNs != caused || c.StartSkewNs == nil || *c.StartSkewNs != s1-s0 || *c.EndSkewNs != e1-e0 || c.LatestStart == nil || *c.LatestStart != latest {
			t.Errorf("%s #%d: caused %d skews %v/%v latest %v; raw %d %d/%d %d", c.Name, c.Occurrence, c.CausedNs, c.StartSkewNs, c.EndSkewNs, c.LatestStart, caused, s1-s0, e1-e0, latest)
		}
		if len(tied) == 1 && (c.LastRank == nil || *c.LastRank != tied[0]) || len(tied) > 1 && (c.LastRank != nil || len(c.TiedRanks) != len(tied)) {
			t.Errorf("%s #%d: last %v tied %v; raw shortest on %v", c.Name, c.Occurrence, c.LastRank, c.TiedRanks, tied)
		}
		if b := rawBytes(t, ks[0].size); b >= 0 {
			alg := float64(b) / float64(lo)
			if c.Bytes == nil || *c.Bytes != b || !close3(c.AlgBW, alg) || !close3(c.BusBW, alg*rawFactor(ks[0].size.coll, ks[0].size.grp)) {
				t.Errorf("%s #%d: %v bytes, algbw %v busbw %v; raw %d bytes / %d ns", c.Name, c.Occurrence, c.Bytes, c.AlgBW, c.BusBW, b, lo)
			}
		} else if c.Bytes != nil || c.BusBW != nil {
			t.Errorf("%s #%d: bytes %v busbw %v on a collective with no recorded size", c.Name, c.Occurrence, c.Bytes, c.BusBW)
		}
	}
}

// rawIntersect is the intersection of two unions.
func rawIntersect(a, b [][2]int64) [][2]int64 {
	var out [][2]int64
	for _, x := range rawUnion(a) {
		for _, y := range rawUnion(b) {
			if lo, hi := max(x[0], y[0]), min(x[1], y[1]); hi > lo {
				out = append(out, [2]int64{lo, hi})
			}
		}
	}
	return out
}

// checkOverlap: HTA's overlap, communication overlapped by kernels that
// are not communication, inside the window, over the communication.
func checkOverlap(t *testing.T, r rawRank, d evDoc, i int) {
	t.Helper()
	win := r.win
	if len(win) == 0 {
		all := rawUnion(append(append([][2]int64(nil), r.compute...), r.comm...))
		if len(all) == 0 {
			return
		}
		win = [][2]int64{{all[0][0], all[len(all)-1][1]}}
	}
	ov := rawInside(rawIntersect(r.comp, r.comm), win)
	comm := rawInside(r.comm, win)
	g := d.Ranks[i]
	if g.OverlapNs == nil || *g.OverlapNs != ov {
		t.Errorf("rank %d: overlap %v ns, raw %d", g.Rank, g.OverlapNs, ov)
	}
	if comm > 0 && !close2(g.OverlapPct, 100*float64(ov)/float64(comm)) {
		t.Errorf("rank %d: overlap %v%%, raw %d/%d", g.Rank, g.OverlapPct, ov, comm)
	}
}

func close2(got *float64, want float64) bool {
	return got != nil && math.Abs(*got-math.Round(want*100)/100) < 1e-9
}

// rawLate is the rule for "late before the step" on raw steps: in how
// many common steps rank v started last with the shortest step, and its
// largest late entry.
func rawLate(rs []rawRank, v int) (enteredLast, steps int, entry int64) {
	entry = -1
	for _, st := range rs[v].steps {
		starts, durs := map[int]int64{}, map[int]int64{}
		for i, r := range rs {
			for _, x := range r.steps {
				if x[0] == st[0] {
					starts[i], durs[i] = r.base+x[1], x[2]-x[1]
				}
			}
		}
		if len(starts) != len(rs) {
			continue
		}
		steps++
		lo, hi, short := starts[v], starts[v], durs[v]
		for i := range rs {
			lo, hi, short = min(lo, starts[i]), max(hi, starts[i]), min(short, durs[i])
		}
		if starts[v] == hi && hi > lo && durs[v] == short {
			enteredLast++
		}
		entry = max(entry, starts[v]-lo)
	}
	return
}

// rawHTA is HTA's potential-straggler rule with one candidate, written
// out again: significant collectives (longest kernel >= 1% of the mean
// step), the name with the largest mean standard deviation of durations
// across ranks of its last occurrence per step, the latest start in each
// step.
func rawHTA(rs []rawRank) (name string, counts map[int64]int, steps int) {
	raw := rawCollectives(rs)
	var sum, n float64
	for _, r := range rs {
		for _, s := range r.steps {
			sum += float64(s[2] - s[1])
			n++
		}
	}
	type sk struct {
		name string
		step int64
	}
	last := map[sk]rawCollKey{}
	for key, ks := range raw {
		var hi int64
		for _, k := range ks {
			hi = max(hi, k.dur)
		}
		if float64(hi) < sum/n*0.01 {
			continue
		}
		if l, ok := last[sk{key.name, key.step}]; !ok || key.k > l.k {
			last[sk{key.name, key.step}] = key
		}
	}
	std := map[string][]float64{}
	for s, key := range last {
		var m, v float64
		for _, k := range raw[key] {
			m += float64(k.dur)
		}
		m /= float64(len(rs))
		for _, k := range raw[key] {
			v += (float64(k.dur) - m) * (float64(k.dur) - m)
		}
		std[s.name] = append(std[s.name], math.Sqrt(v/float64(len(rs)-1)))
	}
	best := -1.0
	for nm, xs := range std {
		var m float64
		for _, x := range xs {
			m += x
		}
		if m /= float64(len(xs)); m > best {
			name, best = nm, m
		}
	}
	counts = map[int64]int{}
	for s, key := range last {
		if s.name != name {
			continue
		}
		steps++
		lateRank, lateAt := int64(-1), int64(math.MinInt64)
		for i, k := range raw[key] {
			if k.start > lateAt {
				lateRank, lateAt = rs[i].rank, k.start
			}
		}
		counts[lateRank]++
	}
	return name, counts, steps
}

func checkHTA(t *testing.T, rs []rawRank, d evDoc) {
	t.Helper()
	name, counts, steps := rawHTA(rs)
	p := d.Potential
	if p == nil || p.Collective != name || p.Steps != steps {
		t.Fatalf("potential stragglers %+v; raw %s over %d steps", p, name, steps)
	}
	for _, x := range p.Ranks {
		if x.Steps != counts[x.Rank] {
			t.Errorf("rank %d: named in %d steps, raw %d", x.Rank, x.Steps, counts[x.Rank])
		}
	}
}

// TestRanksEvidenceDLRM: on the two DLRM ranks, the per-collective table,
// the overlap, why rank 0 was late and HTA's count equal the raw JSON's.
func TestRanksEvidenceDLRM(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	files := []string{
		filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz"),
		filepath.Join(dir, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz"),
	}
	rs := []rawRank{readRawRank(t, files[0]), readRawRank(t, files[1])}
	d, _ := evJSON(t, files...)
	checkCollectives(t, rs, d)
	for i := range rs {
		checkOverlap(t, rs[i], d, i)
	}
	checkHTA(t, rs, d)
	v := d.Verdict
	last, steps, entry := rawLate(rs, int(v.Rank))
	kind := "inside the step"
	if last*2 > steps {
		kind = "before the step"
	}
	if l := v.Late; l == nil || l.Kind != kind || l.EnteredLast != last || l.Steps != steps || l.EntryNs == nil || *l.EntryNs != entry {
		t.Errorf("late %+v; raw: entered last in %d of %d steps, entry %d (%s)", v.Late, last, steps, entry, kind)
	}
	t.Logf("rank %d: late %s by %d ns", v.Rank, kind, entry)
	// the text shows the same table, one row per collective, at 80 columns
	text, _, _ := run(t, "ranks", "--collectives", "--width", "80", files[0], files[1])
	for _, l := range strings.Split(text, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line of %d columns: %q", len([]rune(l)), l)
		}
	}
	// the steps column counts the steps; their numbers are in "step #"
	if !strings.Contains(text, " steps  step # ") || !strings.Contains(text, "      1  #10 ") {
		t.Errorf("steps columns:\n%s", text)
	}
	if !strings.Contains(text, "Matched collectives in start order (8 of 8") || !strings.Contains(text, "why         "+kindWord(kind)) {
		t.Errorf("text:\n%s", text)
	}
}

func kindWord(kind string) string { return "late " + kind }

// TestRanksEvidenceGenerated: generated jobs with a straggler late inside
// the step, one late before the step, and a balanced one: the
// per-collective table and HTA's count equal the raw matching; the
// before-the-step straggler entered every step 3 ms late with the
// shortest step, the other is late inside the step.
func TestRanksEvidenceGenerated(t *testing.T) {
	const delay = int64(3_000_000)
	for _, c := range []struct {
		name   string
		cfg    gen.Config
		late   string
		before bool
	}{
		{"straggler", gen.Config{Steps: 4, World: 4, Straggler: 2, StragglerDelay: delay}, "inside the step", false},
		{"late-before-step", gen.Config{Steps: 4, World: 4, Straggler: 1, StragglerDelay: delay, StragglerBeforeStep: true}, "before the step", true},
		{"balanced", gen.Config{Steps: 3, World: 3}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := writeRanks(t, dir, c.cfg, seq(c.cfg.World)...)
			var rs []rawRank
			for _, p := range paths {
				rs = append(rs, readRawRank(t, p))
			}
			d, _ := evJSON(t, dir)
			checkCollectives(t, rs, d)
			for i := range rs {
				checkOverlap(t, rs[i], d, i)
			}
			if c.late == "" {
				return
			}
			checkHTA(t, rs, d)
			last, steps, entry := rawLate(rs, c.cfg.Straggler)
			l := d.Verdict.Late
			if l == nil || l.Kind != c.late || l.EnteredLast != last || l.Steps != steps {
				t.Fatalf("late %+v; raw entered last in %d of %d", l, last, steps)
			}
			if c.before && (last != steps || entry != delay || *l.EntryNs != delay) {
				t.Errorf("before the step: entered last in %d of %d, entry %d (json %v), want every step and %d", last, steps, entry, l.EntryNs, delay)
			}
			if !c.before && last != 0 {
				t.Errorf("inside the step: entered last in %d steps", last)
			}
		})
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// rawBandwidth groups one rank's sized communication kernels as ranks'
// bandwidth table does: count and total duration per collective, dtype,
// bytes and group size.
func rawBandwidth(t *testing.T, r rawRank) map[string][2]int64 {
	out := map[string][2]int64{}
	for _, k := range r.kernels {
		b := rawBytes(t, k.size)
		if b < 0 {
			continue
		}
		key := k.size.coll + "|" + k.size.dtype + "|" + strconv.FormatInt(b, 10) + "|" + strconv.FormatInt(k.size.grp, 10)
		x := out[key]
		out[key] = [2]int64{x[0] + 1, x[1] + k.dur}
	}
	return out
}

// TestRanksBandwidthReal: the three shared traces that record sizes. On
// HTA's NCCL trace (A100, kernels with sizes) and the B200 trace (an
// all-gather sized through its record_param_comms), each group's bytes,
// count, time, algbw and busbw equal the raw sums with nccl-tests'
// factors; the ns-resolution trace (one rank, no NCCL kernel) has no
// bandwidth and says so with the count of its sized ops.
func TestRanksBandwidthReal(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	for _, name := range []string{"HTA__nccl_parser_config__nccl_data.json.gz", "TraceLens__b200__eager_trace.json.gz",
		"HTA__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			r := readRawRank(t, path)
			d, stderr := evJSON(t, path)
			want := rawBandwidth(t, r)
			if len(d.Bandwidth) != len(want) {
				t.Fatalf("%d bandwidth groups, raw %d: %v", len(d.Bandwidth), len(want), want)
			}
			for _, g := range d.Bandwidth {
				// the group size is checked through the factor
				var w [2]int64
				var grp int64 = -1
				for k, v := range want {
					p := strings.Split(k, "|")
					if p[0] == g.Coll && p[1] == g.Dtype && p[2] == strconv.FormatInt(g.Bytes, 10) {
						w = v
						grp, _ = strconv.ParseInt(p[3], 10, 64)
					}
				}
				alg := float64(g.Bytes) * float64(w[0]) / float64(w[1])
				if g.Count != int(w[0]) || g.TotalNs != w[1] || !close3(g.AlgBW, alg) || !close3(g.BusBW, alg*rawFactor(g.Coll, grp)) {
					t.Errorf("%+v; raw %d kernels, %d ns, algbw %.3f", g, w[0], w[1], alg)
				}
				t.Logf("%s %s %d bytes x %d: algbw %.3f busbw %.3f GB/s (link %v%%)", g.Coll, g.Dtype, g.Bytes, g.Count, *g.AlgBW, *g.BusBW, ptrStr(g.LinkPct))
			}
			if g := d.Ranks[0]; g.SizedOps != r.sizedOps || g.NoKernel != r.sizedOps-r.sizedUsed {
				t.Errorf("sized ops %d (%d without kernel), raw %d (%d)", g.SizedOps, g.NoKernel, r.sizedOps, r.sizedOps-r.sizedUsed)
			}
			if n := r.sizedOps - r.sizedUsed; n > 0 && !strings.Contains(stderr, strconv.Itoa(n)+" ops record a collective's size") {
				t.Errorf("no note on %d sized ops without a kernel: %q", n, stderr)
			}
			if r.sizedOps == 0 {
				t.Fatal("a sized trace without sized ops")
			}
		})
	}
}

func ptrStr(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*p, 'f', 2, 64)
}

// TestRanksBandwidthMatchedReal: HTA's NCCL trace and a second rank made
// from it (every communication kernel 1 ms longer, as in
// TestRanksProcessGroupReal): each matched collective's bandwidth is its
// size over the shortest kernel, the original rank's.
func TestRanksBandwidthMatchedReal(t *testing.T) {
	dir := pgPair(t)
	rs := []rawRank{readRawRank(t, filepath.Join(dir, "a.json")), readRawRank(t, filepath.Join(dir, "b.json"))}
	d, _ := evJSON(t, dir)
	// matched by process group: the raw matching by name and occurrence per
	// step is the same here (one process group)
	sized := 0
	for _, c := range d.Collectives {
		if c.Bytes != nil {
			sized++
		}
	}
	if sized == 0 {
		t.Fatal("no sized collective")
	}
	checkCollectives(t, rs, d)
}

// TestRanksNotesEqualStderr: the notes in JSON are the notes printed, on
// one rank and on a job with exclusions.
func TestRanksNotesEqualStderr(t *testing.T) {
	one := writeRanks(t, t.TempDir(), gen.Config{Steps: 2, World: 2}, 0)[0]
	d, stderr := evJSON(t, one)
	var printed []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if n, ok := strings.CutPrefix(l, "tracetab: note: "); ok {
			printed = append(printed, n)
		}
	}
	sort.Strings(printed)
	notes := append([]string(nil), d.Notes...)
	sort.Strings(notes)
	if len(notes) == 0 || strings.Join(notes, "\n") != strings.Join(printed, "\n") {
		t.Errorf("notes %q, printed %q", d.Notes, printed)
	}
}
