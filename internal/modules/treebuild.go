package modules

import (
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// treeBuilder is build under way: each CPU thread is walked in time order
// with a stack of the open module frames; a module frame gets its node,
// a launch call the innermost open frame's node.
type treeBuilder struct {
	tr       *trace.Trace
	l        *trace.Links
	rec      *recorder
	isModule map[trace.StrID]bool
	byKey    map[key]int
	nodes    []Node
	// by event index, made at the first module frame (a map per launch
	// call: Build took 11.8 ms on the 200 MB Kineto shape, now 5.0):
	launchNode  []int32 // a launch call's innermost module frame's node + 1 (0: none)
	launchFrame []int32 // that frame as rec keeps it, when rec keeps frames
	stack       []openFrame
}

// openFrame is a module frame open on the thread walked.
type openFrame struct {
	end   int64
	node  int
	frame int32 // rec's frame, -1 when not recorded
}

func newTreeBuilder(tr *trace.Trace, rec *recorder) *treeBuilder {
	return &treeBuilder{tr: tr, l: tr.Links(), rec: rec, isModule: map[trace.StrID]bool{}, byKey: map[key]int{}}
}

// isModuleFrame reports whether e is a Python event named Prefix + NAME
// (each name decided once).
func (b *treeBuilder) isModuleFrame(e *trace.Event) bool {
	if e.Kind != trace.KindPython {
		return false
	}
	m, ok := b.isModule[e.Name]
	if !ok {
		m = strings.HasPrefix(b.tr.Str(e.Name), Prefix)
		b.isModule[e.Name] = m
	}
	return m
}

// walkThread walks track k's events in time order and returns how many
// module frames it holds.
func (b *treeBuilder) walkThread(k int) int {
	b.stack = b.stack[:0]
	frames := 0
	for _, i := range b.l.Order[b.l.TrackStart[k]:b.l.TrackStart[k+1]] {
		e := b.tr.Ev(int(i))
		b.popEnded(e.Start)
		switch {
		case b.isModuleFrame(e):
			b.enterFrame(e)
			frames++
		case e.Kind.IsLaunch() && len(b.stack) > 0:
			top := b.stack[len(b.stack)-1]
			b.launchNode[i] = int32(top.node) + 1
			if b.rec.on() {
				b.launchFrame[i] = top.frame
			}
		}
	}
	return frames
}

// popEnded closes the open frames that end at or before start
// (half-open intervals).
func (b *treeBuilder) popEnded(start int64) {
	for len(b.stack) > 0 && start >= b.stack[len(b.stack)-1].end {
		b.stack = b.stack[:len(b.stack)-1]
	}
}

// enterFrame opens module frame e: inside the innermost open frame that
// contains it (a frame that ends after the open one is not inside it),
// counted in its node.
func (b *treeBuilder) enterFrame(e *trace.Event) {
	for len(b.stack) > 0 && e.End() > b.stack[len(b.stack)-1].end {
		b.stack = b.stack[:len(b.stack)-1]
	}
	if b.launchNode == nil {
		b.launchNode = make([]int32, b.tr.NumEvents())
		if b.rec.on() {
			b.launchFrame = make([]int32, b.tr.NumEvents())
		}
	}
	parent, pf := -1, int32(-1)
	if len(b.stack) > 0 {
		parent, pf = b.stack[len(b.stack)-1].node, b.stack[len(b.stack)-1].frame
	}
	n := b.nodeFor(parent, e)
	b.nodes[n].Occurrences++
	b.nodes[n].HostTotal += e.Dur
	f := int32(-1)
	if b.rec.on() {
		f = b.rec.frame(n, pf, e.Start, e.Dur)
	}
	b.stack = append(b.stack, openFrame{e.End(), n, f})
}

// nodeFor is the node of frame e under parent: one node per name under
// one parent node (a new one the first time, one level below its parent,
// its first frame's start kept for the sibling order).
func (b *treeBuilder) nodeFor(parent int, e *trace.Event) int {
	kk := key{parent, e.Name}
	if n, ok := b.byKey[kk]; ok {
		return n
	}
	n := len(b.nodes)
	b.byKey[kk] = n
	d := 1
	if parent >= 0 {
		d = b.nodes[parent].Depth + 1
	}
	b.nodes = append(b.nodes, Node{Name: strings.TrimPrefix(b.tr.Str(e.Name), Prefix), Parent: parent, Depth: d, first: e.Start})
	if parent >= 0 {
		b.nodes[parent].Children = append(b.nodes[parent].Children, n)
	}
	return n
}

// attributeDevice gives each device op to the node of its launch call's
// innermost frame (a call outside every frame gives it to none) and
// returns how many device ops have no launch call in the trace.
func (b *treeBuilder) attributeDevice() (unlinked int) {
	for i := range b.tr.NumEvents() {
		e := b.tr.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		call := b.l.Launch[i]
		if call < 0 {
			unlinked++
			continue
		}
		if b.launchNode == nil {
			continue
		}
		if n := int(b.launchNode[call]) - 1; n >= 0 {
			b.nodes[n].DeviceSelf += e.Dur
			b.nodes[n].DeviceOps++ // its own; the subtree's below
			if b.rec.on() {
				b.rec.device(b.launchFrame[call], e.Dur)
			}
		}
	}
	return unlinked
}

// finish rolls the totals up, puts the nodes in tree order and sums the
// top-level nodes into the tree's host and in-module device time.
func (b *treeBuilder) finish(out *Tree) {
	rollUp(b.nodes)
	var newIdx []int
	out.Nodes, newIdx = treeOrder(b.nodes)
	for n := range out.Nodes {
		if out.Nodes[n].Parent < 0 {
			out.Roots = append(out.Roots, n)
			out.HostNs += out.Nodes[n].HostTotal
			out.DeviceInModulesNs += out.Nodes[n].DeviceTotal
		}
	}
	b.rec.renumber(newIdx)
}
