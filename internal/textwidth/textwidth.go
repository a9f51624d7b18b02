// Package textwidth measures and cuts text in terminal columns (display
// width), not runes or bytes: 注意 takes four columns, 🔥 two, a combining
// accent none. Every text grid, pad, cut and wrap measures with it, so that
// op names from record_function labels, module names and file paths in any
// script line up.
//
// The width of a character comes from github.com/clipperhouse/displaywidth,
// the library tablewriter (kept for Markdown) measures cells with
// (tablewriter/pkg/twwidth), taken per grapheme cluster so that a cut never
// splits a character from its combining marks or an emoji sequence. An
// all-ASCII string, the common case, never reaches it: its width is its
// length. An ASCII control character counts one column, as it did when
// widths were counted in runes, so ASCII output is unchanged.
package textwidth

import "github.com/clipperhouse/displaywidth"

// Width is the number of terminal columns s takes.
func Width(s string) int {
	if ascii(s) {
		return len(s)
	}
	n := 0
	g := displaywidth.StringGraphemes(s)
	for g.Next() {
		n += clusterWidth(&g)
	}
	return n
}

// Head is the longest prefix of s, in whole grapheme clusters, at most w
// columns wide.
func Head(s string, w int) string {
	if w < 0 {
		return ""
	}
	if ascii(s) {
		return s[:min(w, len(s))]
	}
	end, used := 0, 0
	g := displaywidth.StringGraphemes(s)
	for g.Next() {
		cw := clusterWidth(&g)
		if used+cw > w {
			break
		}
		used += cw
		end += len(g.Value())
	}
	return s[:end]
}

// Tail is the longest suffix of s, in whole grapheme clusters, at most w
// columns wide.
func Tail(s string, w int) string {
	if w < 0 {
		return ""
	}
	if ascii(s) {
		return s[len(s)-min(w, len(s)):]
	}
	type cluster struct{ end, width int }
	var cs []cluster
	end := 0
	g := displaywidth.StringGraphemes(s)
	for g.Next() {
		end += len(g.Value())
		cs = append(cs, cluster{end, clusterWidth(&g)})
	}
	start, used := len(s), 0
	for i := len(cs) - 1; i >= 0; i-- {
		if used+cs[i].width > w {
			break
		}
		used += cs[i].width
		start = 0
		if i > 0 {
			start = cs[i-1].end
		}
	}
	return s[start:]
}

// First is s's first grapheme cluster and its width ("" and 0 for "").
func First(s string) (string, int) {
	if s == "" {
		return "", 0
	}
	if s[0] < 0x80 && (len(s) == 1 || s[1] < 0x80) {
		return s[:1], 1
	}
	g := displaywidth.StringGraphemes(s)
	g.Next()
	return g.Value(), clusterWidth(&g)
}

// clusterWidth is the width of the iterator's cluster; a lone byte (ASCII,
// control characters included) is one column, as in the ASCII fast path.
func clusterWidth(g *displaywidth.Graphemes[string]) int {
	if len(g.Value()) == 1 {
		return 1
	}
	return g.Width()
}

// ascii reports whether s is all ASCII bytes.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
