package tableview

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTorchName: without a marker the cell is torch's (cut to width-3 and
// "..." once the name has width-3 runes); with one, the marker stays whole
// and the cell is no wider than torch's.
func TestTorchName(t *testing.T) {
	long := strings.Repeat("k", 60)
	for _, c := range []struct {
		name, marker string
		width        int
		want         string
	}{
		{"aten::mm", "", 55, "aten::mm"},
		{long, "", 55, strings.Repeat("k", 52) + "..."},
		{strings.Repeat("k", 52), "", 55, strings.Repeat("k", 52) + "..."}, // torch cuts at >= width-3
		{strings.Repeat("k", 51), "", 55, strings.Repeat("k", 51)},
		{long, "", 0, long},
		{"abcd", "", 2, "abc..."}, // Python's key[:-1]
		{"aten::mm", GPUMarker, 55, "aten::mm [gpu]"},
		{long, GPUMarker, 55, strings.Repeat("k", 46) + "... [gpu]"},
		{strings.Repeat("k", 46), GPUMarker, 55, strings.Repeat("k", 46) + "... [gpu]"},
		{strings.Repeat("k", 45), GPUMarker, 55, strings.Repeat("k", 45) + " [gpu]"},
		{long, GPUMarker, 0, long + " [gpu]"},
		{"abcd", GPUMarker, 4, "... [gpu]"}, // no room: the marker still shows, no panic
	} {
		got := cols{}.torchName(c.name, c.marker, c.width)
		if got != c.want {
			t.Errorf("torchName(%q, %q, %d) = %q, want %q", c.name, c.marker, c.width, got, c.want)
		}
		if c.width >= 12 && utf8.RuneCountInString(got) > c.width {
			t.Errorf("torchName(%q, %q, %d) = %q is wider than the column", c.name, c.marker, c.width, got)
		}
	}
}

// TestTorchNameWide: a wide name is cut by display columns, never wider
// than the column; --torch-exact counts code points as Python does.
func TestTorchNameWide(t *testing.T) {
	name := "注意力层注意力层"
	if got := (cols{}).torchName(name, "", 10); got != "注意力..." {
		t.Errorf("display width: %q", got)
	}
	if got := (cols{exact: true}).torchName(name, "", 10); got != "注意力层注意力..." {
		t.Errorf("--torch-exact: %q", got)
	}
	if got := (cols{}).trimPath("/模型/注意力层.py", 8); got != "...层.py" {
		t.Errorf("trimPath: %q", got)
	}
}
