package critpath

// Uncounted splits the time a path spans but does not count (its wall
// minus its length) by the edges that leave it out. HTA's rules weigh a
// dependency edge (consecutive top-level ops of a thread, the runtime
// lock) and a sync edge 0, and the last edge into a blocking call's end
// 0: so idle CPU time and the time a call only waited are on the path's
// span but not in its length.
type Uncounted struct {
	IdleNs    int64 // dependency edges: CPU idle between top-level ops, waits for the runtime lock
	SyncNs    int64 // sync edges: from the device op waited for to the sync's end
	BlockedNs int64 // the zero-weight end of a blocking call (cudaStreamSynchronize, cudaMemcpy, ...)
	OtherNs   int64 // clamped edges (an event that outlasts its parent: negative, counted 0)
}

func (u *Uncounted) add(t EdgeType, gap int64) {
	if gap == 0 {
		return
	}
	switch {
	case gap > 0 && t == EdgeDependency:
		u.IdleNs += gap
	case gap > 0 && t == EdgeSync:
		u.SyncNs += gap
	case gap > 0 && t == EdgeOperator:
		u.BlockedNs += gap
	default:
		u.OtherNs += gap
	}
}

// Coverage is how much of its window a path accounts for.
type Coverage struct {
	WindowNs  int64 // the window's length (the step's, for a step)
	PathNs    int64
	Uncounted Uncounted // inside the path's span
	OutsideNs int64     // the window before the path's first node and after its last
}

// Coverage reads the window's coverage; ok is false without a path.
func (w *WindowResult) Coverage() (c Coverage, ok bool) {
	if !w.HasPath {
		return c, false
	}
	c = Coverage{WindowNs: w.EndNs - w.StartNs, PathNs: w.PathNs, Uncounted: w.Uncounted}
	c.OutsideNs = c.WindowNs - w.WallNs
	return c, true
}

// TotalCoverage sums the coverage of the windows that have a path.
func (r *Result) TotalCoverage() (c Coverage, ok bool) {
	for i := range r.Windows {
		x, has := r.Windows[i].Coverage()
		if !has {
			continue
		}
		ok = true
		c.WindowNs += x.WindowNs
		c.PathNs += x.PathNs
		c.OutsideNs += x.OutsideNs
		c.Uncounted.IdleNs += x.Uncounted.IdleNs
		c.Uncounted.SyncNs += x.Uncounted.SyncNs
		c.Uncounted.BlockedNs += x.Uncounted.BlockedNs
		c.Uncounted.OtherNs += x.Uncounted.OtherNs
	}
	return c, ok
}
