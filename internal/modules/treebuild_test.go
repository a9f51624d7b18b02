package modules

import (
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestEnterFrameNesting: a frame's parent is the innermost open frame
// containing it (half-open); the same name under the same parent is one
// node, under another parent (here: none) another node.
func TestEnterFrameNesting(t *testing.T) {
	tr := &trace.Trace{Strings: []string{Prefix + "A_0", Prefix + "B_0"}}
	b := newTreeBuilder(tr, &recorder{})
	py := func(name trace.StrID, start, end int64) *trace.Event {
		return &trace.Event{Kind: trace.KindPython, Name: name, Start: start, Dur: end - start}
	}
	for _, e := range []*trace.Event{
		py(0, 0, 100),  // A: top level
		py(1, 10, 30),  // B inside A
		py(1, 30, 60),  // starts where the first B ends: that B is closed, a second frame of A's B
		py(1, 90, 120), // ends after A: not inside it, a top-level B
	} {
		b.popEnded(e.Start)
		b.enterFrame(e)
	}
	if len(b.nodes) != 3 {
		t.Fatalf("%d nodes, want 3: %+v", len(b.nodes), b.nodes)
	}
	type got struct {
		name          string
		parent, depth int
		occ, host     int64
	}
	want := []got{
		{"A_0", -1, 1, 1, 100},
		{"B_0", 0, 2, 2, 20 + 30}, // 10-30 and 30-60
		{"B_0", -1, 1, 1, 30},     // 90-120
	}
	for k, n := range b.nodes {
		if g := (got{n.Name, n.Parent, n.Depth, n.Occurrences, n.HostTotal}); g != want[k] {
			t.Errorf("node %d: %+v, want %+v", k, g, want[k])
		}
	}
	if !slices.Equal(b.nodes[0].Children, []int{1}) {
		t.Errorf("A's children %v, want [1]", b.nodes[0].Children)
	}
	if b.nodes[1].first != 10 {
		t.Errorf("A's B first frame at %d, want 10", b.nodes[1].first)
	}
}
