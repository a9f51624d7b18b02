package trace

// idIndex maps int64 ids (correlation ids, External ids) to event indices.
// Real ids are dense counters, so it uses a flat array over [min, max] when
// that is at most a few times the number of ids, and a map otherwise.
type idIndex struct {
	min   int64
	dense []int32 // index+1, 0 = absent
	m     map[int64]int32
	dup   int // ids seen again (the first one is kept)
}

// newIDIndex prepares an index for count ids within [lo, hi].
func newIDIndex(count int, lo, hi int64) *idIndex {
	x := &idIndex{min: lo}
	if count == 0 {
		return x
	}
	if span := uint64(hi - lo); hi >= lo && span < uint64(4*count+1024) {
		x.dense = make([]int32, span+1)
	} else {
		x.m = make(map[int64]int32, count)
	}
	return x
}

// add stores id -> idx unless id is there already.
func (x *idIndex) add(id int64, idx int32) {
	if x.dense != nil {
		p := &x.dense[id-x.min]
		if *p != 0 {
			x.dup++
			return
		}
		*p = idx + 1
		return
	}
	if x.m == nil {
		x.m = map[int64]int32{}
	}
	if _, ok := x.m[id]; ok {
		x.dup++
		return
	}
	x.m[id] = idx
}

// get returns the index stored for id.
func (x *idIndex) get(id int64) (int32, bool) {
	if x.dense != nil {
		o := uint64(id - x.min)
		if id < x.min || o >= uint64(len(x.dense)) {
			return 0, false
		}
		v := x.dense[o]
		return v - 1, v != 0
	}
	v, ok := x.m[id]
	return v, ok
}

// idRange collects the count and bounds of a set of ids.
type idRange struct {
	n      int
	lo, hi int64
}

func (r *idRange) see(id int64) {
	if r.n == 0 || id < r.lo {
		r.lo = id
	}
	if r.n == 0 || id > r.hi {
		r.hi = id
	}
	r.n++
}
