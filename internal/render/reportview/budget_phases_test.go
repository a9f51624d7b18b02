package reportview

import "testing"

// TestCutFor: classes 10, 9 and 8 hold 3, 4 and 10 events.
func TestCutFor(t *testing.T) {
	var by [numClasses]int
	by[10], by[9], by[8] = 3, 4, 10
	for _, c := range []struct {
		quota int
		want  laneCut
	}{
		// 3 + 4 = 7 fit in 12, 7 + 10 = 17 do not: cut at 8, room 12 - 7 = 5
		// for its 10 events: every ceil(10/5) = 2nd
		{12, laneCut{cut: 8, stride: 2}},
		// 7 fit exactly: no room left in class 8, nothing of it
		{7, laneCut{cut: 8}},
		// 17 fit: the walk goes down to class 0, which (empty) fits too
		{17, laneCut{cut: 0, all: true}},
		// nothing fits: room 2 for class 10's 3 events, every ceil(3/2) = 2nd
		{2, laneCut{cut: 10, stride: 2}},
	} {
		if got := cutFor(&by, c.quota); got != c.want {
			t.Errorf("quota %d: %+v, want %+v", c.quota, got, c.want)
		}
	}
}

// TestLaneCutShortest: the start of the class sampled, or of the class
// above the cut when none is sampled; 0 when all are written or the lane
// has none left.
func TestLaneCutShortest(t *testing.T) {
	// class 8 starts at 1 ns (floor(8*log2(1+1)) = 8; 0 ns is class 0);
	// class 9 at 2 ns (floor(8*log2(2)) = 8 < 9, floor(8*log2(3)) = 12)
	if got := (laneCut{cut: 8, stride: 2}).shortestNs(17); got != 1 {
		t.Errorf("class 8 sampled: %d, want 1", got)
	}
	if got := (laneCut{cut: 8}).shortestNs(17); got != 2 {
		t.Errorf("class 8 not sampled: %d, want 2 (class 9's start)", got)
	}
	if got := (laneCut{cut: 0, all: true}).shortestNs(17); got != 0 {
		t.Errorf("all written: %d, want 0", got)
	}
	if got := (laneCut{cut: 8, stride: 2}).shortestNs(0); got != 0 {
		t.Errorf("no event left: %d, want 0", got)
	}
}
