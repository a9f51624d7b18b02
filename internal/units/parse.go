package units

import (
	"fmt"
	"strconv"
	"strings"
)

// DurForms names the forms ParseDur accepts, for error messages and help.
const DurForms = "a number with its unit: 500ns, 20us, 1.5ms or 2s"

var durUnits = []struct {
	suffix string
	ns     int64
}{{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}

// ParseDur reads a duration written with its unit (ns, us or µs, ms, s)
// as exact integer nanoseconds. A unit is always required: a bare number is
// refused rather than guessed. Negative durations are refused.
func ParseDur(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for _, u := range durUnits {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok || (u.suffix == "s" && (strings.HasSuffix(num, "n") || strings.HasSuffix(num, "u") || strings.HasSuffix(num, "m"))) {
			continue
		}
		ns, ok := decimalTimes(strings.TrimSpace(num), u.ns)
		if !ok {
			break
		}
		return ns, nil
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return 0, fmt.Errorf("%q has no unit: give %s", s, DurForms)
	}
	return 0, fmt.Errorf("%q is not a duration: give %s", s, DurForms)
}

// decimalTimes is the decimal text num (digits, at most one point) times
// scale, exactly, rounded half up to an integer; false when it is not such
// a number or overflows.
func decimalTimes(num string, scale int64) (int64, bool) {
	whole, frac, _ := strings.Cut(num, ".")
	if whole == "" && frac == "" {
		return 0, false
	}
	for _, part := range []string{whole, frac} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
	}
	var w int64
	if whole != "" {
		var err error
		if w, err = strconv.ParseInt(whole, 10, 64); err != nil || w > (1<<62)/scale {
			return 0, false
		}
	}
	ns := w * scale
	// the fraction: digit by digit, scale/10, scale/100, ...
	rem := int64(0)
	div := int64(1)
	for _, c := range frac {
		if div > 1e17 {
			break
		}
		div *= 10
		rem = rem*10 + int64(c-'0')
	}
	// rem/div * scale, rounded half up
	if div > 1 {
		ns += (rem*scale + div/2) / div
	}
	return ns, true
}
