package ranks

import (
	"strings"
	"testing"
)

func sum(rank int64, steps []int64, colls ...Coll) *Summary {
	s := &Summary{Rank: rank, WorldSize: 3, Steps: steps, MedianStepNs: -1, HasGPU: true, CommKernels: len(colls), Colls: colls, Epoch: true}
	if len(steps) > 0 {
		s.MedianStepNs = 1_000_000
	}
	for range steps {
		s.StepStart, s.StepDur = append(s.StepStart, 0), append(s.StepDur, 1_000_000)
	}
	for i := range s.Colls {
		s.Colls[i].Launch, s.Colls[i].Size = -1, noSize
	}
	return s
}

// TestMatchProcessGroups: with process groups, a collective of a group
// two of the three ranks belong to is matched between those two; a
// group on one given rank is left out and named.
func TestMatchProcessGroups(t *testing.T) {
	k := func(pg string, start, dur int64) Coll {
		return Coll{Name: "ncclKernel_AllReduce", PG: pg, Seq: -1, Step: 5, Start: start, Dur: dur}
	}
	ss := []*Summary{
		sum(0, []int64{5}, k("0", 100, 50), k("tp", 200, 30)),
		sum(1, []int64{5}, k("0", 120, 30), k("tp", 210, 20)),
		sum(2, []int64{5}, k("0", 130, 20), k("dp", 300, 10)),
	}
	r := Compare(ss, 5)
	m := r.Match
	if !strings.HasPrefix(m.By, ByPGName) || len(m.Collectives) != 2 || len(m.Excluded) != 1 || !strings.Contains(m.Excluded[0].Reason, "only on rank 2") {
		t.Fatalf("by %q, %d matched, excluded %+v", m.By, len(m.Collectives), m.Excluded)
	}
	// pg 0: durations 50, 30, 20: rank 2 last, waits 30 and 10; pg tp: 30, 20: rank 1 last, rank 0 waits 10
	want := []RankWait{{Collectives: 2, WaitNs: 40, EndSkewNs: -1}, {Collectives: 2, WaitNs: 10, CausedWaitNs: 10, Last: 1}, {Collectives: 1, CausedWaitNs: 40, Last: 1}}
	for i, w := range want {
		g := r.Waits[i]
		g.EndSkewNs, w.EndSkewNs = 0, 0
		if g != w {
			t.Errorf("rank %d: %+v, want %+v", i, r.Waits[i], w)
		}
	}
	if r.Verdict == nil || r.Verdict.Rank != 2 {
		t.Errorf("verdict %+v", r.Verdict)
	}
}

// TestMatchSeq: with process group and seq on every kernel, kernels pair
// by seq whatever their order; a seq whose kernels differ is left out.
func TestMatchSeq(t *testing.T) {
	k := func(name string, seq, start, dur int64) Coll {
		return Coll{Name: name, PG: "0", Seq: seq, Step: -1, Start: start, Dur: dur}
	}
	ss := []*Summary{
		sum(0, nil, k("AllReduce", 1, 100, 40), k("AllGather", 2, 200, 10), k("AllReduce", 3, 300, 5)),
		sum(1, nil, k("AllGather", 2, 150, 30), k("AllReduce", 1, 160, 20), k("Broadcast", 3, 400, 5)),
	}
	r := Compare(ss, 5)
	m := r.Match
	if !strings.HasPrefix(m.By, ByPGSeq) || len(m.Collectives) != 2 || len(m.Excluded) != 1 || !strings.Contains(m.Excluded[0].Reason, "different kernels") {
		t.Fatalf("by %q, %d matched, excluded %+v", m.By, len(m.Collectives), m.Excluded)
	}
	// seq 1: 40 vs 20: rank 1 last, rank 0 waits 20; seq 2: 10 vs 30: rank 0 last, rank 1 waits 20
	if r.Waits[0].CausedWaitNs != 20 || r.Waits[1].CausedWaitNs != 20 || r.Waits[0].WaitNs != 20 || r.Waits[1].WaitNs != 20 {
		t.Errorf("waits %+v", r.Waits)
	}
	if r.Verdict != nil || !strings.Contains(r.NoVerdict, "no ProfilerStep#N") {
		t.Errorf("no steps: verdict %+v, reason %q", r.Verdict, r.NoVerdict)
	}
}

// TestTieSplit: three ranks tie for last; the others' wait is split
// evenly, the remainder to the lowest ranks.
func TestTieSplit(t *testing.T) {
	k := func(dur int64) Coll { return Coll{Name: "nccl", Seq: -1, Step: 1, Start: 0, Dur: dur} }
	ss := []*Summary{sum(0, []int64{1}, k(5)), sum(1, []int64{1}, k(5)), sum(2, []int64{1}, k(5)), sum(3, []int64{1}, k(10))}
	ss[3].WorldSize = 4
	for _, s := range ss {
		s.WorldSize = 4
	}
	r := Compare(ss, 5)
	got := []int64{r.Waits[0].CausedWaitNs, r.Waits[1].CausedWaitNs, r.Waits[2].CausedWaitNs, r.Waits[3].CausedWaitNs}
	if got[0] != 2 || got[1] != 2 || got[2] != 1 || got[3] != 0 || r.Waits[0].TiedLast != 1 || r.Waits[3].WaitNs != 5 {
		t.Errorf("caused %v, waits %+v", got, r.Waits)
	}
}

func TestOverlap(t *testing.T) {
	a := merge([][2]int64{{0, 10}, {5, 20}, {30, 40}})
	if length(a) != 30 || overlap(a, [][2]int64{{15, 35}}) != 10 {
		t.Errorf("merge %v", a)
	}
}

// TestClocksNotComparable: a trace whose times are relative to its own
// start gives no end skew, and the verdict does not need one.
func TestClocksNotComparable(t *testing.T) {
	k := func(dur int64) Coll { return Coll{Name: "nccl", Seq: -1, Step: 1, Start: 1000, Dur: dur} }
	ss := []*Summary{sum(0, []int64{1}, k(10)), sum(1, []int64{1}, k(500_000))}
	ss[1].Epoch = false
	r := Compare(ss, 5)
	if r.ClockComparable || r.ClockSkewNs != -1 || r.Waits[0].EndSkewNs != -1 || r.Waits[1].EndSkewNs != -1 {
		t.Errorf("clocks %v skew %d waits %+v", r.ClockComparable, r.ClockSkewNs, r.Waits)
	}
	if v := r.Verdict; v == nil || v.Class != ClassStraggler || v.Rank != 0 || v.CausedWaitNs != 499_990 || v.SkewPct != 49.999 {
		t.Errorf("verdict %+v", r.Verdict)
	}
}
