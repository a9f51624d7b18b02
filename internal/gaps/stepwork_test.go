package gaps

import (
	"fmt"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// A step runs from the end of the step before it (the first step: of the
// unmatched device work that ended before its own device work) to the end
// of the device work it launched, at least its CPU end.
func TestExtendedSteps(t *testing.T) {
	win := []trace.Step{{N: 1, Start: 100, End: 200}, {N: 2, Start: 200, End: 300}, {N: 3, Start: 300, End: 400}}
	w := &stepWork{
		dmin:          []int64{150, noneNs, 320},
		dmax:          []int64{260, -noneNs, 450},
		matched:       []int{2, 0, 1},
		unmatchedEnds: []int64{120, 140, 500},
	}
	steps, keep := w.extendedSteps(win)
	if got, want := fmt.Sprint(steps, keep), "[[140 260] [260 300] [300 450]] 3"; got != want {
		t.Errorf("steps %s, want %s", got, want)
	}
	// No step launched anything: the CPU windows.
	w = &stepWork{dmin: []int64{noneNs, noneNs, noneNs}, dmax: []int64{-noneNs, -noneNs, -noneNs}, matched: []int{0, 0, 0}, unmatchedEnds: []int64{150}}
	steps, keep = w.extendedSteps(win)
	if got, want := fmt.Sprint(steps, keep), "[[100 200] [200 300] [300 400]] 3"; got != want {
		t.Errorf("nothing launched: %s, want %s", got, want)
	}
}

// Trailing steps that launched nothing are left out, and the last one left
// too when it launched under 80% of the step before it.
func TestKeptSteps(t *testing.T) {
	for _, c := range []struct {
		matched []int
		want    int
	}{
		{[]int{5, 5, 0, 0}, 2},
		{[]int{10, 7}, 1}, // 7 < 8
		{[]int{10, 8}, 2},
		{[]int{0, 9, 0}, 2},
		{[]int{0, 0}, 2}, // nothing launched: all kept
		{[]int{3}, 1},
	} {
		if got := keptSteps(c.matched); got != c.want {
			t.Errorf("keptSteps(%v) = %d, want %d", c.matched, got, c.want)
		}
	}
}
