package trace

// epochNs is 2001-09-09 in ns since 1970: a time beyond it is taken to be
// on the wall clock (Kineto's epoch timestamps, or a relative trace with
// baseTimeNanoseconds); the relative times of a trace without a base (the
// legacy exporter's) lie far below it.
const epochNs = int64(1_000_000_000) * 1_000_000_000

// WallClock returns the origin (TraceStart) as Unix ns when the trace's
// times are on the wall clock.
func (t *Trace) WallClock() (int64, bool) {
	if ns := t.Base + t.TraceStart; ns >= epochNs {
		return ns, true
	}
	return 0, false
}
