// Package modules builds the module tree of a trace recorded with
// with_modules=True (or with_stack=True): the TensorBoard plugin's Module
// View. It computes the numbers; internal/render/moduleview lays them out.
//
// A module frame is a python_function event named "nn.Module: NAME"
// (NAME is the class name and torch's per-class instance number, e.g.
// Linear_15). A frame's parent is the innermost module frame on the same
// thread (pid, tid) that contains it (half-open intervals, as the trace
// nests events). Frames are merged into nodes by their path: a node is one
// name under one parent node, so the calls of one module instance at one
// place in the model are one node (occurrences counts them), while the same
// instance reached through two different parents (a shared module) is two
// nodes, each with its own frames. The plugin keys its statistics by
// (name, Python module id) over the whole trace instead; keying by path
// keeps every frame in exactly one node, so a parent's total is its own
// self time plus its children's totals.
//
// Per node, in integer nanoseconds:
//   - HostTotal: the sum of its frames' durations;
//   - HostSelf: HostTotal less its child nodes' HostTotal (the time in its
//     frames outside any child module frame);
//   - DeviceTotal: the durations of the device ops (kernels, memcpys,
//     memsets) whose launch call (the runtime or driver call with the same
//     correlation id) starts inside one of its frames, on the frame's thread;
//   - DeviceSelf: DeviceTotal less its child nodes' DeviceTotal (the device
//     ops whose innermost module frame at launch is one of its own).
package modules

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Prefix starts the name of every module frame.
const Prefix = "nn.Module: "

// Node is one module at one path in the tree.
type Node struct {
	Name        string // the frame name after Prefix (e.g. Linear_15)
	Parent      int    // index into Tree.Nodes, -1 for a top-level module
	Depth       int    // 1 for a top-level module, 2 for its children, ...
	Children    []int  // indices into Tree.Nodes, in tree order
	Occurrences int64  // frames merged into this node
	HostTotal   int64
	HostSelf    int64
	DeviceTotal int64
	DeviceSelf  int64
	DeviceOps   int64 // device ops counted in DeviceTotal
	first       int64 // start of its first frame: the last tie-break of sibling order
}

// Tree is the module tree of a trace.
type Tree struct {
	// Nodes in tree order: each node followed by its subtree; siblings by
	// DeviceTotal, then HostTotal, descending, then by name, then by the
	// start of their first frame.
	Nodes []Node
	Roots []int // the top-level nodes, in tree order

	Frames  int // module frames read
	Threads int // threads with module frames

	// DeviceNs is the device work of the whole trace: the durations of
	// every kernel, memcpy and memset, summed (the denominator of a
	// node's device share). DeviceInModulesNs is the part launched inside
	// some module frame (the top-level nodes' DeviceTotal summed).
	DeviceNs          int64
	DeviceInModulesNs int64
	// DeviceOpsUnlinked counts the device ops whose launch call is not in
	// the trace (no correlation id, or launched before the profiler
	// started): no module can own them.
	DeviceOpsUnlinked int
	// HostNs is the top-level nodes' HostTotal summed (the denominator of
	// a node's host share).
	HostNs int64
}

// Path is the node's names from the top, joined by "/".
func (t *Tree) Path(i int) string {
	var parts []string
	for ; i >= 0; i = t.Nodes[i].Parent {
		parts = append(parts, t.Nodes[i].Name)
	}
	slices.Reverse(parts)
	return strings.Join(parts, "/")
}

type key struct {
	parent int
	name   trace.StrID
}

// HasFrames reports whether tr has a module frame (a python_function
// event named Prefix + NAME).
func HasFrames(tr *trace.Trace) bool {
	for i := range tr.NumEvents() {
		if e := tr.Ev(i); e.Kind == trace.KindPython && strings.HasPrefix(tr.Str(e.Name), Prefix) {
			return true
		}
	}
	return false
}

// Build computes the module tree of tr. A trace without module frames
// gives a tree without nodes.
func Build(tr *trace.Trace) *Tree {
	return build(tr, &recorder{})
}

// build is Build; rec, when its bucket is set, also keeps every frame
// (split.go).
func build(tr *trace.Trace, rec *recorder) *Tree {
	out := &Tree{DeviceNs: deviceWorkNs(tr)}
	if !HasFrames(tr) {
		return out
	}
	b := newTreeBuilder(tr, rec)
	for k := range tr.Tracks {
		if tr.Tracks[k].Kind == trace.TrackDevice {
			continue
		}
		if frames := b.walkThread(k); frames > 0 {
			out.Threads++
			out.Frames += frames
		}
	}
	out.DeviceOpsUnlinked = b.attributeDevice()
	b.finish(out)
	return out
}

// deviceWorkNs is the device work of the whole trace: every kernel,
// memcpy and memset's duration, summed.
func deviceWorkNs(tr *trace.Trace) int64 {
	var ns int64
	for i := range tr.NumEvents() {
		if e := tr.Ev(i); e.Kind.IsDeviceWork() {
			ns += e.Dur
		}
	}
	return ns
}

func sortSiblings(nodes []Node, ids []int) {
	slices.SortStableFunc(ids, func(a, b int) int {
		x, y := &nodes[a], &nodes[b]
		if c := cmp.Compare(y.DeviceTotal, x.DeviceTotal); c != 0 {
			return c
		}
		if c := cmp.Compare(y.HostTotal, x.HostTotal); c != 0 {
			return c
		}
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return cmp.Compare(x.first, y.first)
	})
}

// rollUp computes the totals bottom-up (a child always comes after its
// parent in nodes): DeviceTotal is DeviceSelf plus the children's
// DeviceTotal, DeviceOps likewise, HostSelf is HostTotal less the
// children's HostTotal.
func rollUp(nodes []Node) {
	for n := len(nodes) - 1; n >= 0; n-- {
		nd := &nodes[n]
		nd.DeviceTotal += nd.DeviceSelf
		nd.HostSelf += nd.HostTotal
		if p := nd.Parent; p >= 0 {
			nodes[p].DeviceTotal += nd.DeviceTotal
			nodes[p].DeviceOps += nd.DeviceOps
			nodes[p].HostSelf -= nd.HostTotal
		}
	}
}

// treeOrder puts each node before its subtree, siblings in sortSiblings'
// order, and renumbers parents and children; newIdx maps an old index to
// its new one.
func treeOrder(nodes []Node) (out []Node, newIdx []int) {
	var roots []int
	for n := range nodes {
		if nodes[n].Parent < 0 {
			roots = append(roots, n)
		}
	}
	order := make([]int, 0, len(nodes))
	var visit func(ids []int)
	visit = func(ids []int) {
		sortSiblings(nodes, ids)
		for _, n := range ids {
			order = append(order, n)
			visit(nodes[n].Children)
		}
	}
	visit(roots)
	newIdx = make([]int, len(nodes))
	for to, from := range order {
		newIdx[from] = to
	}
	out = make([]Node, len(nodes))
	for to, from := range order {
		nd := nodes[from]
		if nd.Parent >= 0 {
			nd.Parent = newIdx[nd.Parent]
		}
		ch := make([]int, len(nd.Children))
		for j, c := range nd.Children {
			ch[j] = newIdx[c]
		}
		nd.Children = ch
		out[to] = nd
	}
	return out, newIdx
}
