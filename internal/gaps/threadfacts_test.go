package gaps

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// factsAgree asserts that the facts newCauserWith gathers in its pass are
// blockingCalls' and activeThreads' own, over the steps' window and
// anywhere, and that the causer it makes is newCauser's.
func factsAgree(t *testing.T, name string, tr *trace.Trace) {
	t.Helper()
	l := tr.Links()
	var steps ivs
	for _, s := range tr.StepWindows() {
		steps = append(steps, [2]int64{s.Start, s.End})
	}
	for _, win := range []ivs{nil, mergeIvs(steps)} {
		x := &threadFacts{win: win, threads: true}
		c := newCauserWith(tr, l, x)
		launchers, withSteps := activeThreads(tr, l)
		if want := blockingCalls(tr, win); !reflect.DeepEqual(x.syncs, want) && (len(x.syncs) > 0 || len(want) > 0) {
			t.Errorf("%s (window %v): blocking calls %v, want %v", name, win != nil, x.syncs, want)
		}
		if !reflect.DeepEqual(x.launchers, launchers) || !reflect.DeepEqual(x.withStep, withSteps) {
			t.Errorf("%s: active threads %v %v, want %v %v", name, x.launchers, x.withStep, launchers, withSteps)
		}
		want := newCauser(tr, l)
		if !reflect.DeepEqual(c.prof, want.prof) || !reflect.DeepEqual(c.waits, want.waits) || !reflect.DeepEqual(c.gsync, want.gsync) ||
			!reflect.DeepEqual(c.startup, want.startup) || c.python != want.python || c.graphs != want.graphs {
			t.Errorf("%s: the causer differs from newCauser's", name)
		}
	}
}

// TestThreadFactsAreTheirs: on every shared trace, the testdata traces,
// the benchmark shapes and generated traces with several devices, the
// fused pass gives what the separate passes give.
func TestThreadFactsAreTheirs(t *testing.T) {
	t.Run("shared", func(t *testing.T) {
		for _, p := range testenv.SharedTraces(t) {
			tr, err := openCached(p)
			if err != nil {
				continue
			}
			factsAgree(t, filepath.Base(p), tr)
		}
	})
	eachVariant(t, func(name string, tr *trace.Trace) { factsAgree(t, name, tr) })
}
