package trace

const (
	chunkBits  = 15
	firstChunk = 256
)

// Store is an append-only list kept in fixed-size chunks, so that growing it
// never copies what it holds: a 1 GB trace's millions of events cost their
// own size in memory, not the 2 to 5 times a doubling slice passes through.
type Store[T any] struct {
	chunks [][]T
	n      int
}

// Len is the number of elements.
func (s *Store[T]) Len() int { return s.n }

// At returns a pointer to element i.
func (s *Store[T]) At(i int) *T {
	return &s.chunks[i>>chunkBits][i&(1<<chunkBits-1)]
}

// Append adds v and returns its index.
func (s *Store[T]) Append(v T) int {
	c := s.n >> chunkBits
	switch {
	case c == len(s.chunks) && c == 0:
		// the first chunk starts small and doubles: a store of a few
		// elements (the shared Auxes of a trace, a segment's tail) costs
		// their size, not a whole chunk
		s.chunks = append(s.chunks, make([]T, 0, firstChunk))
	case c == len(s.chunks):
		s.chunks = append(s.chunks, make([]T, 0, 1<<chunkBits))
	case len(s.chunks[c]) == cap(s.chunks[c]):
		grown := make([]T, len(s.chunks[c]), min(2*cap(s.chunks[c]), 1<<chunkBits))
		copy(grown, s.chunks[c])
		s.chunks[c] = grown
	}
	s.chunks[c] = append(s.chunks[c], v)
	s.n++
	return s.n - 1
}

// Chunks returns the chunks in order, for fast sequential loops.
func (s *Store[T]) Chunks() [][]T { return s.chunks }
