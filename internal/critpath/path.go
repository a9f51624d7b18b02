package critpath

import "cmp"

// topo is a graph's adjacency (out-edges per node) and a topological
// order of its nodes (Kahn's algorithm), kept to recompute the longest
// path under other weights.
type topo struct {
	outAt  []int32 // edges leaving node v: out[outAt[v]:outAt[v+1]]
	out    []int32
	order  []int32
	cyclic bool // some nodes lie on a cycle: order is shorter than the node count
}

func (g *graph) topo() *topo {
	n := 2 * len(g.ev)
	sc := &g.p.s
	tp := &topo{outAt: grow(sc.outAt, n+1, true), out: grow(sc.out, len(g.edges), false)}
	indeg := grow(sc.indeg, n, true)
	for _, e := range g.edges {
		tp.outAt[e.from+1]++
		indeg[e.to]++
	}
	for v := 1; v <= n; v++ {
		tp.outAt[v] += tp.outAt[v-1]
	}
	next := grow(sc.next, n, false)
	copy(next, tp.outAt[:n])
	for k, e := range g.edges {
		tp.out[next[e.from]] = int32(k)
		next[e.from]++
	}
	order := grow(sc.order, n, false)[:0]
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			order = append(order, int32(v))
		}
	}
	for h := 0; h < len(order); h++ {
		u := order[h]
		for _, k := range tp.out[tp.outAt[u]:tp.outAt[u+1]] {
			v := g.edges[k].to
			if indeg[v]--; indeg[v] == 0 {
				order = append(order, v)
			}
		}
	}
	tp.order = order
	tp.cyclic = len(order) < n
	sc.outAt, sc.out, sc.indeg, sc.next, sc.order = tp.outAt, tp.out, indeg, next, order
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

// longest is the longest path under weights w (one per edge): its length
// and its edges in order. Ties: among predecessors of equal distance
// laterPred; among ends of equal length the earliest in nodeOrder.
func (g *graph) longest(tp *topo, w []int64) (int64, []int32) {
	n := 2 * len(g.ev)
	if n == 0 || len(g.edges) == 0 {
		return 0, nil
	}
	dist := grow(g.p.s.dist, n, true)
	pred := grow(g.p.s.pred, n, false) // edge into the node, -1 for none
	for v := range pred {
		pred[v] = -1
	}
	g.p.s.dist, g.p.s.pred = dist, pred
	for _, u := range tp.order {
		for _, k := range tp.out[tp.outAt[u]:tp.outAt[u+1]] {
			e := &g.edges[k]
			d := dist[u] + w[k]
			v := e.to
			switch p := pred[v]; {
			case p < 0, d > dist[v], d == dist[v] && g.laterPred(u, g.edges[p].from):
				dist[v], pred[v] = d, k
			}
		}
	}
	end := tp.order[0]
	for _, v := range tp.order {
		if dist[v] > dist[end] || dist[v] == dist[end] && g.nodeOrder(v, end) < 0 {
			end = v
		}
	}
	var path []int32
	for v := end; pred[v] >= 0; v = g.edges[pred[v]].from {
		path = append(path, pred[v])
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return dist[end], path
}

// length is the longest path's length under weights w, without the path.
func (g *graph) length(tp *topo, w []int64) int64 {
	n := 2 * len(g.ev)
	dist := grow(g.p.s.dist, n, true)
	g.p.s.dist = dist
	best := int64(0)
	for _, u := range tp.order {
		best = max(best, dist[u])
		for _, k := range tp.out[tp.outAt[u]:tp.outAt[u+1]] {
			if d := dist[u] + w[k]; d > dist[g.edges[k].to] {
				dist[g.edges[k].to] = d
			}
		}
	}
	return best
}
