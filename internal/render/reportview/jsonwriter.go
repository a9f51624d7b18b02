package reportview

import (
	"math/bits"
	"slices"
	"unicode/utf8"
)

// jsonWriter appends JSON as encoding/json's Marshal writes it: numbers
// in decimal, strings with its escapes (HTML's <, > and & as \u003c,
// \u003e and \u0026, U+2028 and U+2029 escaped, invalid UTF-8 as
// \ufffd), a nil list as null. The page's data is written with it
// (Page.data) without reflection or intermediate lists.
type jsonWriter struct{ b []byte }

func (w *jsonWriter) raw(s string) { w.b = append(w.b, s...) }

func (w *jsonWriter) int(v int64) { w.b = appendInt(w.b, v) }

// appendInt is strconv.AppendInt(b, v, 10), two digits at a time, in
// place: the page's data is some 700,000 numbers, and strconv's general
// path took 86 instructions per number (cachegrind, 20 MB export-shape
// trace: 56 M).
//
// Most of the numbers are below 100 (rows, kinds, percents, counts, most
// deltas): those are one append of one or two bytes; the others check the
// room for their digits before calling slices.Grow (appendInt 38 M to 30 M
// instructions on the 20 MB export-shape trace, cachegrind).
func appendInt(b []byte, v int64) []byte {
	if uint64(v) < 100 {
		if v < 10 {
			return append(b, byte('0'+v))
		}
		return append(b, twoDigits[2*v], twoDigits[2*v+1])
	}
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	// digits: floor(log10(u)) + 1, from the bit length (1233/4096 is
	// just above log10(2)), one too few at most
	n := bits.Len64(u) * 1233 >> 12
	if u >= pow10[n] {
		n++
	}
	if v < 0 {
		n++
	}
	l := len(b)
	if cap(b)-l < n {
		b = slices.Grow(b, n)
	}
	b = b[:l+n]
	i := l + n
	for u >= 100 {
		q := u / 100
		r := u - q*100
		i -= 2
		b[i], b[i+1] = twoDigits[2*r], twoDigits[2*r+1]
		u = q
	}
	if u >= 10 {
		i -= 2
		b[i], b[i+1] = twoDigits[2*u], twoDigits[2*u+1]
	} else {
		i--
		b[i] = byte('0' + u)
	}
	if v < 0 {
		b[l] = '-'
	}
	return b
}

var pow10 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

const twoDigits = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// sep writes the comma before a list's element or an object's field
// when it is not the first.
func (w *jsonWriter) sep(more bool) {
	if more {
		w.b = append(w.b, ',')
	}
}

// ints writes a list of integers (null when nil).
func ints[T int64 | int32 | int16 | int8 | int | uint16](w *jsonWriter, xs []T) {
	if xs == nil {
		w.raw(`null`)
		return
	}
	w.b = append(w.b, '[')
	for i, v := range xs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendInt(w.b, int64(v))
	}
	w.b = append(w.b, ']')
}

// delta writes the list of the differences of each element to the one
// before (the first to 0); an empty list (nil too) is [].
func (w *jsonWriter) delta(xs []int64) {
	w.b = append(w.b, '[')
	prev := int64(0)
	for i, v := range xs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendInt(w.b, v-prev)
		prev = v
	}
	w.b = append(w.b, ']')
}

// strs writes a list of strings (null when nil).
func (w *jsonWriter) strs(xs []string) {
	if xs == nil {
		w.raw(`null`)
		return
	}
	w.b = append(w.b, '[')
	for i, s := range xs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.str(s)
	}
	w.b = append(w.b, ']')
}

const hexDigits = "0123456789abcdef"

// str writes s as a JSON string, with encoding/json's escapes (its
// appendString with escapeHTML).
func (w *jsonWriter) str(s string) {
	b := append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	w.b = append(b, '"')
}
