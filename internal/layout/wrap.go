package layout

import "strings"

// Wrap breaks prose into lines of at most width runes at spaces, each line
// after the first starting with indent; a word longer than a line (a file
// path, a kernel name) is cut in the middle to fit its line (names.Truncate
// keeps both ends). width <= 0 returns s as one line.
func Wrap(s string, width int, indent string) []string {
	if width <= 0 || Runes(s) <= width {
		return []string{s}
	}
	var lines []string
	var cur strings.Builder
	curLen := 0
	ind := Runes(indent)
	for _, word := range strings.Fields(s) {
		if room := width - ind; Runes(word) > room && room > 0 {
			word = truncate(word, room)
		}
		wl := Runes(word)
		switch {
		case curLen == 0:
			if len(lines) > 0 {
				cur.WriteString(indent)
				curLen = Runes(indent)
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
			curLen = Runes(indent) + wl
		}
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// Cut fits one name into width runes, cutting its middle (names.Truncate):
// for a name shown alone, outside a column.
func Cut(s string, width int) string { return truncate(s, width) }

// BreakWords is prefix, as it is, then s's words in lines of at most width
// columns, continuation lines starting with indent. Unlike Wrap, nothing
// is cut: a word wider than a line breaks inside it (stderr notes, help).
func BreakWords(prefix, s string, width int, indent string) []string {
	var lines []string
	line := []rune(prefix)
	fresh := true // nothing but the prefix or indent on the line yet
	flush := func() {
		lines = append(lines, string(line))
		line, fresh = []rune(indent), true
	}
	for _, word := range strings.Fields(s) {
		w := []rune(word)
		if !fresh && len(line)+1+len(w) > width {
			flush()
		}
		if !fresh {
			line = append(line, ' ')
		}
		for len(line)+len(w) > width && width > len(line) { // a word wider than a line breaks inside
			room := width - len(line)
			line = append(line, w[:room]...)
			w = w[room:]
			flush()
		}
		line = append(line, w...)
		fresh = false
	}
	if !fresh || len(lines) == 0 {
		lines = append(lines, string(line))
	}
	return lines
}
