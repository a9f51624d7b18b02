package gaps

import (
	"cmp"
	"math/rand"
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// walkCallSteps is the cursor walk the step breakdown used before
// callStep: calls sorted by start, one cursor over the steps.
func walkCallSteps(win []trace.Step, calls [][2]int64) []int {
	order := make([]int, len(calls))
	for k := range order {
		order[k] = k
	}
	// by (start, event index): the index in calls stands for the event
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(calls[a][0], calls[b][0]) })
	out := make([]int, len(calls))
	for k := range out {
		out[k] = -1
	}
	ic := 0
	for k := 0; k < len(win) && ic < len(order); {
		c := calls[order[ic]]
		switch {
		case c[0] < win[k].Start:
			ic++
		case c[1] <= win[k].End:
			out[order[ic]] = k
			ic++
		case c[0] < win[k].End:
			ic++
		default:
			k++
		}
	}
	return out
}

func TestCallStepEqualsCursorWalk(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	for round := 0; round < 20000; round++ {
		n := rng.Intn(6)
		win := make([]trace.Step, n)
		at := int64(rng.Intn(20))
		for k := range win {
			// Back to back, with holes, or overlapping (nested) windows.
			s := at + int64(rng.Intn(20)) - 5
			win[k] = trace.Step{N: int64(k), Start: s, End: s + int64(rng.Intn(40))}
			at = win[k].End
		}
		slices.SortStableFunc(win, func(a, b trace.Step) int { return cmp.Compare(a.Start, b.Start) })
		endMax := make([]int64, n)
		for k, w := range win {
			endMax[k] = w.End
			if k > 0 {
				endMax[k] = max(endMax[k], endMax[k-1])
			}
		}
		calls := make([][2]int64, rng.Intn(30))
		for k := range calls {
			s := int64(rng.Intn(int(at) + 30))
			if n > 0 && rng.Intn(3) == 0 {
				s = win[rng.Intn(n)].End // at a step's end, often zero-length
			}
			d := int64(rng.Intn(15))
			if rng.Intn(2) == 0 {
				d = 0
			}
			calls[k] = [2]int64{s, s + d}
		}
		want := walkCallSteps(win, calls)
		for k, c := range calls {
			passedAt := func(s int64) bool {
				for j := 0; j < k; j++ {
					if calls[j][0] == s && calls[j][1] > s {
						return true
					}
				}
				return false
			}
			if got := callStep(win, endMax, c[0], c[1], passedAt); got != want[k] {
				t.Fatalf("round %d: steps %v, call %v: callStep %d, the cursor walk %d", round, win, c, got, want[k])
			}
		}
	}
}
