package stats

import "testing"

func TestMedianNs(t *testing.T) {
	cases := []struct {
		in   []int64
		want int64
	}{
		{nil, 0},
		{[]int64{5}, 5},
		{[]int64{1974130, 1775035}, 1874583}, // (1775035+1974130)/2 = 1874582.5, the half rounded up
		{[]int64{3, 1, 2}, 2},
		{[]int64{4, 1, 3, 2}, 3}, // 2.5 -> 3
		{[]int64{10, 20, 30, 40}, 25},
	}
	for _, c := range cases {
		if got := MedianNs(c.in); got != c.want {
			t.Errorf("MedianNs(%v) = %d, want %d", c.in, got, c.want)
		}
	}
	in := []int64{3, 1, 2, 4}
	MedianNs(in)
	if in[0] != 3 {
		t.Errorf("MedianNs sorted its argument")
	}
}
