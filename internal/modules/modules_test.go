package modules

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// tb writes a small Kineto trace: integer microseconds, one process.
type tb struct {
	ev   []string
	corr int
}

// mod is a module frame on thread tid.
func (b *tb) mod(tid int, name string, ts, dur int) {
	b.ev = append(b.ev, fmt.Sprintf(`{"ph":"X","cat":"python_function","name":"nn.Module: %s","pid":1,"tid":%d,"ts":%d,"dur":%d}`, name, tid, ts, dur))
}

// py is a Python frame that is not a module.
func (b *tb) py(tid int, name string, ts, dur int) {
	b.ev = append(b.ev, fmt.Sprintf(`{"ph":"X","cat":"python_function","name":%q,"pid":1,"tid":%d,"ts":%d,"dur":%d}`, name, tid, ts, dur))
}

// launch is a cudaLaunchKernel at ts on tid and its kernel of kdur on the
// GPU (at ts+1000, far from the CPU events).
func (b *tb) launch(tid, ts, kdur int) {
	b.corr++
	b.ev = append(b.ev,
		fmt.Sprintf(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":%d,"ts":%d,"dur":1,"args":{"correlation":%d}}`, tid, ts, b.corr),
		fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"k%d","pid":0,"tid":7,"ts":%d,"dur":%d,"args":{"correlation":%d}}`, b.corr, ts+1000, kdur, b.corr))
}

func (b *tb) build(t *testing.T) *Tree {
	t.Helper()
	src := `{"schemaVersion":1,"traceEvents":[` + strings.Join(b.ev, ",") + `]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "modules", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Build(tr)
}

// row is what a test expects of one node, by path.
type row struct {
	path                string
	occ                 int64
	hostTotal, hostSelf int64 // us
	devTotal, devSelf   int64 // us
}

func check(t *testing.T, tr *Tree, want []row) {
	t.Helper()
	if len(tr.Nodes) != len(want) {
		var got []string
		for i := range tr.Nodes {
			got = append(got, tr.Path(i))
		}
		t.Fatalf("%d nodes %q, want %d", len(tr.Nodes), got, len(want))
	}
	for i, w := range want {
		n := tr.Nodes[i]
		got := row{tr.Path(i), n.Occurrences, n.HostTotal / 1000, n.HostSelf / 1000, n.DeviceTotal / 1000, n.DeviceSelf / 1000}
		if got != w {
			t.Errorf("node %d: got %+v, want %+v", i, got, w)
		}
	}
}

func TestNesting(t *testing.T) {
	b := &tb{}
	b.mod(1, "Model_0", 0, 100)
	b.mod(1, "Linear_0", 10, 20)
	b.launch(1, 15, 5)
	b.mod(1, "ReLU_0", 40, 10)
	b.launch(1, 45, 3)
	b.launch(1, 60, 7) // in Model_0 itself
	b.py(1, "forward", 70, 5)
	b.launch(1, 72, 2) // in a non-module frame inside Model_0: still Model_0's
	tr := b.build(t)
	check(t, tr, []row{
		{"Model_0", 1, 100, 70, 17, 9},
		{"Model_0/Linear_0", 1, 20, 20, 5, 5},
		{"Model_0/ReLU_0", 1, 10, 10, 3, 3},
	})
	if tr.Frames != 3 || tr.Threads != 1 || tr.DeviceNs != 17000 || tr.DeviceInModulesNs != 17000 || tr.HostNs != 100000 {
		t.Errorf("totals: %+v", *tr)
	}
	if n := tr.Nodes[0]; n.Depth != 1 || n.Parent != -1 || tr.Nodes[1].Depth != 2 || tr.Nodes[1].Parent != 0 || n.DeviceOps != 4 {
		t.Errorf("depth/parent/ops: %+v %+v", n, tr.Nodes[1])
	}
}

// The calls of one module at one place are one node; the same name under
// another parent is another node.
func TestSameNamedSiblingsMerge(t *testing.T) {
	b := &tb{}
	b.mod(1, "Model_0", 0, 200)
	b.mod(1, "Block_0", 10, 50)
	b.mod(1, "Linear_0", 20, 10)
	b.launch(1, 25, 4)
	b.mod(1, "Block_0", 100, 50) // the same block called again
	b.mod(1, "Linear_0", 110, 20)
	b.launch(1, 115, 6)
	b.mod(1, "Linear_0", 160, 10) // Linear_0 called from Model_0 directly
	b.launch(1, 165, 1)
	tr := b.build(t)
	check(t, tr, []row{
		{"Model_0", 1, 200, 90, 11, 0},
		{"Model_0/Block_0", 2, 100, 70, 10, 0},
		{"Model_0/Block_0/Linear_0", 2, 30, 30, 10, 10},
		{"Model_0/Linear_0", 1, 10, 10, 1, 1},
	})
}

// A module inside itself is a child node, not merged with its parent.
func TestRecursion(t *testing.T) {
	b := &tb{}
	b.mod(1, "Rec_0", 0, 100)
	b.mod(1, "Rec_0", 10, 50)
	b.mod(1, "Rec_0", 20, 10)
	b.launch(1, 25, 2)
	b.launch(1, 40, 3)
	b.launch(1, 80, 4)
	tr := b.build(t)
	check(t, tr, []row{
		{"Rec_0", 1, 100, 50, 9, 4},
		{"Rec_0/Rec_0", 1, 50, 40, 5, 3},
		{"Rec_0/Rec_0/Rec_0", 1, 10, 10, 2, 2},
	})
}

// A launch call on another thread belongs to that thread's frames only;
// a kernel launched outside every module counts in DeviceNs alone.
func TestOtherThreads(t *testing.T) {
	b := &tb{}
	b.mod(1, "Model_0", 0, 100)
	b.launch(2, 50, 8) // thread 2, inside Model_0's span but not its thread
	b.mod(2, "Loader_0", 200, 10)
	b.launch(2, 205, 1)
	b.launch(1, 150, 5) // thread 1, after Model_0
	tr := b.build(t)
	check(t, tr, []row{
		{"Loader_0", 1, 10, 10, 1, 1},
		{"Model_0", 1, 100, 100, 0, 0},
	})
	if tr.Threads != 2 || tr.DeviceNs != 14000 || tr.DeviceInModulesNs != 1000 {
		t.Errorf("threads %d, device %d, in modules %d", tr.Threads, tr.DeviceNs, tr.DeviceInModulesNs)
	}
}

// Siblings: device total, then host total, descending; a launch at a
// frame's end is outside it (half-open); a frame that outlives its
// enclosing frame is not its child.
func TestOrderAndEdges(t *testing.T) {
	b := &tb{}
	b.mod(1, "A_0", 0, 10)
	b.mod(1, "B_0", 20, 30)
	b.mod(1, "C_0", 60, 5)
	b.launch(1, 60, 2) // at C_0's start: inside
	b.launch(1, 65, 9) // at C_0's end: outside every frame
	b.mod(1, "D_0", 100, 10)
	b.mod(1, "E_0", 105, 10) // ends after D_0: not D_0's child
	tr := b.build(t)
	check(t, tr, []row{
		{"C_0", 1, 5, 5, 2, 2},
		{"B_0", 1, 30, 30, 0, 0},
		{"A_0", 1, 10, 10, 0, 0},
		{"D_0", 1, 10, 10, 0, 0},
		{"E_0", 1, 10, 10, 0, 0},
	})
}

// A graph launch: one call, many kernels, all to the frame of the call;
// a kernel whose call is missing counts as unlinked.
func TestGraphLaunchAndUnlinked(t *testing.T) {
	b := &tb{}
	b.mod(1, "M_0", 0, 100)
	b.ev = append(b.ev,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":77}}`,
		`{"ph":"X","cat":"kernel","name":"g1","pid":0,"tid":7,"ts":500,"dur":3,"args":{"correlation":77}}`,
		`{"ph":"X","cat":"kernel","name":"g2","pid":0,"tid":7,"ts":510,"dur":4,"args":{"correlation":77}}`,
		`{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":520,"dur":2,"args":{"correlation":78}}`)
	tr := b.build(t)
	check(t, tr, []row{{"M_0", 1, 100, 100, 7, 7}})
	if tr.DeviceOpsUnlinked != 1 || tr.DeviceNs != 9000 || tr.Nodes[0].DeviceOps != 2 {
		t.Errorf("unlinked %d, device %d, ops %d", tr.DeviceOpsUnlinked, tr.DeviceNs, tr.Nodes[0].DeviceOps)
	}
}

func TestNoModules(t *testing.T) {
	b := &tb{}
	b.py(1, "forward", 0, 10)
	b.launch(1, 5, 1)
	tr := b.build(t)
	if len(tr.Nodes) != 0 || tr.Frames != 0 || tr.DeviceNs != 1000 {
		t.Errorf("%+v", *tr)
	}
}

func TestSelectAndKeys(t *testing.T) {
	b := &tb{}
	b.mod(1, "Model_0", 0, 100)
	b.mod(1, "Linear_0", 10, 20)
	b.launch(1, 15, 50)
	b.mod(1, "ReLU_0", 40, 30)
	b.launch(1, 45, 3)
	tr := b.build(t)
	if got := tr.Select(1, KeyTree); len(got) != 1 || got[0] != 0 {
		t.Errorf("depth 1: %v", got)
	}
	if got := tr.Select(0, KeyHostSelf); fmt.Sprint(got) != "[0 2 1]" { // 50, 30, 20
		t.Errorf("by host self: %v", got)
	}
	for s, want := range map[string]Key{"": KeyTree, "none": KeyTree, "device_self": KeyDeviceSelf, "self_cuda_time_total": KeyDeviceSelf,
		"self_cuda": KeyDeviceSelf, "cpu_time_total": KeyHostTotal, "count": KeyOccurrences, "calls": KeyOccurrences, "cuda_total": KeyDeviceTotal} {
		if k, ok := ParseKey(s); !ok || k != want {
			t.Errorf("ParseKey(%q) = %v, %v; want %v", s, k, ok, want)
		}
	}
	if _, ok := ParseKey("cpu_memory_usage"); ok {
		t.Error("a memory key was taken")
	}
}
