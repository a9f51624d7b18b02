package compile

// The regular expressions of Family and isTax ran once per kernel and
// once per CPU event and its parents: 8.6% of internal/cli's test CPU
// (profile of the whole package, 2026-12-07), where the same few hundred
// names repeat over every step. The summarizer asks each name (pair) once.

// family is Family, remembered per kernel and op name.
func (m *summarizer) family(kernel, op string) string {
	k := [2]string{kernel, op}
	if f, ok := m.families[k]; ok {
		return f
	}
	f := Family(kernel, op)
	m.families[k] = f
	return f
}

// isTax is isTax, remembered per name.
func (m *summarizer) isTax(name string) bool {
	if v, ok := m.taxNames[name]; ok {
		return v
	}
	v := isTax(name)
	m.taxNames[name] = v
	return v
}
