package critpath

import (
	"cmp"
	"math"
)

// topo is a graph's nodes in a topological order (Kahn's algorithm), the
// longest path found on the way, and, for what-if, its out-edges laid
// out in that order, kept to recompute the longest path under other
// weights. Positions are places in order: the edges leaving the node at
// position h are the slots at[h]:at[h+1], slot s reaching position
// slots[s].to with weight slots[s].w. The what-ifs walk the slots in
// order, reading each array once from start to end (the edges were
// reached through an index into the edge list and a node's distance by
// its number: on the 20 MB default bench trace the order, the longest
// path and the three what-ifs per window took 54 M instructions, then
// 40 M, the what-ifs' names included).
type topo struct {
	order  []int32 // node at each position
	pos    []int32 // position of each node
	at     []int32
	slots  []slot // nil when topo ran without what-ifs
	cyclic bool   // some nodes lie on a cycle: order is shorter than the node count

	// the longest path, found as Kahn's walk goes (longest reads it): per
	// node its distance and the edge into it on the path (-1 for none)
	dist []int64
	pred []int32
}

// slot is an out-edge as the what-ifs read it: the position it reaches,
// the name a what-if cuts it by (slotName) and its weight.
type slot struct {
	to, name int32
	w        int64
}

func (g *graph) topo() *topo {
	n := 2 * len(g.ev)
	sc := &g.p.s
	edges := g.edges
	// the out-edges per node (CSR), the in-degrees
	outAt := grow(sc.outAt, n+1, true)
	indeg := grow(sc.indeg, n, true)
	for k := range edges {
		e := &edges[k]
		outAt[e.from+1]++
		indeg[e.to]++
	}
	for v := 1; v <= n; v++ {
		outAt[v] += outAt[v-1]
	}
	out := grow(sc.out, len(edges), false)
	next := grow(sc.next, n, false)
	copy(next, outAt[:n])
	for k := range edges {
		f := edges[k].from
		out[next[f]] = int32(k)
		next[f]++
	}
	tp := &topo{
		order: grow(sc.order, n, false)[:0],
		pos:   grow(sc.tpos, n, false),
		at:    grow(sc.at, n+1, false),
	}
	order, pos, at := tp.order, tp.pos, tp.at
	var slots []slot
	if g.p.whatIf {
		slots = grow(sc.slots, len(edges), false)
		sc.slots, tp.slots = slots, slots
	}
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			order = append(order, int32(v))
		}
	}
	dist := grow(sc.dist, n, true)  // by node
	pred := grow(sc.pred, n, false) // edge into the node, -1 for none
	for v := range pred {
		pred[v] = -1
	}
	sc.dist, sc.pred, tp.dist, tp.pred = dist, pred, dist, pred
	// Kahn's walk lays the slots out in order as it goes (a slot's to
	// holds the target node until every position is known) and finds the
	// longest path: a node's distance is final when it is taken, and its
	// edges are relaxed in the order a walk of the laid-out slots would
	// take them (the separate walk read every slot again: 9.6 M
	// instructions on the 20 MB default bench trace, 2026-12-07). Ties
	// among predecessors of equal distance: laterPred.
	s := int32(0)
	for h := 0; h < len(order); h++ {
		u := order[h]
		pos[u] = int32(h)
		at[h] = s
		du := dist[u]
		for _, k := range out[outAt[u]:outAt[u+1]] {
			e := &edges[k]
			v := e.to
			if slots != nil {
				slots[s] = slot{to: v, name: g.slotName(e), w: e.w}
				s++
			}
			d := du + e.w
			switch p := pred[v]; {
			case p < 0, d > dist[v], d == dist[v] && g.laterPred(u, edges[p].from):
				dist[v], pred[v] = d, k
			}
			if indeg[v]--; indeg[v] == 0 {
				order = append(order, v)
			}
		}
	}
	at[len(order)] = s
	tp.order = order
	tp.cyclic = len(order) < n
	if !tp.cyclic {
		for k := range slots[:s] {
			slots[k].to = pos[slots[k].to]
		}
	}
	sc.outAt, sc.out, sc.indeg, sc.next = outAt, out, indeg, next
	sc.order, sc.tpos, sc.at = order, tp.pos, tp.at
	return tp
}

