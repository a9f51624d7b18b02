package gaps

import "testing"

func rec(n int64, c Cause) gapRec {
	g := gapRec{s: 0, e: n, clipped: n, cause: c, act: -1, drained: -1, prof: -1, call: -1, host: -1}
	g.shares[c] = n
	return g
}

func TestVerdictClasses(t *testing.T) {
	name := func(int32) string { return "x" }
	for _, c := range []struct {
		name  string
		busy  int64
		recs  []gapRec
		class string
	}{
		{"small idle is gpu-bound whatever the cause", 850, []gapRec{rec(150, CauseSync)}, ClassGPU},
		{"input", 100, []gapRec{rec(600, CauseInput), rec(300, CauseCPU)}, ClassInput},
		{"cpu and untraced together", 100, []gapRec{rec(400, CauseInput), rec(300, CauseCPU), rec(200, CauseUntraced)}, ClassCPU},
		{"launch calls and dispatch together", 100, []gapRec{rec(400, CauseSync), rec(300, CauseLaunch), rec(200, CauseDispatch)}, ClassLaunch},
		{"sync", 100, []gapRec{rec(500, CauseSync), rec(400, CauseCPU)}, ClassSync},
		{"queued and dependency", 100, []gapRec{rec(300, CauseQueued), rec(300, CauseDependency), rec(300, CauseCPU)}, ClassDependency},
		{"profiler", 100, []gapRec{rec(900, CauseProfiler)}, ClassProfiler},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := verdict(ivs{{0, 1000}}, "the GPU window", []Lane{{}}, []int64{c.busy}, accOf(name, c.recs...), 0, "", traceFacts{coldStep: -1})
			if v.Class != c.class {
				t.Errorf("class %s, want %s: %s", v.Class, c.class, v.Headline)
			}
			var sum int64
			for _, ns := range v.IdleByCause {
				sum += ns
			}
			if v.IdleNs != 1000-c.busy || sum != v.IdleNs {
				t.Errorf("idle %d, by cause %d", v.IdleNs, sum)
			}
		})
	}
}

func TestVerdictClippedGap(t *testing.T) {
	// A gap half outside the span counts half, split by its shares, and the
	// split still sums to exactly the part inside.
	g := gapRec{s: 0, e: 1001, clipped: 501, cause: CauseInput, act: -1, drained: -1, prof: -1, call: -1, host: -1}
	g.shares[CauseInput], g.shares[CauseCPU] = 667, 334
	v := verdict(ivs{{500, 1001}}, "s", []Lane{{}}, []int64{0}, accOf(func(int32) string { return "" }, g), 0, "device 0", traceFacts{coldStep: -1})
	if v.IdleByCause[CauseInput]+v.IdleByCause[CauseCPU] != 501 || v.Class != ClassInput {
		t.Errorf("%v %s", v.IdleByCause, v.Class)
	}
	if want := "(device 0 only) "; v.Headline[:len(want)] != want {
		t.Errorf("narrowed headline %q", v.Headline)
	}
}

func accOf(names func(int32) string, recs ...gapRec) *idleAcc {
	a := newIdleAcc(names, func(int32) int64 { return 0 })
	for k := range recs {
		a.add(&recs[k])
	}
	return a
}
