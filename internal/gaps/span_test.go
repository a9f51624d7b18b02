package gaps

import (
	"math/rand/v2"
	"testing"
)

func TestIntervals(t *testing.T) {
	w := mergeIvs([][2]int64{{10, 20}, {0, 5}, {18, 30}, {40, 50}, {5, 6}})
	if len(w) != 3 || w[0] != [2]int64{0, 6} || w[1] != [2]int64{10, 30} || w.total() != 36 {
		t.Fatalf("%v", w)
	}
	for _, c := range []struct{ s, e, want int64 }{{0, 100, 36}, {3, 12, 5}, {6, 10, 0}, {45, 46, 1}, {50, 60, 0}, {-5, 1, 1}} {
		if got := w.overlap(c.s, c.e); got != c.want {
			t.Errorf("overlap(%d,%d) = %d, want %d", c.s, c.e, got, c.want)
		}
	}
	if got := intersect(w, ivs{{4, 12}, {29, 45}}); got != 2+2+1+5 {
		t.Errorf("intersect %d", got)
	}
	if !w.contains(10) || w.contains(30) || w.contains(7) {
		t.Error("contains")
	}
}

// TestSweepRoles: on random disjoint lists per role, the time each role
// is the first active one in a window equals a count, instant by instant.
func TestSweepRoles(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for round := 0; round < 300; round++ {
		var lists [numRoles]ivs
		for r := RoleKernel; r < RoleOther; r++ {
			var raw [][2]int64
			for k := rng.IntN(6); k > 0; k-- {
				s := rng.Int64N(60)
				raw = append(raw, [2]int64{s, s + rng.Int64N(15)})
			}
			lists[r] = mergeIvs(raw)
		}
		s := rng.Int64N(50)
		e := s + rng.Int64N(40) - 5
		var got, want [numRoles]int64
		covered := sweepRoles(&lists, s, e, &got)
		var wantCovered int64
		for x := s; x < e; x++ {
			for r := RoleKernel; r < RoleOther; r++ {
				if lists[r].contains(x) {
					want[r]++
					wantCovered++
					break
				}
			}
		}
		if got != want || covered != wantCovered {
			t.Fatalf("round %d window [%d,%d) lists %v: got %v (%d), want %v (%d)", round, s, e, lists, got, covered, want, wantCovered)
		}
	}
}

// TestDeviceSeq: a device's lane over several streams is every op once,
// by start, and each stream's list still reads as it did.
func TestDeviceSeq(t *testing.T) {
	mk := func(starts ...int64) []op {
		var o []op
		for k, s := range starts {
			o = append(o, op{s: s, e: s + 1, i: int32(s*10) + int32(k)})
		}
		return o
	}
	var flat []op
	var streams []stream
	for _, o := range [][]op{mk(1, 5, 9), mk(2, 3), mk(0, 10), mk(4)} {
		streams = append(streams, stream{seq: seq{ops: o}})
		flat = append(flat, o...)
	}
	off := 0
	for k := range streams {
		n := len(streams[k].ops)
		streams[k].ops = flat[off : off+n : off+n]
		off += n
	}
	d := deviceSeq(flat, streams)
	var starts []int64
	for k := range d.n() {
		starts = append(starts, d.at(k).s)
	}
	if streams[1].ops[0].s != 2 || streams[1].ops[1].s != 3 || len(streams[1].ops) != 2 || len(streams[3].ops) != 1 {
		t.Fatalf("stream lists changed: %v", streams)
	}
	want := []int64{0, 1, 2, 3, 4, 5, 9, 10}
	if len(starts) != len(want) {
		t.Fatalf("%v", starts)
	}
	for k := range want {
		if starts[k] != want[k] {
			t.Fatalf("%v", starts)
		}
	}
}
