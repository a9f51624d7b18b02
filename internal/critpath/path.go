package critpath

import (
	"cmp"
	"math"
)

// topo is a graph's nodes in a topological order (Kahn's algorithm) and
// its out-edges laid out in that order, kept to recompute the longest
// path under other weights. Positions are places in order: the edges
// leaving the node at position h are the slots at[h]:at[h+1], slot s
// reaching position to[s] by edge edge[s] of weight w[s]. The longest
// paths below walk the slots in order, reading each array once from
// start to end (the edges were reached through an index into the edge
// list and a node's distance by its number: on the 20 MB default bench
// trace the order, the longest path and the three what-ifs per window
// took 54 M instructions, now 40 M, the what-ifs' names included).
type topo struct {
	order  []int32 // node at each position
	pos    []int32 // position of each node
	at     []int32
	to     []int32
	edge   []int32
	w      []int64
	cyclic bool // some nodes lie on a cycle: order is shorter than the node count

	// per slot, for what-if (filled by topo when the analysis tries
	// what-ifs, else on the first one): the name of the event the edge's
	// time is attributed to (-1: none, or no time)
	name []int32
}

func (g *graph) topo() *topo {
	n := 2 * len(g.ev)
	sc := &g.p.s
	// the out-edges per node (CSR), the in-degrees
	outAt := grow(sc.outAt, n+1, true)
	indeg := grow(sc.indeg, n, true)
	for k := range g.edges {
		e := &g.edges[k]
		outAt[e.from+1]++
		indeg[e.to]++
	}
	for v := 1; v <= n; v++ {
		outAt[v] += outAt[v-1]
	}
	out := grow(sc.out, len(g.edges), false)
	next := grow(sc.next, n, false)
	copy(next, outAt[:n])
	for k := range g.edges {
		f := g.edges[k].from
		out[next[f]] = int32(k)
		next[f]++
	}
	tp := &topo{
		order: grow(sc.order, n, false)[:0],
		pos:   grow(sc.tpos, n, false),
		at:    grow(sc.at, n+1, false),
		to:    grow(sc.to, len(g.edges), false),
		edge:  grow(sc.edge, len(g.edges), false),
		w:     grow(sc.slotW, len(g.edges), false),
	}
	order, pos, at, to, edge, w := tp.order, tp.pos, tp.at, tp.to, tp.edge, tp.w
	var name []int32
	if g.p.whatIf {
		name = grow(sc.slotName, len(g.edges), false)
		sc.slotName, tp.name = name, name
	}
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			order = append(order, int32(v))
		}
	}
	// Kahn's walk lays the slots out in order as it goes: to holds the
	// target node until every position is known
	s := int32(0)
	for h := 0; h < len(order); h++ {
		u := order[h]
		pos[u] = int32(h)
		at[h] = s
		for _, k := range out[outAt[u]:outAt[u+1]] {
			e := &g.edges[k]
			v := e.to
			to[s], edge[s], w[s] = v, k, e.w
			if name != nil {
				name[s] = g.slotName(e)
			}
			s++
			if indeg[v]--; indeg[v] == 0 {
				order = append(order, v)
			}
		}
	}
	at[len(order)] = s
	tp.order = order
	tp.cyclic = len(order) < n
	if !tp.cyclic {
		for k, v := range to[:s] {
			to[k] = pos[v]
		}
	}
	sc.outAt, sc.out, sc.indeg, sc.next = outAt, out, indeg, next
	sc.order, sc.tpos, sc.at, sc.to, sc.edge, sc.slotW = order, tp.pos, tp.at, tp.to, tp.edge, tp.w
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

// longest is the longest path under the edges' weights: its length and
// its edges in order. Ties: among predecessors of equal distance
// laterPred; among ends of equal length the earliest in nodeOrder. (Any
// topological order gives the same path: a node's distance is final
// when it is reached, and both tie rules are total orders of nodes.)
func (g *graph) longest(tp *topo) (int64, []int32) {
	n := len(tp.order)
	if n == 0 || len(g.edges) == 0 {
		return 0, nil
	}
	dist := grow(g.p.s.dist, n, true)  // by position
	pred := grow(g.p.s.pred, n, false) // slot into the position, -1 for none
	for h := range pred {
		pred[h] = -1
	}
	g.p.s.dist, g.p.s.pred = dist, pred
	// from: the position a slot leaves, for the tie rule (filled as the
	// walk passes it)
	from := grow(g.p.s.from, len(tp.to), false)
	g.p.s.from = from
	at, to, w := tp.at, tp.to, tp.w
	for h := 0; h < n; h++ {
		du := dist[h]
		for s := at[h]; s < at[h+1]; s++ {
			from[s] = int32(h)
			d := du + w[s]
			v := to[s]
			switch p := pred[v]; {
			case p < 0, d > dist[v], d == dist[v] && g.laterPred(tp.order[h], tp.order[from[p]]):
				dist[v], pred[v] = d, s
			}
		}
	}
	end := 0
	for h := 1; h < n; h++ {
		if dist[h] > dist[end] || dist[h] == dist[end] && g.nodeOrder(tp.order[h], tp.order[end]) < 0 {
			end = h
		}
	}
	path := g.p.s.path[:0]
	defer func() { g.p.s.path = path[:0] }()
	for h := int32(end); pred[h] >= 0; h = from[pred[h]] {
		path = append(path, tp.edge[pred[h]])
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
	if tp.name == nil {
		g.whatIfSlots(tp)
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
	at, to, w, nm := tp.at[:n+1], tp.to, tp.w, tp.name
	for h := 0; h < n; h++ {
		du := dist[h]
		best[0], best[1], best[2] = max(best[0], du[0]), max(best[1], du[1]), max(best[2], du[2])
		for s := at[h]; s < at[h+1]; s++ {
			ws, id := w[s], nm[s]
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
			dv := &dist[to[s]]
			dv[0], dv[1], dv[2] = max(dv[0], du[0]+x0), max(dv[1], du[1]+x1), max(dv[2], du[2]+x2)
		}
	}
	return best
}

// whatIfSlots fills tp's per-slot names.
func (g *graph) whatIfSlots(tp *topo) {
	tp.name = grow(g.p.s.slotName, len(tp.to), false)
	g.p.s.slotName = tp.name
	for s, k := range tp.edge[:len(tp.to)] {
		tp.name[s] = g.slotName(&g.edges[k])
	}
}

// slotName is the name a what-if cuts edge e by: that of the event its
// time is attributed to; -1 for none, or when it has no time.
func (g *graph) slotName(e *edge) int32 {
	if e.attr >= 0 && e.w > 0 {
		return int32(g.p.t.Ev(int(e.attr)).Name)
	}
	return -1
}
