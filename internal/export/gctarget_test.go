package export

import "testing"

// Two traces in their gaps phase at once: the target is lowered once and
// set back to the one before only when the last leaves.
func TestGCTargetNested(t *testing.T) {
	cur := 20
	var calls []int
	g := &gcTarget{set: func(p int) int { calls = append(calls, p); old := cur; cur = p; return old }}
	g.enter()
	g.enter()
	if cur != GapsGCPercent {
		t.Fatalf("in the gaps phase the target is %d, want %d", cur, GapsGCPercent)
	}
	g.leave()
	if cur != GapsGCPercent {
		t.Fatalf("one trace still in its gaps phase: target %d, want %d", cur, GapsGCPercent)
	}
	g.leave()
	if cur != 20 {
		t.Fatalf("after the last left: target %d, want 20", cur)
	}
	if len(calls) != 2 {
		t.Fatalf("the target was set %d times (%v), want 2", len(calls), calls)
	}
	(&gcTarget{}).enter() // nil set: nothing happens
}
