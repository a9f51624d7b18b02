package table

import (
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestKernelDurationsAsDefined: the durations per name and per step are
// those of the definitions, written here the plain way (a map append per
// device op, a binary search of its launch time among the steps), on the
// shared and sample traces.
func TestKernelDurationsAsDefined(t *testing.T) {
	n := 0
	for _, p := range append(testenv.SharedTraces(t), testenv.RepoTraces(t)...) {
		tr, _, err := testcache.Open(p, parse.Options{})
		if err != nil {
			continue // not a trace (the shared corpus has some)
		}
		byName, byStep := map[string][]int64{}, map[int64][]int64{}
		steps := tr.StepWindows()
		for i := 0; i < tr.NumEvents(); i++ {
			e := tr.Ev(i)
			if !e.Kind.IsDeviceWork() {
				continue
			}
			byName[tr.Str(e.Name)] = append(byName[tr.Str(e.Name)], e.Dur)
			if k := trace.StepAt(steps, tr.LaunchTime(i)); k >= 0 {
				byStep[steps[k].N] = append(byStep[steps[k].N], e.Dur)
			}
		}
		if got := KernelDurations(tr, nil); !reflect.DeepEqual(got, byName) {
			t.Errorf("%s: durations by name differ from the definition's", testenv.Unroot(p))
		}
		if got := StepKernelDurations(tr); !reflect.DeepEqual(got, byStep) {
			t.Errorf("%s: durations by step differ from the definition's", testenv.Unroot(p))
		}
		n++
	}
	if n == 0 {
		t.Fatal("no trace checked")
	}
}
