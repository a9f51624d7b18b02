package table

// headHeap is a binary min-heap of merge heads ordered by their cached
// items (feItemCmp); only the operations the k-way merge needs. It
// compares the items directly: through a less function of a generic heap
// each comparison was an indirect call (1.8 M instructions on the 20 MB
// export bench trace).
type headHeap struct {
	hs []*feHead
}

func headLess(a, b *feHead) bool { return feItemCmp(a.it, b.it) < 0 }

func (h *headHeap) init() {
	for i := len(h.hs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// fix0 restores the order after the top element's key grew.
func (h *headHeap) fix0() { h.down(0) }

// pop0 removes the top element.
func (h *headHeap) pop0() {
	last := len(h.hs) - 1
	h.hs[0] = h.hs[last]
	h.hs = h.hs[:last]
	if last > 0 {
		h.down(0)
	}
}

func (h *headHeap) down(i int) {
	hs := h.hs
	n := len(hs)
	for {
		l := 2*i + 1
		if l >= n || l < 0 {
			return
		}
		m := l
		if r := l + 1; r < n && headLess(hs[r], hs[l]) {
			m = r
		}
		if !headLess(hs[m], hs[i]) {
			return
		}
		hs[i], hs[m] = hs[m], hs[i]
		i = m
	}
}
