package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// wrapLine keeps every word (nothing cut), in order, and no line is wider
// than the width.
func TestWrapLine(t *testing.T) {
	long := "tracetab: note: warning: the trace has no cuda_sync events (recorded from torch 2.1 on; see pytorch/pytorch#105187): " +
		"/a/very/long/path/" + strings.Repeat("x", 130) + ".json.gz may be wrong"
	for _, width := range []int{40, 80, 120} {
		got := wrapLine(long, width)
		if !strings.HasSuffix(got, "\n") {
			t.Fatalf("no newline: %q", got)
		}
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if utf8.RuneCountInString(l) > width {
				t.Errorf("width %d: line of %d: %q", width, utf8.RuneCountInString(l), l)
			}
		}
		if strings.ReplaceAll(strings.Join(strings.Fields(got), ""), " ", "") != strings.Join(strings.Fields(long), "") {
			t.Errorf("width %d: the text changed:\n%s", width, got)
		}
	}
	if got := wrapLine("short", 80); got != "short\n" {
		t.Errorf("%q", got)
	}
}
