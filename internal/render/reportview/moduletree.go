package reportview

import (
	"html/template"
	"strconv"

	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/units"
)

// The module tree's bounds: the page shows at most MaxModuleNodes nodes,
// the top levels first, and at most MaxModuleChildren children of a node;
// the rest of a node's children are one "N more" line. Nodes less deep
// than ModuleOpenDepth are open (the first three levels show).
const (
	MaxModuleNodes    = 1500
	MaxModuleChildren = 50
	ModuleOpenDepth   = 3
	moduleNameWidth   = 48
)

// ModuleTree is the module tree of the modules model (as table --by
// module computes it) as the page shows it.
type ModuleTree struct {
	T     *modules.Tree
	Shown []bool // by node
	Count int    // nodes shown
}

// NewModuleTree picks the nodes to show: level by level from the top, in
// tree order, at most MaxModuleChildren of one parent, until
// MaxModuleNodes; nil when the trace has no module frames.
func NewModuleTree(t *modules.Tree) *ModuleTree {
	if t == nil || len(t.Nodes) == 0 {
		return nil
	}
	m := &ModuleTree{T: t, Shown: make([]bool, len(t.Nodes))}
	capped := func(ids []int) []int { return ids[:min(len(ids), MaxModuleChildren)] }
	level := capped(t.Roots)
	for len(level) > 0 && m.Count < MaxModuleNodes {
		var next []int
		for _, n := range level {
			if m.Count == MaxModuleNodes {
				break
			}
			m.Shown[n] = true
			m.Count++
			next = append(next, capped(t.Nodes[n].Children)...)
		}
		level = next
	}
	return m
}

// Summary is the line above the tree.
func (m *ModuleTree) Summary() string {
	t := m.T
	s := units.Plural(len(t.Nodes), "module", "modules") + " (nodes of the tree: a module at one place in the model) from " +
		units.Plural(t.Frames, "nn.Module frame", "nn.Module frames") + " on " + units.Plural(t.Threads, "thread", "threads")
	if p := t.InModulesPct(); p != nil {
		s += "; device work launched inside a module: " + units.Dur(t.DeviceInModulesNs) + " of " + units.Dur(t.DeviceNs) + " (" + units.Pct(*p) + "%)"
	} else {
		s += "; the trace has no device work"
	}
	return s
}

// Note says what the tree leaves out, "" when it shows every node.
func (m *ModuleTree) Note() string {
	if m.Count == len(m.T.Nodes) {
		return ""
	}
	return "the tree shows " + strconv.Itoa(m.Count) + " of " + strconv.Itoa(len(m.T.Nodes)) + " modules (at most " + strconv.Itoa(MaxModuleChildren) +
		" children of a module and " + strconv.Itoa(MaxModuleNodes) + " in all, the top levels first): each \"more\" line sums the rest; tracetab table --by module lists them all"
}

// HTML writes the tree: a <details> per node with children (open above
// ModuleOpenDepth), a row per leaf, each row with the node's numbers in
// data attributes (ns) and as text.
func (m *ModuleTree) HTML() template.HTML {
	var b svgBuf
	b.f(`<div class="mod-tree">`)
	b.f(`<div class="mod-head"><span>Module</span><span class="num">Calls</span><span class="num">Host total</span><span class="num">Host self</span><span class="num">Device total</span><span class="num">Device self</span></div>`)
	m.siblings(&b, m.T.Roots, 1)
	b.f(`</div>`)
	return template.HTML(b.String())
}

func indent(depth int) int { return 4 + 14*min(depth-1, 12) }

func (m *ModuleTree) siblings(b *svgBuf, ids []int, depth int) {
	var more []int
	for _, n := range ids {
		if m.Shown[n] {
			m.node(b, n)
		} else {
			more = append(more, n)
		}
	}
	if len(more) == 0 {
		return
	}
	var host, dev int64
	sub := 0
	for _, n := range more {
		host += m.T.Nodes[n].HostTotal
		dev += m.T.Nodes[n].DeviceTotal
		sub += m.subtree(n)
	}
	text := units.Plural(len(more), "more module", "more modules")
	if sub > len(more) {
		text += " (" + strconv.Itoa(sub) + " with their submodules)"
	}
	text += ": host total " + units.Dur(host)
	if m.T.DeviceNs > 0 {
		text += ", device total " + units.Dur(dev)
	}
	b.f(`<div class="mod-more" data-count="%d" data-nodes="%d" style="padding-left:%dpx">%s</div>`, len(more), sub, indent(depth)+14, esc(text))
}

// subtree counts node n and every node below it.
func (m *ModuleTree) subtree(n int) int {
	c := 1
	for _, k := range m.T.Nodes[n].Children {
		c += m.subtree(k)
	}
	return c
}

func (m *ModuleTree) node(b *svgBuf, n int) {
	t := m.T
	nd := &t.Nodes[n]
	path := t.Path(n)
	leaf := len(nd.Children) == 0
	if !leaf {
		open := ""
		if nd.Depth < ModuleOpenDepth {
			open = " open"
		}
		b.f(`<details class="mod" data-depth="%d"%s><summary class="mod-row"`, nd.Depth, open)
	} else {
		b.f(`<div class="mod-row leaf"`)
	}
	b.f(` data-path="%s" data-occ="%d" data-host-total-ns="%d" data-host-self-ns="%d"`, esc(path), nd.Occurrences, nd.HostTotal, nd.HostSelf)
	dev := func(ns int64) string { return "-" }
	if t.DeviceNs > 0 {
		b.f(` data-device-total-ns="%d" data-device-self-ns="%d"`, nd.DeviceTotal, nd.DeviceSelf)
		dev = units.Dur
	}
	b.f(`><span class="name" style="padding-left:%dpx" title="%s">%s</span>`, indent(nd.Depth), esc(path), esc(names.Truncate(nd.Name, moduleNameWidth)))
	b.f(`<span class="num">%d</span><span class="num">%s</span><span class="num">%s</span><span class="num">%s</span><span class="num">%s</span>`,
		nd.Occurrences, esc(units.Dur(nd.HostTotal)), esc(units.Dur(nd.HostSelf)), esc(dev(nd.DeviceTotal)), esc(dev(nd.DeviceSelf)))
	if leaf {
		b.f(`</div>`)
		return
	}
	b.f(`</summary>`)
	m.siblings(b, nd.Children, nd.Depth+1)
	b.f(`</details>`)
}
