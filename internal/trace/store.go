package trace

const chunkBits = 15

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
	if c == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, 0, 1<<chunkBits))
	}
	s.chunks[c] = append(s.chunks[c], v)
	s.n++
	return s.n - 1
}

// Chunks returns the chunks in order, for fast sequential loops.
func (s *Store[T]) Chunks() [][]T { return s.chunks }
