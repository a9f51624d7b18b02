package memory

// Column is one column of a device's curve: a stretch of the window and
// the levels held in it.
type Column struct {
	StartNs, EndNs int64
	// MaxAllocated and MinAllocated are the largest and smallest allocated
	// held at any instant of [StartNs, EndNs): the level carried in at
	// StartNs and the level after every point inside. MaxReserved likewise.
	MaxAllocated, MinAllocated int64
	MaxReserved                int64
}

// Curve resamples the device's Series over [from, to) (ns from the
// origin) into n columns of equal width (the integer division's remainder
// spread over them): what a view draws at a fixed width. Nil when n < 1
// or to <= from.
func (d *Device) Curve(from, to int64, n int) []Column {
	if n < 1 || to <= from {
		return nil
	}
	out := make([]Column, n)
	lvl, j := levelBefore(d, from)
	span := to - from
	for c := range out {
		s := from + span*int64(c)/int64(n)
		e := from + span*int64(c+1)/int64(n)
		col := Column{StartNs: s, EndNs: e, MaxAllocated: lvl.Allocated, MinAllocated: lvl.Allocated, MaxReserved: lvl.Reserved}
		for ; j < len(d.Series) && d.Series[j].Ns < e; j++ {
			p := d.Series[j]
			lvl = Level{Allocated: p.Allocated, Reserved: p.Reserved}
			col.MaxAllocated = max(col.MaxAllocated, p.Allocated)
			col.MinAllocated = min(col.MinAllocated, p.Allocated)
			col.MaxReserved = max(col.MaxReserved, p.Reserved)
		}
		out[c] = col
	}
	return out
}

// LevelAt is the allocated and reserved held at ns (ns from the origin):
// after the last point at or before ns; Start before the first point.
func (d *Device) LevelAt(ns int64) Level {
	l, _ := levelBefore(d, ns+1)
	return l
}
