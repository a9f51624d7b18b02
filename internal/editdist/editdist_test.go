package editdist

import (
	"math/rand"
	"testing"
)

// full is the textbook table of the optimal-string-alignment distance,
// every cell computed: the truth the banded Within is held to.
func full(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"srot", "sort", 1}, {"sort", "sort", 0}, {"min-gpa", "min-gap", 1}, {"", "ab", 2}, {"ab", "", 2},
		{"kitten", "sitting", 3}, {"levle", "level", 1}, {"ca", "abc", 3}, // OSA: no edit of a swapped pair
		{"größe", "grösse", 2}, {"é", "e", 1}, // runes, not bytes
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// TestWithin: the banded distance is the full one when that is at most
// the limit, else limit+1; on random words over a small alphabet (many
// swaps and repeats) and every limit from 0 to past their length.
func TestWithin(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	word := func() string {
		b := make([]rune, rng.Intn(9))
		for i := range b {
			b[i] = []rune("abcé")[rng.Intn(4)]
		}
		return string(b)
	}
	for range 3000 {
		a, b := word(), word()
		want := full([]rune(a), []rune(b))
		for limit := 0; limit <= 10; limit++ {
			w := want
			if w > limit {
				w = limit + 1
			}
			if got := Within(a, b, limit); got != w {
				t.Fatalf("Within(%q, %q, %d) = %d, want %d (distance %d)", a, b, limit, got, w, want)
			}
		}
		if got := Distance(a, b); got != want {
			t.Fatalf("Distance(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}
