package units

import (
	"strings"
	"testing"
)

func TestParseDur(t *testing.T) {
	for in, want := range map[string]int64{
		"500ns": 500, "20us": 20000, "20µs": 20000, "1.5ms": 1500000, "2s": 2e9, "0.0005us": 1, "0.0004us": 0,
		" 25ms ": 25e6, "1.234567891s": 1234567891, "0s": 0, ".5ms": 500000,
	} {
		if got, err := ParseDur(in); err != nil || got != want {
			t.Errorf("ParseDur(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"25": "has no unit", "1.5": "has no unit", "-3ms": "not a duration", "ms": "not a duration",
		"3 parsecs": "not a duration", "1h": "not a duration", "1e3us": "not a duration", "": "not a duration",
	} {
		if _, err := ParseDur(in); err == nil || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), "1.5ms") {
			t.Errorf("ParseDur(%q): %v, want an error with %q naming the forms", in, err, msg)
		}
	}
}
