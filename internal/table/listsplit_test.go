package table

import (
	"bytes"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/testtrace"
	"github.com/tracetab/tracetab/internal/trace"
)

// generated is the trace the generator writes with c, read.
func generated(t *testing.T, c gen.Config) *trace.Trace {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "gen.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// listed is the FunctionEvent list of t as build makes it, with split
// forced on (every trace on two goroutines) or off (one merge).
func listed(t *trace.Trace, v Version, split bool) (ev, thread []int32, flags []uint8, pos []int32) {
	old := listSplitMin
	defer func() { listSplitMin = old }()
	listSplitMin = 1 << 62
	if split {
		listSplitMin = 0
	}
	l := t.Links()
	f := &fevents{t: t, start0: t.TraceStart, keyer: newKeyer(t)}
	isFE := functionEventFilter(t, v, nil)
	extra := f.gpuAnnotationItems(t, l, isFE)
	mem := f.unusedMemory(t, l, v, isFE, nil, nil)
	extra = sortedExtras(extra, mem, t)
	pos = f.listInOrder(t, l, v, isFE, functionEventFilter(t, v, nil), extra, mem)
	return f.ev, f.thread, f.flags, pos
}

// unclaimed is unusedMemory's list of t, its marking on two goroutines
// (every trace) or on one.
func unclaimed(tr *trace.Trace, v Version, split bool) []int {
	old := listSplitMin
	defer func() { listSplitMin = old }()
	listSplitMin = 0
	f := &fevents{t: tr, start0: tr.TraceStart, keyer: newKeyer(tr)}
	var isFE2 func(int, *trace.Event) bool
	if split {
		isFE2 = functionEventFilter(tr, v, nil)
	}
	return f.unusedMemory(tr, tr.Links(), v, functionEventFilter(tr, v, nil), isFE2, nil)
}

// TestCutRuns: runs cut after k elements, at a run's end, inside a run,
// at 0 and past the end.
func TestCutRuns(t *testing.T) {
	runs := [][]int32{{1, 2, 3}, {4, 5}, {6}}
	for _, c := range []struct {
		k      int
		lo, hi [][]int32
	}{
		{0, nil, [][]int32{{1, 2, 3}, {4, 5}, {6}}},
		{2, [][]int32{{1, 2}}, [][]int32{{3}, {4, 5}, {6}}},
		{3, [][]int32{{1, 2, 3}}, [][]int32{{4, 5}, {6}}},
		{4, [][]int32{{1, 2, 3}, {4}}, [][]int32{{5}, {6}}},
		{6, [][]int32{{1, 2, 3}, {4, 5}, {6}}, nil},
		{9, [][]int32{{1, 2, 3}, {4, 5}, {6}}, nil},
	} {
		lo, hi := cutRuns(runs, c.k)
		if !reflect.DeepEqual(lo, c.lo) || !reflect.DeepEqual(hi, c.hi) {
			t.Errorf("cut after %d: %v and %v, want %v and %v", c.k, lo, hi, c.lo, c.hi)
		}
	}
}

// computed is Compute's result on t with the split forced on or off.
func computed(t *testing.T, tr *trace.Trace, split bool) *Result {
	old, oldEvery := listSplitMin, readyEvery
	defer func() { listSplitMin, readyEvery = old, oldEvery }()
	listSplitMin = 1 << 62
	if split {
		// the tree beside the averaging too, sending what is final
		// every 7 positions
		listSplitMin, readyEvery = 0, 7
	}
	r, err := Compute(tr, Options{SortBy: "self_cpu_time_total"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestListSideBySideIsOneMerge: the list made by two goroutines, each
// merging one side of a pivot, is the list one merge makes (order,
// threads, flags, positions), and the table made with it (the tree built
// beside the averaging, and the overlap notes counted beside it too) is
// the table made on one goroutine,
// on the shared and sample traces (GPU annotations, [memory] records no op
// claims, many streams) and the bench shapes. (Its name puts it in make
// test's race stage.)
func TestListSideBySideIsOneMerge(t *testing.T) {
	check := func(name string, tr *trace.Trace) {
		v := RecordingOf(tr).Default()
		ev1, th1, fl1, pos1 := listed(tr, v, false)
		ev2, th2, fl2, pos2 := listed(tr, v, true)
		if !slices.Equal(ev1, ev2) || !slices.Equal(th1, th2) || !slices.Equal(fl1, fl2) || !slices.Equal(pos1, pos2) {
			t.Errorf("%s: the split list differs from the one merge (%d and %d FunctionEvents)", name, len(ev1), len(ev2))
		}
		if m1, m2 := unclaimed(tr, v, false), unclaimed(tr, v, true); !slices.Equal(m1, m2) {
			t.Errorf("%s: the [memory] records no op claims, marked on two goroutines: %d, on one: %d", name, len(m2), len(m1))
		}
		r1, r2 := computed(t, tr, false), computed(t, tr, true)
		if !reflect.DeepEqual(r1, r2) {
			t.Errorf("%s: the table made on two goroutines differs from the one made on one", name)
		}
	}
	paths := append(testenv.SharedTraces(t), testenv.RepoTraces(t)...)
	n := 0
	for _, p := range paths {
		tr, _, err := testcache.Open(p, parse.Options{})
		if err != nil {
			continue // not a trace (the shared corpus has some)
		}
		check(testenv.Unroot(p), tr)
		n++
	}
	for _, s := range gen.BenchShapes() {
		c := s.Cfg
		c.Steps = 20
		check(s.Name, generated(t, c))
		n++
	}
	t.Logf("%d traces", n)
	if n < 4 {
		t.Fatalf("only %d traces checked", n)
	}
}

// TestTreePanicIsRaised: a panic on the goroutine that builds the tree
// beside the averaging is raised again by Compute, as the internal error
// it is, and neither the averaging nor the memory columns wait for the
// tree for ever.
func TestTreePanicIsRaised(t *testing.T) {
	c := gen.BenchShapes()[1].Cfg // Kineto's: memory records, so the memory columns wait too
	c.Steps = 4
	tr := generated(t, c)
	old := listSplitMin
	listSplitMin, beforeTree = 0, func() { panic("planted") }
	defer func() { listSplitMin, beforeTree = old, nil }()
	got := make(chan any, 1)
	go func() {
		defer func() { got <- recover() }()
		Compute(tr, Options{SortBy: "self_cpu_time_total"})
	}()
	select {
	case r := <-got:
		pe, ok := r.(*safe.PanicError)
		if !ok || pe.Value != "planted" {
			t.Errorf("Compute raised %v (%T), want the planted panic as a *safe.PanicError", r, r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Compute waits for ever on a tree that panicked")
	}
}

// TestDupNodesByRewrittenName: torch's _remove_dup_nodes merges an only
// child into its parent when their names are one once rewritten
// (ProfilerStep#N reads ProfilerStep*), different string ids or not; a
// child of another name stays its own row. On one goroutine and with the
// tree beside the averaging (sameKey).
func TestDupNodesByRewrittenName(t *testing.T) {
	tr := testtrace.Mini(t,
		"user_annotation|ProfilerStep#1|1|0|100",
		"user_annotation|ProfilerStep#2|1|10|50",
		"cpu_op|aten::mm|1|200|100",
		"cpu_op|aten::matmul|1|210|50",
	)
	for _, split := range []bool{false, true} {
		count := map[string]int64{}
		for _, r := range computed(t, tr, split).Rows {
			count[r.Name] = r.Count
		}
		want := map[string]int64{"ProfilerStep*": 1, "aten::mm": 1, "aten::matmul": 1}
		if !reflect.DeepEqual(count, want) {
			t.Errorf("tree beside %v: rows %v, want %v", split, count, want)
		}
	}
}
