package layout

import "strings"

// MdCode writes s as a Markdown code span that a GitHub table cell shows
// as written: the fence is one backtick longer than the longest run of
// backticks in s, a space pads a name that starts or ends with a backtick,
// and | is escaped (GFM splits cells before it reads code spans). An
// empty name is an empty cell.
func MdCode(s string) string {
	if s == "" {
		return ""
	}
	s = oneLine(s)
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// mdSpecial are the characters that Markdown could read as markup or HTML
// in running text or a table cell.
const mdSpecial = "\\`*_<>[]|~&"

// MdText escapes s for running Markdown text or a table cell: every
// character that could start markup, a tag or an entity gets a backslash
// (CommonMark shows an escaped ASCII punctuation character as itself).
func MdText(s string) string {
	s = oneLine(s)
	if !strings.ContainsAny(s, mdSpecial) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if r < 128 && strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// oneLine replaces line breaks, which would end a table row.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
