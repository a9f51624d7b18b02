package cli

import "testing"

func TestListText(t *testing.T) {
	for _, c := range []struct {
		in   []int64
		want string
	}{{[]int64{5, 2, 3, 4}, "2-5"}, {[]int64{7, 0, 9, 8, 3, 3}, "0, 3, 7-9"}, {[]int64{1}, "1"}, {nil, ""}} {
		if got := listText(c.in); got != c.want {
			t.Errorf("listText(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
