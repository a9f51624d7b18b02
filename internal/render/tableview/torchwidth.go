package tableview

import (
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/textwidth"
)

// cols is how torch's layout measures and cuts a cell: in terminal columns
// (display width), so that wide names (注意力层, 🔥matmul) line up; or, with
// --torch-exact, in code points as Python's str.format and slicing count
// them, for torch's bytes (wide names then misalign as they do in torch).
type cols struct{ exact bool }

func (c cols) width(s string) int {
	if c.exact {
		return utf8.RuneCountInString(s)
	}
	return textwidth.Width(s)
}

// head is the longest prefix of s at most n wide.
func (c cols) head(s string, n int) string {
	if !c.exact {
		return textwidth.Head(s, n)
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// tail is the longest suffix of s at most n wide.
func (c cols) tail(s string, n int) string {
	if !c.exact {
		return textwidth.Tail(s, n)
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[len(r)-min(n, len(r)):])
}

// trimPath is torch's source cell: a path wider than w keeps its last w
// columns, the first three of them "...".
func (c cols) trimPath(p string, w int) string {
	if c.width(p) <= w {
		return p
	}
	if w <= 3 {
		return c.tail(p, w)
	}
	return "..." + c.tail(p, w-3)
}
