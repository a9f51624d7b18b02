// Package rawjson is the tests' own reading of a trace, apart from the
// parser: a timestamp or duration as written (microseconds, a JSON number
// or a string) to whole nanoseconds by exact decimal arithmetic, an id as
// its text, and (read.go) a trace file's events decoded by encoding/json.
// Tests compute the truth with it.
package rawjson

import (
	"encoding/json"
	"fmt"
)

// Ns is v (microseconds, a json.Number or a string) in nanoseconds,
// truncated toward zero; 0 for anything else (absent, null, a bool).
func Ns(v any) (int64, error) {
	switch x := v.(type) {
	case json.Number:
		return NsText(x.String())
	case string:
		return NsText(x)
	}
	return 0, nil
}

// NsText is the decimal text s (microseconds: an optional sign, digits
// with an optional point, an optional exponent such as e3 or E-2) in
// nanoseconds, truncated toward zero, by integer arithmetic on its
// digits. Anything else, or a value outside int64, is an error.
func NsText(s string) (int64, error) {
	n, _, err := nsText(s)
	return n, err
}

// nsText is NsText, also saying whether the value is a whole number of
// nanoseconds (nothing was cut).
func nsText(s string) (int64, bool, error) {
	bad := func(why string) (int64, bool, error) { return 0, false, fmt.Errorf("bad number %q: %s", s, why) }
	i, neg := 0, false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	// the digits, without the point; frac counts those after it
	var digits []byte
	var buf [40]byte
	digits = buf[:0]
	seen, frac, point := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seen++
			if c == '0' && len(digits) == 0 {
				// a leading zero adds nothing, but still counts as a fraction digit
			} else {
				digits = append(digits, c)
			}
			if point {
				frac++
			}
			continue
		case c == '.' && !point:
			point = true
			continue
		}
		break
	}
	if seen == 0 {
		return bad("no digits")
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			eneg = s[i] == '-'
			i++
		}
		n := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			n++
			if exp > 100000 {
				return bad("exponent out of range")
			}
			exp = exp*10 + int(s[i]-'0')
		}
		if n == 0 {
			return bad("no exponent digits")
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(s) {
		return bad("not a decimal number")
	}
	if len(digits) == 0 {
		return 0, true, nil
	}
	// value = digits * 10^(3 + exp - frac) ns: drop digits (truncation
	// toward zero) or append zeros
	shift := 3 + exp - frac
	exact := true
	if shift < 0 {
		if -shift >= len(digits) {
			return 0, false, nil // digits holds no leading zero: a nonzero value cut to 0
		}
		for _, c := range digits[len(digits)+shift:] {
			exact = exact && c == '0'
		}
		digits = digits[:len(digits)+shift]
		shift = 0
	}
	if len(digits)+shift > 19 {
		return bad("outside int64 nanoseconds")
	}
	var v uint64
	for _, c := range digits {
		v = v*10 + uint64(c-'0')
	}
	for ; shift > 0; shift-- {
		v *= 10
	}
	const maxAbs = 1 << 63
	if v > maxAbs-1 && !(neg && v == maxAbs) {
		return bad("outside int64 nanoseconds")
	}
	if neg {
		return int64(-v), exact, nil
	}
	return int64(v), exact, nil
}

// ID is an id as written: a number's digits or a string; "" otherwise.
func ID(v any) string {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case string:
		return x
	}
	return ""
}
