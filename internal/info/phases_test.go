package info

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// A runtime call is a launch call when device work links to it or it is a
// launch API (its work missing from the trace); a graph launch counts as
// one when it launched more than one device op.
func TestCountLaunchCalls(t *testing.T) {
	ev := func(cat, name string, pid, tid, ts, dur, corr int) string {
		return fmt.Sprintf(`{"ph":"X","cat":%q,"name":%q,"pid":%d,"tid":%d,"ts":%d,"dur":%d,"args":{"correlation":%d}}`, cat, name, pid, tid, ts, dur, corr)
	}
	evs := []string{
		ev("cpu_op", "aten::mm", 1, 1, 0, 50, 0),
		ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 10, 5, 1), // inside aten::mm, with work
		ev("kernel", "k", 0, 7, 20, 5, 1),
		ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 60, 5, 2), // its work is missing
		ev("cuda_runtime", "cudaMalloc", 1, 1, 70, 5, 4),       // not a launch
		ev("cuda_runtime", "cudaGraphLaunch", 1, 1, 80, 5, 3),  // replays two kernels
		ev("kernel", "g1", 0, 7, 90, 5, 3),
		ev("kernel", "g2", 0, 7, 96, 5, 3),
	}
	tr, err := parse.Read(strings.NewReader(`{"traceEvents":[`+strings.Join(evs, ",")+`]}`), "launch.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := &Info{}
	sc := scanEvents(tr, tr.Links())
	countLaunchCalls(in, tr, tr.Links(), sc.launchedWork)
	got := [5]int{in.RuntimeCalls, in.LaunchCalls, in.LaunchCallsWork, in.LaunchesInOp, in.GraphLaunch}
	if want := [5]int{4, 3, 2, 1, 1}; got != want {
		t.Errorf("runtime, launch, with work, in op, graph: %v, want %v", got, want)
	}
}

// Threads: most events first, ties by pid, then tid, as text ("10" before
// "2").
func TestThreadListOrder(t *testing.T) {
	th := func(pid, tid int64, n int) *Thread { return &Thread{Pid: &pid, Tid: &tid, Events: n} }
	got := threadList(map[int32]*Thread{0: th(1, 2, 5), 1: th(1, 10, 5), 2: th(2, 1, 7), 3: th(0, 3, 1)})
	var ids []string
	for _, x := range got {
		ids = append(ids, x.PidString()+"/"+x.TidString())
	}
	if s := strings.Join(ids, " "); s != "2/1 1/10 1/2 0/3" {
		t.Errorf("order %s, want 2/1 1/10 1/2 0/3", s)
	}
}

// Categories: most events first, ties by name.
func TestCategoriesOrder(t *testing.T) {
	got := categories(&trace.Trace{CatCounts: map[string]int{"kernel": 5, "cpu_op": 9, "cuda_runtime": 5}})
	if s := fmt.Sprint(got); s != "[{cpu_op 9} {cuda_runtime 5} {kernel 5}]" {
		t.Errorf("categories %s", s)
	}
}
