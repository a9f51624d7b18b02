package layout

import (
	"strings"

	"github.com/tracetab/tracetab/internal/textwidth"
)

// Wrap breaks prose into lines of at most width columns at spaces, each line
// after the first starting with indent; a word longer than a line (a file
// path, a kernel name) is cut in the middle to fit its line (names.Truncate
// keeps both ends). width <= 0 returns s as one line.
func Wrap(s string, width int, indent string) []string {
	if width <= 0 || Width(s) <= width {
		return []string{s}
	}
	var lines []string
	var cur strings.Builder
	curLen := 0
	ind := Width(indent)
	for _, word := range strings.Fields(s) {
		if room := width - ind; Width(word) > room && room > 0 {
			word = truncate(word, room)
		}
		wl := Width(word)
		switch {
		case curLen == 0:
			if len(lines) > 0 {
				cur.WriteString(indent)
				curLen = Width(indent)
			}
			cur.WriteString(word)
			curLen += wl
		case curLen+1+wl <= width:
			cur.WriteByte(' ')
			cur.WriteString(word)
			curLen += 1 + wl
		default:
			lines = append(lines, cur.String())
			cur.Reset()
			cur.WriteString(indent)
			cur.WriteString(word)
			curLen = Width(indent) + wl
		}
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// Cut fits one name into width columns, cutting its middle (names.Truncate):
// for a name shown alone, outside a column.
func Cut(s string, width int) string { return truncate(s, width) }

// BreakWords is prefix, as it is, then s's words in lines of at most width
// columns, continuation lines starting with indent. Unlike Wrap, nothing
// is cut: a word wider than a line breaks inside it, between characters
// (stderr notes, help). Only a character wider than a whole line (a wide
// one in a line with room for one column) stands on a line alone, wider
// than asked.
func BreakWords(prefix, s string, width int, indent string) []string {
	var lines []string
	var line strings.Builder
	line.WriteString(prefix)
	used := Width(prefix)
	fresh := true // nothing but the prefix or indent on the line yet
	flush := func() {
		lines = append(lines, line.String())
		line.Reset()
		line.WriteString(indent)
		used, fresh = Width(indent), true
	}
	for _, word := range strings.Fields(s) {
		ww := Width(word)
		if !fresh && used+1+ww > width {
			flush()
		}
		if !fresh {
			line.WriteByte(' ')
			used++
		}
		for used+ww > width && width > used { // a word wider than a line breaks inside
			part := textwidth.Head(word, width-used)
			if part == "" { // its next character is wider than the room left
				if !fresh {
					flush()
					continue
				}
				part, _ = textwidth.First(word)
			}
			line.WriteString(part)
			word = word[len(part):]
			ww -= Width(part)
			fresh = false
			if word == "" {
				break
			}
			flush()
		}
		line.WriteString(word)
		used += ww
		fresh = false
	}
	if !fresh || len(lines) == 0 {
		lines = append(lines, line.String())
	}
	return lines
}
