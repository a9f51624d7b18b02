package bitset

import "testing"

// TestSet: members at word edges, the union and the count.
func TestSet(t *testing.T) {
	s, o := New(130), New(130)
	for _, i := range []int{0, 63, 64, 129} {
		s.Add(i)
	}
	o.Add(1)
	o.Add(64)
	s.Union(o)
	for i := 0; i < 130; i++ {
		want := i == 0 || i == 1 || i == 63 || i == 64 || i == 129
		if s.Has(i) != want {
			t.Errorf("Has(%d) = %v, want %v", i, s.Has(i), want)
		}
	}
	if s.Len() != 5 {
		t.Errorf("Len() = %d, want 5", s.Len())
	}
	if len(New(0)) != 0 || len(New(64)) != 1 || len(New(65)) != 2 {
		t.Error("New sizes its words wrong")
	}
}
