// Package units formats numbers for people: durations, bytes, percentages.
package units

import (
	"fmt"
	"strconv"
)

// Micros formats a duration in microseconds with a unit that fits.
func Micros(us float64) string {
	a := us
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(us/1e6, 'f', 3, 64) + " s"
	case a >= 1e3:
		return strconv.FormatFloat(us/1e3, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(us, 'f', 3, 64) + " us"
}

// Bytes formats a byte count with a binary unit.
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Plural is "1 event" or "N events": the count with the word that fits it.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