// nodeOrder is the tie rule's order of nodes: by time, then by the
// event's position in the file, a start before an end.
func (g *graph) nodeOrder(a, b int32) int {
	if c := cmp.Compare(g.ts(a), g.ts(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(g.event(a), g.event(b)); c != 0 {
		return c
	}
	return cmp.Compare(a&1, b&1)
}

// laterPred is the tie rule among predecessors of equal distance: the
// node later in time wins (what finished last is what the node waited
// for); at one instant the event earlier in the file, then a start over
// an end.
func (g *graph) laterPred(u, cur int32) bool {
	if a, b := g.ts(u), g.ts(cur); a != b {
		return a > b
	}
	if a, b := g.event(u), g.event(cur); a != b {
		return a < b
	}
	return isStart(u) && !isStart(cur)
}

// longest is the longest path under the edges' weights (topo found it):
// its length and its edges in order. Ties: among predecessors of equal
// distance laterPred; among ends of equal length the earliest in
// nodeOrder. (Any topological order gives the same path: a node's
// distance is final when it is reached, and both tie rules are total
// orders of nodes.)
func (g *graph) longest(tp *topo) (int64, []int32) {
	n := len(tp.order)
	if n == 0 || len(g.edges) == 0 {
		return 0, nil
	}
	dist, pred, order := tp.dist, tp.pred, tp.order
	end := order[0]
	for _, v := range order[1:] {
		if dist[v] > dist[end] || dist[v] == dist[end] && g.nodeOrder(v, end) < 0 {
			end = v
		}
	}
	path := g.p.s.path[:0]
	defer func() { g.p.s.path = path[:0] }()
	for v := end; pred[v] >= 0; v = g.edges[pred[v]].from {
		path = append(path, pred[v])
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return dist[end], path
}

// whatIf is the longest path's length with every edge attributed to an
// event named name cut to ceil(weight / speedup).
func (g *graph) whatIf(tp *topo, name string, speedup float64) int64 {
	var out [1]int64
	g.whatIfs(tp, []string{name}, speedup, out[:])
	return out[0]
}

// whatIfs is whatIf of each name, three names at a time in one walk of
// the slots, their distances side by side per position (three what-ifs in
// one walk: about half the instructions of three walks on the 20 MB
// default bench trace, 10 M against 19 M, 2026-12-07; a loop over any
// number of names side by side saved none).
func (g *graph) whatIfs(tp *topo, names []string, speedup float64, out []int64) {
	if tp.slots == nil { // topo ran without what-ifs: again with their slots
		g.p.whatIf = true
		tp = g.topo()
	}
	for j := 0; j < len(names); j += 3 {
		ids := [3]int32{-2, -2, -2} // -2: no slot's name
		for k := range 3 {
			if j+k < len(names) {
				if x, ok := g.p.nameID(names[j+k]); ok {
					ids[k] = int32(x)
				}
			}
		}
		r := g.whatIf3(tp, ids, speedup)
		copy(out[j:min(j+3, len(names))], r[:])
	}
}

// whatIf3 is the longest path's length under three what-ifs, each cutting
// the slots of one name (-2: none).
func (g *graph) whatIf3(tp *topo, ids [3]int32, speedup float64) (best [3]int64) {
	n := len(tp.order)
	dist := grow(g.p.s.dist3, n, true)
	g.p.s.dist3 = dist
	at, slots := tp.at[:n+1], tp.slots
	for h := 0; h < n; h++ {
		du := dist[h]
		best[0], best[1], best[2] = max(best[0], du[0]), max(best[1], du[1]), max(best[2], du[2])
		for _, sl := range slots[at[h]:at[h+1]] {
			ws, id := sl.w, sl.name
			x0, x1, x2 := ws, ws, ws
			if id >= 0 && (id == ids[0] || id == ids[1] || id == ids[2]) {
				cut := int64(math.Ceil(float64(ws) / speedup))
				if id == ids[0] {
					x0 = cut
				}
				if id == ids[1] {
					x1 = cut
				}
				if id == ids[2] {
					x2 = cut
				}
			}
			dv := &dist[sl.to]
			dv[0], dv[1], dv[2] = max(dv[0], du[0]+x0), max(dv[1], du[1]+x1), max(dv[2], du[2]+x2)
		}
	}
	return best
}

// slotName is the name a what-if cuts edge e by: that of the event its
// time is attributed to; -1 for none, or when it has no time.
func (g *graph) slotName(e *edge) int32 {
	if e.attr >= 0 && e.w > 0 {
		return int32(g.p.t.Ev(int(e.attr)).Name)
	}
	return -1
}
