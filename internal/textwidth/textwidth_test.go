package textwidth

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestWidth: ASCII is its length (control characters too, as when widths
// were runes); CJK two columns a character, an emoji two, a combining
// mark none.
func TestWidth(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"aten::mm", 8},
		{"a\tb", 3},
		{"注意力层", 8},
		{"🔥matmul", 8},
		{"e\u0301", 1},       // e + combining acute
		{"cafe\u0301 注意", 9}, // café 4, a space, 注意 4
		{"▁▂█", 3},
		{"…", 1},
	} {
		if got := Width(c.s); got != c.want {
			t.Errorf("Width(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

// TestHeadTail: cuts land between characters, never inside one or
// between a letter and its mark, and never exceed the width.
func TestHeadTail(t *testing.T) {
	for _, c := range []struct {
		s          string
		w          int
		head, tail string
	}{
		{"abcdef", 3, "abc", "def"},
		{"abc", 9, "abc", "abc"},
		{"abc", 0, "", ""},
		{"注意力层", 3, "注", "层"},
		{"注意力层", 4, "注意", "力层"},
		{"a注b", 2, "a", "b"},
		{"🔥matmul", 1, "", "l"},
		{"🔥matmul", 3, "🔥m", "mul"},
		{"e\u0301e\u0301x", 1, "e\u0301", "x"},
		{"e\u0301e\u0301x", 2, "e\u0301e\u0301", "e\u0301x"},
	} {
		if got := Head(c.s, c.w); got != c.head {
			t.Errorf("Head(%q, %d) = %q, want %q", c.s, c.w, got, c.head)
		}
		if got := Tail(c.s, c.w); got != c.tail {
			t.Errorf("Tail(%q, %d) = %q, want %q", c.s, c.w, got, c.tail)
		}
	}
	if f, w := First("注意"); f != "注" || w != 2 {
		t.Errorf("First(注意) = %q, %d", f, w)
	}
	if f, w := First("e\u0301x"); f != "e\u0301" || w != 1 {
		t.Errorf("First(e+mark) = %q, %d", f, w)
	}
}

// pieces are characters of width 0 (a combining mark after a letter,
// ZWJ), 1 and 2, for generated strings.
var pieces = []string{"a", "Z", "_", ":", " ", "é", "e\u0301", "\u0301", "注", "意", "层", "🔥", "👍🏽", "👨\u200d💻", "ｱ", "…", "▁"}

// random returns a string of up to n pieces mixing widths 0, 1 and 2.
func random(r *rand.Rand, n int) string {
	var b strings.Builder
	for range r.IntN(n + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestCutProperty: on generated strings, Head and Tail are a prefix and a
// suffix, valid UTF-8, never wider than asked, and as wide as they can be
// (one more cluster would not fit); Head plus the rest is the string.
func TestCutProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 33))
	for range 3000 {
		s := random(r, 12)
		ws := Width(s)
		for w := 0; w <= ws+1; w++ {
			h, tl := Head(s, w), Tail(s, w)
			if !strings.HasPrefix(s, h) || !strings.HasSuffix(s, tl) || !utf8.ValidString(h) || !utf8.ValidString(tl) {
				t.Fatalf("Head/Tail(%q, %d) = %q, %q: not a valid prefix/suffix", s, w, h, tl)
			}
			if Width(h) > w || Width(tl) > w {
				t.Fatalf("Head/Tail(%q, %d) = %q (%d), %q (%d): wider than asked", s, w, h, Width(h), tl, Width(tl))
			}
			if rest := s[len(h):]; rest != "" {
				f, fw := First(rest)
				if Width(h)+fw <= w {
					t.Fatalf("Head(%q, %d) = %q leaves %q out that fits", s, w, h, f)
				}
			}
			if Width(h)+Width(s[len(h):]) != ws {
				t.Fatalf("Head(%q, %d) = %q splits a cluster: %d + %d != %d", s, w, h, Width(h), Width(s[len(h):]), ws)
			}
			if w >= ws && (h != s || tl != s) {
				t.Fatalf("Head/Tail(%q, %d) cut a string that fits", s, w)
			}
		}
	}
}
