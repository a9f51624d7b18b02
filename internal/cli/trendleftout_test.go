package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/trend"
)

// TestNoteLeftOut: up to ten runs left out of a series are named one a
// line; beyond that the rest are one line counting them by what differs.
func TestNoteLeftOut(t *testing.T) {
	var left []trend.LeftOut
	for i := 0; i < 10; i++ {
		left = append(left, trend.LeftOut{Path: fmt.Sprintf("r%d.json", i), Field: "rank", Value: fmt.Sprint(i), Series: "99"})
	}
	var b bytes.Buffer
	noteLeftOut(&b, left)
	if n := strings.Count(b.String(), "\n"); n != 10 || strings.Contains(b.String(), "more run") {
		t.Fatalf("ten left out: %d lines\n%s", n, b.String())
	}
	for i := 10; i < 1023; i++ {
		left = append(left, trend.LeftOut{Path: fmt.Sprintf("r%d.json", i), Field: "rank", Value: fmt.Sprint(i), Series: "1023"})
	}
	left = append(left, trend.LeftOut{Path: "x.json", Field: "steps", Value: "4", Series: "20"},
		trend.LeftOut{Path: "y.json", Field: "steps", Value: "5", Series: "20"})
	b.Reset()
	noteLeftOut(&b, left)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 11 {
		t.Fatalf("%d lines, want 11\n%s", len(lines), b.String())
	}
	want := "tracetab: note: left out of the series: 1015 more runs, not comparable with the newest run (1013 by rank, 2 by step count); --format json lists every one under left_out"
	if lines[10] != want {
		t.Errorf("last line\n got %s\nwant %s", lines[10], want)
	}
	if !strings.HasPrefix(lines[9], "tracetab: note: left out of the series: r9.json: rank 9,") {
		t.Errorf("tenth line %q", lines[9])
	}
}
