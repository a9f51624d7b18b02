package units

import "strconv"

// Dur formats integer nanoseconds for people the way torch's table scales
// times: "55.680us", "122.149ms", "1.234s", with three decimals and no space.
// It is exact (integer arithmetic, rounded half away from zero) and never
// prints "-0.000".
func Dur(ns int64) string {
	neg := ns < 0
	a := uint64(ns)
	if neg {
		a = uint64(-ns)
	}
	// q is the value in thousandths of the unit, rounded half away from zero
	q, unit := a, "us"
	if a >= 1e6 {
		q, unit = (a+500)/1e3, "ms"
		if q >= 1e6 {
			q, unit = (a+500000)/1e6, "s"
		}
	}
	if q == 0 {
		neg = false
	}
	s := strconv.FormatUint(q/1000, 10) + "." + pad3(q%1000) + unit
	if neg {
		return "-" + s
	}
	return s
}

// Pct formats a share in percent with two decimals and never "-0.00".
func Pct(p float64) string {
	s := strconv.FormatFloat(p, 'f', 2, 64)
	if s == "-0.00" {
		return "0.00"
	}
	return s
}

func pad3(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}
