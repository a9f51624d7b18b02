package layout

import (
	"bytes"
	"strings"
	"testing"
)

// TestDropToFit: optional columns go, in the order given, only while the
// grid does not fit; the name column is then cut to the width.
func TestDropToFit(t *testing.T) {
	mk := func(width int) *Grid {
		return &Grid{
			Headers:    []string{"Start", "Kind", "Name", "Extra"},
			Rows:       [][]string{{"1.000ms", "host_wait", strings.Repeat("n", 60) + "_tail", "some extra text"}},
			RightAlign: []bool{true, false, false, false},
			Names:      []bool{false, false, true, false},
			Width:      width,
		}
	}
	g := mk(0)
	if d := g.DropToFit(3, 1); d != nil || len(g.Headers) != 4 {
		t.Errorf("no width: dropped %v", d)
	}
	g = mk(200)
	if d := g.DropToFit(3, 1); d != nil {
		t.Errorf("fits already: dropped %v", d)
	}
	g = mk(45)
	d := g.DropToFit(3, 1)
	if strings.Join(d, ",") != "Extra" || strings.Join(g.Headers, ",") != "Start,Kind,Name" || len(g.Rows[0]) != 3 || g.Names[2] != true {
		t.Fatalf("dropped %v, left %v %v", d, g.Headers, g.Rows)
	}
	var b bytes.Buffer
	g.Write(&b, "text")
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if Width(l) > 45 {
			t.Errorf("%d > 45: %q", Width(l), l)
		}
	}
	if !strings.Contains(b.String(), "_tail") {
		t.Errorf("tail lost:\n%s", b.String())
	}
	g = mk(30)
	if d := g.DropToFit(3, 1); strings.Join(d, ",") != "Extra,Kind" {
		t.Errorf("dropped %v", d)
	}
}
