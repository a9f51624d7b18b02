package gaps

import "github.com/tracetab/tracetab/internal/trace"

// busyInside is how long a device (its ops by start) is busy inside span:
// its busy union, summed as the runs come. The parts of runs inside calls
// (sorted, disjoint) are appended to inCalls, for the calls' GPU time.
func busyInside(q *seq, span, calls ivs, inCalls *[][2]int64) int64 {
	var in int64
	sj, cj := 0, 0
	run := func(a, b int64) {
		// mostly the run lies inside one step window and no call
		if sj < len(span) && span[sj][0] <= a && b <= span[sj][1] {
			in += b - a
		} else {
			in += clipTo(span, &sj, a, b, nil)
		}
		if cj < len(calls) && calls[cj][0] < b {
			clipTo(calls, &cj, a, b, inCalls)
		}
	}
	var cs, ce int64
	for k := range q.n() {
		x := q.at(k)
		switch {
		case k == 0:
			cs, ce = x.s, x.e
		case x.s <= ce:
			ce = max(ce, x.e)
		default:
			run(cs, ce)
			cs, ce = x.s, x.e
		}
	}
	if q.n() > 0 {
		run(cs, ce)
	}
	return in
}

// lane is a stream's or a device's ops, window and busy union.
func lane(t *trace.Trace, s *stream) Lane {
	q := &s.seq
	ln := Lane{Device: s.dev, Stream: s.id, Ops: q.n(), KernelNs: s.kindNs[0], MemcpyNs: s.kindNs[1], MemsetNs: s.kindNs[2]}
	sorted := true
	for k := 1; k < q.n() && sorted; k++ {
		sorted = q.at(k).s >= q.at(k-1).s
	}
	var busy, lo, hi int64
	if sorted && q.n() > 0 {
		// trace.Union's pass, on ops that come by start already.
		first := q.at(0)
		lo, hi = first.s, first.e
		cs, ce := first.s, first.e
		for k := 1; k < q.n(); k++ {
			x := q.at(k)
			if x.s > ce {
				busy += ce - cs
				cs, ce = x.s, x.e
			} else if x.e > ce {
				ce = x.e
			}
			hi = max(hi, x.e)
		}
		busy += ce - cs
	} else {
		pairs := make([][2]int64, q.n())
		for k := range pairs {
			x := q.at(k)
			pairs[k] = [2]int64{x.s, x.e}
		}
		busy, lo, hi = trace.Union(pairs)
	}
	ln.StartNs, ln.EndNs = lo-t.TraceStart, hi-t.TraceStart
	ln.WindowNs, ln.BusyNs = hi-lo, busy
	ln.IdleNs = ln.WindowNs - busy
	return ln
}

// clipTo adds up how much of [a, b) lies inside w (sorted, disjoint),
// appending those parts to out when out is set; *j is a cursor into w for
// calls whose a never decreases.
func clipTo(w ivs, j *int, a, b int64, out *[][2]int64) int64 {
	for *j < len(w) && w[*j][1] <= a {
		*j++
	}
	var n int64
	for x := *j; x < len(w) && w[x][0] < b; x++ {
		lo, hi := max(a, w[x][0]), min(b, w[x][1])
		if hi > lo {
			n += hi - lo
			if out != nil {
				*out = append(*out, [2]int64{lo, hi})
			}
		}
	}
	return n
}
