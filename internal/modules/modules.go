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

// Build computes the module tree of tr. A trace without module frames
// gives a tree without nodes.
func Build(tr *trace.Trace) *Tree {
	m := &moduleFrames{tr: tr, isModule: map[trace.StrID]bool{}}
	out := &Tree{}
	found := false
	for i := range tr.NumEvents() {
		if m.is(tr.Ev(i)) {
			found = true
			break
		}
	}
	// device work of the whole trace
	for i := range tr.NumEvents() {
		if e := tr.Ev(i); e.Kind.IsDeviceWork() {
			out.DeviceNs += e.Dur
		}
	}
	if !found {
		return out
	}
	l := tr.Links()
	w := m.walkThreads(l)
	out.Frames, out.Threads = w.frames, w.threads
	out.DeviceOpsUnlinked = w.addDeviceOps(l)
	rollUp(w.nodes)
	out.Nodes = treeOrder(w.nodes)
	for n := range out.Nodes {
		if out.Nodes[n].Parent < 0 {
			out.Roots = append(out.Roots, n)
			out.HostNs += out.Nodes[n].HostTotal
			out.DeviceInModulesNs += out.Nodes[n].DeviceTotal
		}
	}
	return out
}

// moduleFrames tells the module frames: python_function events named
// Prefix + NAME (each name read once).
type moduleFrames struct {
	tr       *trace.Trace
	isModule map[trace.StrID]bool
}

func (m *moduleFrames) is(e *trace.Event) bool {
	if e.Kind != trace.KindPython {
		return false
	}
	v, ok := m.isModule[e.Name]
	if !ok {
		v = strings.HasPrefix(m.tr.Str(e.Name), Prefix)
		m.isModule[e.Name] = v
	}
	return v
}

// frameWalk is the nodes the module frames make, in the order they were
// first seen (a child after its parent), and the node of each launch
// call's innermost module frame.
type frameWalk struct {
	tr         *trace.Trace
	nodes      []Node
	launchNode map[int32]int
	frames     int // module frames read
	threads    int // threads with module frames
}

// walkThreads walks each CPU thread in time order with a stack of the open
// module frames: a module frame's parent is the innermost open frame that
// contains it (a frame that ends after the open one is not inside it); the
// frame goes to the node of its name under its parent's node. A launch
// call gets the innermost open frame's node.
func (m *moduleFrames) walkThreads(l *trace.Links) *frameWalk {
	tr := m.tr
	type open struct {
		end  int64
		node int
	}
	w := &frameWalk{tr: tr, launchNode: map[int32]int{}}
	byKey := map[key]int{}
	var stack []open
	for k := range tr.Tracks {
		if tr.Tracks[k].Kind == trace.TrackDevice {
			continue
		}
		stack = stack[:0]
		frames := 0
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := tr.Ev(int(i))
			for len(stack) > 0 && e.Start >= stack[len(stack)-1].end {
				stack = stack[:len(stack)-1]
			}
			switch {
			case m.is(e):
				for len(stack) > 0 && e.End() > stack[len(stack)-1].end {
					stack = stack[:len(stack)-1]
				}
				parent := -1
				if len(stack) > 0 {
					parent = stack[len(stack)-1].node
				}
				n, ok := byKey[key{parent, e.Name}]
				if !ok {
					n = w.newNode(parent, e)
					byKey[key{parent, e.Name}] = n
				}
				w.nodes[n].Occurrences++
				w.nodes[n].HostTotal += e.Dur
				stack = append(stack, open{e.End(), n})
				frames++
			case e.Kind.IsLaunch() && len(stack) > 0:
				w.launchNode[i] = stack[len(stack)-1].node
			}
		}
		if frames > 0 {
			w.threads++
			w.frames += frames
		}
	}
	return w
}

// newNode adds the node of frame e under parent (-1: top level).
func (w *frameWalk) newNode(parent int, e *trace.Event) int {
	n := len(w.nodes)
	d := 1
	if parent >= 0 {
		d = w.nodes[parent].Depth + 1
	}
	w.nodes = append(w.nodes, Node{Name: strings.TrimPrefix(w.tr.Str(e.Name), Prefix), Parent: parent, Depth: d, first: e.Start})
	if parent >= 0 {
		w.nodes[parent].Children = append(w.nodes[parent].Children, n)
	}
	return n
}

// addDeviceOps gives each device op to the node of its launch call's
// innermost frame (DeviceSelf; the subtree's totals come in rollUp). It
// returns the device ops without a launch call in the trace.
func (w *frameWalk) addDeviceOps(l *trace.Links) int {
	unlinked := 0
	for i := range w.tr.NumEvents() {
		e := w.tr.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		call := l.Launch[i]
		if call < 0 {
			unlinked++
			continue
		}
		if n, ok := w.launchNode[call]; ok {
			w.nodes[n].DeviceSelf += e.Dur
			w.nodes[n].DeviceOps++ // its own; the subtree's below
		}
	}
	return unlinked
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

// treeOrder is the nodes in tree order, each followed by its subtree,
// siblings by sortSiblings, with Parent and Children renumbered.
func treeOrder(nodes []Node) []Node {
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
	newIdx := make([]int, len(nodes))
	for to, from := range order {
		newIdx[from] = to
	}
	out := make([]Node, len(nodes))
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
	return out
}

// sortSiblings orders siblings by DeviceTotal, then HostTotal, descending,
// then by name, then by the start of their first frame.
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
