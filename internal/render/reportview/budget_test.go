package reportview

import (
	"math"
	"slices"
	"testing"
)

// TestWaterFill: lanes with fewer events than an equal share take them
// all and leave the rest to the others.
func TestWaterFill(t *testing.T) {
	for _, c := range []struct {
		total  []int
		budget int
		want   []int
	}{
		{[]int{10, 1000, 1000}, 310, []int{10, 150, 150}},
		{[]int{10, 20, 30}, 1000, []int{10, 20, 30}},
		{[]int{0, 500, 5}, 100, []int{0, 95, 5}},
		{[]int{7}, 0, []int{0}},
		{nil, 10, []int{}},
	} {
		if got := waterFill(c.total, c.budget); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("waterFill(%v, %d) = %v, want %v", c.total, c.budget, got, c.want)
		}
	}
}

// TestLenClass: eight classes per doubling, monotone, and classStart is
// the shortest duration of its class.
func TestLenClass(t *testing.T) {
	prev := -1
	for d := int64(0); d < 1<<20; d += 1 + d/97 {
		c := lenClass(d)
		if c < prev {
			t.Fatalf("lenClass(%d) = %d < %d", d, c, prev)
		}
		prev = c
		if s := classStart(c); s > d || lenClass(s) != c || (s > 0 && lenClass(s-1) == c) {
			t.Fatalf("classStart(%d) = %d for %d ns", c, s, d)
		}
	}
	if lenClass(0) != 0 || lenClass(1) != 8 || lenClass(3) != 16 || lenClass(1<<62) != 8*62 {
		t.Errorf("classes %d %d %d %d", lenClass(0), lenClass(1), lenClass(3), lenClass(1<<62))
	}
}

// TestLenClassFast: lenClassFast is lenClass for every duration up to 2^20
// ns, around every class start it classes itself, across the limit of
// what it classes itself, and for durations spread over every length.
func TestLenClassFast(t *testing.T) {
	check := func(d int64) {
		if got, want := lenClassFast(d, classStarts()), lenClass(d); got != want {
			t.Fatalf("lenClassFast(%d) = %d, lenClass %d", d, got, want)
		}
	}
	for d := int64(-3); d <= 1<<20; d++ {
		check(d)
	}
	for _, s := range classStarts() {
		for d := s - 5; d <= s+5; d++ {
			check(d)
		}
	}
	for d := int64(fastClassMaxNs - 5); d <= fastClassMaxNs+5; d++ {
		check(d)
	}
	x := uint64(0x9e3779b97f4a7c15)
	for range 1_000_000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		check(int64(x>>(x%63)) & math.MaxInt64)
	}
}
