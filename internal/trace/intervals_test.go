package trace

import "testing"

func TestUnion(t *testing.T) {
	for _, c := range []struct {
		in            [][2]int64
		total, lo, hi int64
	}{
		{nil, 0, 0, 0},
		{[][2]int64{{0, 10}}, 10, 0, 10},
		{[][2]int64{{20, 30}, {0, 10}}, 20, 0, 30},          // unsorted
		{[][2]int64{{0, 10}, {5, 15}, {15, 20}}, 20, 0, 20}, // overlap and touch
		{[][2]int64{{0, 100}, {10, 20}, {200, 201}}, 101, 0, 201},
	} {
		total, lo, hi := Union(c.in)
		if total != c.total || lo != c.lo || hi != c.hi {
			t.Errorf("%v: %d %d %d, want %d %d %d", c.in, total, lo, hi, c.total, c.lo, c.hi)
		}
	}
}
