package gaps

import "slices"

// topN keeps the n best of a stream (by cmp, best first) without sorting
// the whole stream; n <= 0 keeps everything, sorted. Once n items are
// known, anything not better than the n-th is dropped on arrival.
type topN[T any] struct {
	n      int
	cmp    func(a, b T) int
	buf    []T
	cut    T
	hasCut bool
}

func (k *topN[T]) add(x T) {
	if k.hasCut && k.cmp(x, k.cut) >= 0 {
		return
	}
	k.buf = append(k.buf, x)
	if k.n > 0 && len(k.buf) >= 4*k.n+64 {
		k.trim()
	}
}

func (k *topN[T]) trim() {
	slices.SortFunc(k.buf, k.cmp)
	if k.n > 0 && len(k.buf) >= k.n {
		k.buf = k.buf[:k.n]
		k.cut, k.hasCut = k.buf[k.n-1], true
	}
}

func (k *topN[T]) result() []T {
	k.trim()
	return k.buf
}
