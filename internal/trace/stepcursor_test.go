package trace

import (
	"math/rand/v2"
	"testing"
)

// TestStepCursor: the cursor gives trace.StepAt's answer for times in
// order, out of order and outside every step, with gaps, touching and
// overlapping step windows.
func TestStepCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		var steps []Step
		at := int64(rng.IntN(50))
		for k := 0; k < rng.IntN(12); k++ {
			d := int64(1 + rng.IntN(40))
			steps = append(steps, Step{N: int64(k), Start: at, End: at + d})
			at += d + int64(rng.IntN(30)) - 10 // gaps, touching and overlapping windows
			if at < steps[len(steps)-1].Start {
				at = steps[len(steps)-1].Start
			}
		}
		c := StepCursor{Steps: steps}
		for q := 0; q < 300; q++ {
			ts := int64(rng.IntN(int(at) + 60))
			if q%3 != 0 { // mostly ascending times, as launch times come
				ts = int64(q) * (at + 60) / 300
			}
			if got, want := c.At(ts), StepAt(steps, ts); got != want {
				t.Fatalf("round %d: At(%d) = %d, StepAt = %d (steps %+v)", round, ts, got, want, steps)
			}
		}
	}
}
