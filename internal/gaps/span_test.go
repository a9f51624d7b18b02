package gaps

import "testing"

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

func TestUnionInto(t *testing.T) {
	got := unionInto(nil, ivs{{0, 10}, {20, 30}}, ivs{{5, 22}, {25, 26}, {28, 40}, {50, 60}})
	if len(got) != 2 || got[0] != [2]int64{0, 40} || got[1] != [2]int64{50, 60} {
		t.Errorf("%v", got)
	}
	if got := unionInto(nil, nil, ivs{{1, 2}}); len(got) != 1 || got[0] != [2]int64{1, 2} {
		t.Errorf("%v", got)
	}
}

func TestMergeAll(t *testing.T) {
	mk := func(starts ...int64) []op {
		var o []op
		for k, s := range starts {
			o = append(o, op{s: s, e: s + 1, i: int32(s*10) + int32(k)})
		}
		return o
	}
	got := mergeAll([][]op{mk(1, 5, 9), mk(2, 3), mk(0, 10), mk(4)})
	var starts []int64
	for _, x := range got {
		starts = append(starts, x.s)
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
