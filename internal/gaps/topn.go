package gaps

import "slices"

// topN keeps the n best of a stream (by cmp, best first) without sorting
// the whole stream; n <= 0 keeps everything, sorted.
type topN[T any] struct {
	n   int
	cmp func(a, b T) int
	buf []T
}

func (k *topN[T]) add(x T) {
	k.buf = append(k.buf, x)
	if k.n > 0 && len(k.buf) >= 4*k.n+64 {
		slices.SortFunc(k.buf, k.cmp)
		k.buf = k.buf[:k.n]
	}
}

func (k *topN[T]) result() []T {
	slices.SortFunc(k.buf, k.cmp)
	if k.n > 0 && len(k.buf) > k.n {
		k.buf = k.buf[:k.n]
	}
	return k.buf
}
