package table

// headHeap is a binary min-heap of merge heads ordered by less; only the
// operations the k-way merge needs.
type headHeap[T any] struct {
	hs   []T
	less func(a, b T) bool
}

func (h *headHeap[T]) init() {
	for i := len(h.hs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// fix0 restores the order after the top element's key grew.
func (h *headHeap[T]) fix0() { h.down(0) }

// pop0 removes the top element.
func (h *headHeap[T]) pop0() {
	last := len(h.hs) - 1
	h.hs[0] = h.hs[last]
	h.hs = h.hs[:last]
	if last > 0 {
		h.down(0)
	}
}

func (h *headHeap[T]) down(i int) {
	n := len(h.hs)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(h.hs[r], h.hs[l]) {
			m = r
		}
		if !h.less(h.hs[m], h.hs[i]) {
			return
		}
		h.hs[i], h.hs[m] = h.hs[m], h.hs[i]
		i = m
	}
}
