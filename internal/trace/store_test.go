package trace

import "testing"

// TestStoreAppendAt: elements read back at their indices across the small
// first chunk's growth and the chunk boundaries, and no chunk but the first
// is ever reallocated (At pointers stay valid there).
func TestStoreAppendAt(t *testing.T) {
	var s Store[int64]
	const n = 3<<chunkBits + 123
	var second *int64
	for i := 0; i < n; i++ {
		if got := s.Append(int64(i) * 7); got != i {
			t.Fatalf("Append returned %d, want %d", got, i)
		}
		if i == 1<<chunkBits {
			second = s.At(i)
		}
	}
	if s.Len() != n {
		t.Fatalf("Len %d, want %d", s.Len(), n)
	}
	for i := 0; i < n; i++ {
		if v := *s.At(i); v != int64(i)*7 {
			t.Fatalf("At(%d) = %d", i, v)
		}
	}
	if second != s.At(1<<chunkBits) {
		t.Error("a later chunk moved")
	}
	total := 0
	for k, c := range s.Chunks() {
		if k < len(s.Chunks())-1 && len(c) != 1<<chunkBits {
			t.Errorf("chunk %d holds %d, want %d", k, len(c), 1<<chunkBits)
		}
		total += len(c)
	}
	if total != n {
		t.Errorf("chunks hold %d, want %d", total, n)
	}
	var small Store[int64]
	for i := 0; i < 10; i++ {
		small.Append(int64(i))
	}
	if c := cap(small.Chunks()[0]); c > firstChunk {
		t.Errorf("a store of 10 holds a chunk of %d", c)
	}
}
