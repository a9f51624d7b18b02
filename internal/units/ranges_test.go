package units

import "testing"

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		in   []int64
		want string
	}{
		{nil, ""}, {[]int64{5}, "5"}, {[]int64{5, 2, 3, 4}, "2-5"}, {[]int64{9, 0, 7, 3, 8, 3}, "0, 3, 7-9"},
	} {
		if got := Ranges(c.in); got != c.want {
			t.Errorf("Ranges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
