package chain

import (
	"sort"
	"strings"
	"testing"
)

// rawSteps lists the ProfilerStep#N events by start.
func rawSteps(raw []rawEv) []rawEv {
	var s []rawEv
	for _, e := range raw {
		if strings.HasPrefix(e.Name, "ProfilerStep#") && (e.Cat == "user_annotation" || e.Cat == "cpu_op" || e.Cat == "Operator") {
			s = append(s, e)
		}
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].Ts < s[j].Ts })
	return s
}

// TestInstanceAndStep: --instance N is the N-th instance in the whole
// trace, and with --step the N-th inside that step, as the raw JSON orders
// them by start.
func TestInstanceAndStep(t *testing.T) {
	path := shared(t, "HTA__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")
	raw := readRaw(t, path)
	steps := rawSteps(raw)
	if len(steps) < 3 {
		t.Fatalf("%d steps", len(steps))
	}
	st := steps[1]
	stepN := strings.TrimPrefix(st.Name, "ProfilerStep#")
	// the most common cpu_op inside the second step
	count := map[string]int{}
	for _, e := range raw {
		if e.Cat == "cpu_op" && e.Ts >= st.Ts && e.Ts < st.End() {
			count[e.Name]++
		}
	}
	name := ""
	for n, c := range count {
		if name == "" || c > count[name] || (c == count[name] && n < name) {
			name = n
		}
	}
	var all, inStep []rawEv
	for _, e := range raw {
		if e.Name == name && e.Cat == "cpu_op" {
			all = append(all, e)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Ts < all[j].Ts })
	for _, e := range all {
		if e.Ts >= st.Ts && e.Ts < st.End() {
			inStep = append(inStep, e)
		}
	}
	if len(inStep) < 2 || len(all) <= len(inStep) {
		t.Fatalf("%s: %d in the trace, %d in the step", name, len(all), len(inStep))
	}
	tr := openTrace(t, path)
	var n int64
	for _, c := range stepN {
		n = n*10 + int64(c-'0')
	}
	for _, c := range []struct {
		q    Query
		want rawEv
	}{
		{Query{Match: exact(t, name), Instance: 2}, all[1]},
		{Query{Match: exact(t, name), Instance: len(all)}, all[len(all)-1]},
		{Query{Match: exact(t, name), Instance: 2, Step: n, HasStep: true}, inStep[1]},
	} {
		r := walk(t, tr, c.q, Options{MaxLines: 3})
		root := r.chains[0].Root
		if absStart(r.sel, *root) != c.want.Ts || root.Name != name {
			t.Errorf("%+v: root at %d, raw %d", c.q, absStart(r.sel, *root), c.want.Ts)
		}
	}
	r := walk(t, tr, Query{Match: exact(t, name), Step: n, HasStep: true, All: true}, Options{MaxLines: 1})
	if len(r.sel.Instances) != len(inStep) || r.sel.Total != len(all) {
		t.Errorf("--step %d: %d instances of %d; raw %d of %d", n, len(r.sel.Instances), r.sel.Total, len(inStep), len(all))
	}
	if _, err := Select(tr, Query{Match: exact(t, name), Instance: len(all) + 1}); err == nil {
		t.Error("an instance past the last is an error")
	}
}

// TestKernelSummary: --summary over a kernel pattern counts its launches
// per launch call as the raw JSON links them (correlation ids).
func TestKernelSummary(t *testing.T) {
	path := shared(t, "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
	raw := readRaw(t, path)
	count := map[string]int{}
	for _, e := range raw {
		if e.Cat == "kernel" {
			count[e.Name]++
		}
	}
	kern := ""
	for n, c := range count {
		if kern == "" || c > count[kern] || (c == count[kern] && n < kern) {
			kern = n
		}
	}
	launch := rawLaunches(raw)
	perCall := map[string]int{}
	durPerCall := map[string]int64{}
	for _, e := range raw {
		if e.Cat == "kernel" && e.Name == kern {
			l := launch[e.Corr].Name
			perCall[l]++
			durPerCall[l] += e.Dur
		}
	}
	tr := openTrace(t, path)
	s, err := Select(tr, Query{Match: exact(t, kern)})
	if err != nil {
		t.Fatal(err)
	}
	sum := Summarize(s)
	got := map[string]int{}
	gotDur := map[string]int64{}
	for _, r := range sum.Rows {
		if r.Name != kern || r.Count <= 0 {
			t.Fatalf("row %+v", r)
		}
		got[r.LaunchCall] += r.Count
		gotDur[r.LaunchCall] += r.TotalDurNs
	}
	if sum.Dir != Up || sum.Instances != count[kern] || len(got) != len(perCall) {
		t.Fatalf("%s: %d instances (raw %d), calls %v (raw %v)", kern, sum.Instances, count[kern], got, perCall)
	}
	for l, c := range perCall {
		if got[l] != c || gotDur[l] != durPerCall[l] {
			t.Errorf("%s: %d launches, %d ns; raw %d, %d ns", l, got[l], gotDur[l], c, durPerCall[l])
		}
	}
}

// TestHeaderAndDepthSelf: a broad pattern lists at most 10 names and the
// count of distinct names in the raw JSON; --depth keeps the self time,
// which is the duration minus the direct children in the raw JSON.
func TestHeaderAndDepthSelf(t *testing.T) {
	path := shared(t, "HTA__triton_example__triton_example.json.gz")
	raw := readRaw(t, path)
	tr := openTrace(t, path)
	names := map[string]bool{}
	for _, e := range raw {
		if rawIsCPU(e.Cat) {
			names[e.Name] = true
		}
	}
	r := walk(t, tr, Query{Match: regex(t, "."), Dir: Down}, Options{})
	if r.sel.NameCount != len(names) || len(r.sel.Names) != min(10, len(names)) {
		t.Fatalf("%d names (%d listed), raw %d", r.sel.NameCount, len(r.sel.Names), len(names))
	}
	for _, e := range raw {
		if e.Cat != "cpu_op" {
			continue
		}
		self := e.Dur
		for _, c := range raw {
			if a := rawAncestors(raw, c); len(a) > 0 && a[0].Idx == e.Idx {
				self -= c.Dur
			}
		}
		for _, depth := range []int{0, 1} {
			d := walk(t, tr, Query{Match: exact(t, e.Name), Dir: Down}, Options{MaxDepth: depth})
			if d.chains[0].Root.SelfNs != self || d.chains[0].Root.DurNs != e.Dur {
				t.Errorf("%s --depth %d: self %d, raw %d", e.Name, depth, d.chains[0].Root.SelfNs, self)
			}
		}
	}
	// the same on the 56 MB trace: a regex over every name lists 10 of them
	big := openTrace(t, shared(t, "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz"))
	b := walk(t, big, Query{Match: regex(t, "."), Dir: Down}, Options{MaxLines: 10})
	if len(b.sel.Names) != 10 || b.sel.NameCount <= 10 {
		t.Fatalf("%d names listed of %d", len(b.sel.Names), b.sel.NameCount)
	}
}
