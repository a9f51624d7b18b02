package crop

import (
	"unicode/utf8"
)

// appendClean appends the JSON value v, written as leniently as
// tracetab's reader accepts it, as strict JSON with the same meaning to
// that reader:
//   - raw control characters inside strings are escaped (\u001f);
//   - bytes that are not UTF-8 become U+FFFD, as the reader mends them;
//   - an escape JSON does not have (\x) becomes the character alone, as
//     the reader decodes it;
//   - a bare word that is not JSON (N/A, NaN, Infinity) becomes null: the
//     reader reads it as absent;
//   - a number JSON does not allow (+1, 1., .5) is quoted: the reader
//     reads numbers in strings as numbers.
//
// Everything else, white space included, is copied as it is.
func appendClean(dst, v []byte) []byte {
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '"':
			e := stringEnd(v, i)
			if e < 0 {
				e = len(v)
			}
			dst = appendCleanString(dst, v[i:e])
			i = e
		case isWordByte(c):
			j := i
			for j < len(v) && isWordByte(v[j]) {
				j++
			}
			dst = appendWord(dst, v[i:j])
			i = j
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// appendCleanString appends the string s (with its quotes).
func appendCleanString(dst, s []byte) []byte {
	clean := true
	for _, c := range s {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			clean = false
			break
		}
	}
	if clean || len(s) < 2 {
		return append(dst, s...)
	}
	in := s[1 : len(s)-1]
	dst = append(dst, '"')
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\' && i+1 < len(in):
			switch n := in[i+1]; n {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				dst = append(dst, c, n)
				i += 2
			case 'u':
				if i+6 <= len(in) && isHex4(in[i+2:i+6]) {
					dst = append(dst, in[i:i+6]...)
					i += 6
				} else {
					dst = append(dst, '\\', '\\', 'u')
					i += 2
				}
			default:
				i++ // the reader decodes \x as x
			}
		case c == '\\':
			dst = append(dst, '\\', '\\')
			i++
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&15])
			i++
		case c < 0x80:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && n <= 1 {
				dst = append(dst, "\uFFFD"...)
				i++
				continue
			}
			dst = append(dst, in[i:i+n]...)
			i += n
		}
	}
	return append(dst, '"')
}

const hexDigit = "0123456789abcdef"

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// appendWord appends a bare token: JSON's literals and numbers as they
// are, a number JSON does not allow quoted, any other word as null.
func appendWord(dst, w []byte) []byte {
	switch string(w) {
	case "true", "false", "null":
		return append(dst, w...)
	}
	if c := w[0]; c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' {
		if jsonNumber(w) {
			return append(dst, w...)
		}
		if numberLike(w) {
			dst = append(dst, '"')
			dst = append(dst, w...)
			return append(dst, '"')
		}
	}
	return append(dst, "null"...)
}

// jsonNumber reports whether w is a number in JSON's grammar.
func jsonNumber(w []byte) bool {
	i := 0
	if i < len(w) && w[i] == '-' {
		i++
	}
	switch {
	case i < len(w) && w[i] == '0':
		i++
	case i < len(w) && w[i] >= '1' && w[i] <= '9':
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(w) && w[i] == '.' {
		i++
		d := i
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(w) && (w[i] == 'e' || w[i] == 'E') {
		i++
		if i < len(w) && (w[i] == '+' || w[i] == '-') {
			i++
		}
		d := i
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(w)
}

// numberLike reports whether w is made of a number's characters (digits,
// sign, point, exponent): a number in a form JSON does not allow.
func numberLike(w []byte) bool {
	digits := false
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E':
		default:
			return false
		}
	}
	return digits
}
