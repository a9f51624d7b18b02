package parse

import (
	"math"
	"strconv"
)

// parseNs converts a decimal count of microseconds ("1712667379482818",
// "1419247332814.773", "-3", "1.5e3") to integer nanoseconds exactly, without
// passing through float64 unless the text has an exponent. frac reports
// whether the text had a fractional part.
func parseNs(w []byte) (ns int64, frac bool, ok bool) {
	if len(w) == 0 {
		return 0, false, false
	}
	neg := false
	i := 0
	if w[0] == '-' {
		neg = true
		i++
	} else if w[0] == '+' {
		i++
	}
	var us int64
	digits := 0
	for ; i < len(w) && w[i] >= '0' && w[i] <= '9'; i++ {
		if us > (math.MaxInt64/1000-9)/10 {
			return 0, false, false
		}
		us = us*10 + int64(w[i]-'0')
		digits++
	}
	var sub int64
	if i < len(w) && w[i] == '.' {
		i++
		frac = true
		scale := int64(100)
		for ; i < len(w) && w[i] >= '0' && w[i] <= '9'; i++ {
			if scale > 0 {
				sub += int64(w[i]-'0') * scale
				scale /= 10
			}
			digits++
		}
	}
	if i < len(w) && (w[i] == 'e' || w[i] == 'E') {
		f, err := strconv.ParseFloat(string(w), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 9e15 {
			return 0, false, false
		}
		return int64(math.Round(f * 1000)), f != math.Trunc(f), true
	}
	if i != len(w) || digits == 0 {
		return 0, false, false
	}
	ns = us*1000 + sub
	if neg {
		ns = -ns
	}
	return ns, frac, true
}

// parseInt converts a JSON integer; values beyond int64, fractions and words
// are reported as not ok.
func parseInt(w []byte) (int64, bool) {
	if len(w) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	if w[0] == '-' {
		neg = true
		i++
	}
	if i == len(w) {
		return 0, false
	}
	var v uint64
	for ; i < len(w); i++ {
		c := w[i]
		if c < '0' || c > '9' {
			if c == '.' || c == 'e' || c == 'E' {
				f, err := strconv.ParseFloat(string(w), 64)
				if err == nil && f == math.Trunc(f) && math.Abs(f) < 9e18 {
					return int64(f), true
				}
			}
			return 0, false
		}
		if v > (math.MaxInt64-9)/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		return -int64(v), true
	}
	return int64(v), true
}

// parseNano converts a decimal ("0.148", "100", "-2.5", "1e-3") to a
// fixed-point count of 1e-9 units (trace.Nano): exact for up to 9
// decimals, further digits are cut; text with an exponent passes through
// float64 and is rounded. Values beyond about ±9.2e9 are not ok.
func parseNano(w []byte) (int64, bool) {
	const nano = 1_000_000_000
	i, neg := 0, false
	if len(w) > 0 && (w[0] == '-' || w[0] == '+') {
		neg, i = w[0] == '-', 1
	}
	var whole, frac uint64
	digits, scale := 0, uint64(nano)
	for ; i < len(w) && w[i] >= '0' && w[i] <= '9'; i++ {
		if whole > math.MaxInt64/nano/10 {
			return 0, false
		}
		whole = whole*10 + uint64(w[i]-'0')
		digits++
	}
	if i < len(w) && w[i] == '.' {
		for i++; i < len(w) && w[i] >= '0' && w[i] <= '9'; i++ {
			if scale > 1 {
				scale /= 10
				frac += uint64(w[i]-'0') * scale
			}
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(w) {
		if w[i] != 'e' && w[i] != 'E' {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(w), 64)
		if err != nil || math.Abs(f) >= math.MaxInt64/nano {
			return 0, false
		}
		return int64(math.Round(f * nano)), true
	}
	v := int64(whole*nano + frac)
	if neg {
		v = -v
	}
	return v, true
}
