package cli

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// TestNumericFlagsRefused: every numeric flag of ranks, compile and diff
// refuses NaN, negative and out-of-range values with exit 2 and a message
// naming the flag (issue 19: --fail-on-skew NaN turned the gate off,
// --min-skew NaN gave a verdict).
func TestNumericFlagsRefused(t *testing.T) {
	p := genFile(t, "a.json", gen.Config{Steps: 2})
	for _, c := range [][]string{
		{"ranks", "--min-skew", "NaN"}, {"ranks", "--min-skew", "nan%"}, {"ranks", "--min-skew", "-1"}, {"ranks", "--min-skew", "101"},
		{"ranks", "--fail-on-skew", "NaN"}, {"ranks", "--fail-on-skew", "-5"}, {"ranks", "--fail-on-skew", "Inf"},
		{"ranks", "--top", "-1"}, {"ranks", "--width", "-2"}, {"ranks", "--top", "x"},
		{"compile", "--top", "-1"}, {"compile", "--width", "-2"}, {"compile", "--width", "NaN"},
		{"diff", "--alpha", "NaN"}, {"diff", "--alpha", "-0.1"}, {"diff", "--alpha", "1"}, {"diff", "--top", "-1"}, {"diff", "--width", "-2"},
		{"diff", "--limit", "NaN"}, {"diff", "--correct", "bonferroni"},
	} {
		args := append(append([]string(nil), c...), p)
		if c[0] == "diff" {
			args = append(args, p)
		}
		_, stderr, code := run(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, c[1]) {
			t.Errorf("%v: exit %d %q", c, code, stderr)
		}
	}
	// the values the flags document still work
	for _, c := range [][]string{{"ranks", "--min-skew", "0"}, {"ranks", "--min-skew", "5%"}, {"ranks", "--top", "0", "--width", "0"},
		{"compile", "--top", "0", "--width", "80"}, {"diff", "--limit", "-1", "--top", "0", "--width", "0", "--correct", "holm"}} {
		args := append(append([]string(nil), c...), p)
		if c[0] == "diff" {
			args = append(args, p)
		}
		if _, stderr, code := run(t, args...); code != 0 {
			t.Errorf("%v: exit %d %q", c, code, stderr)
		}
	}
}
