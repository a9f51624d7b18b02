package cli

import (
	"strings"
	"testing"
)

// TestNaNRefused: every numeric flag, rule and size refuses NaN and Inf
// with a usage error naming it (issue 19: --fail-on-skew NaN turned the
// ranks gate off, --min-skew NaN gave a verdict from nothing).
func TestNaNRefused(t *testing.T) {
	s := "../../testdata/sample.pt.trace.json"
	for _, args := range [][]string{
		{"ranks", s, "--fail-on-skew", "NaN"},
		{"ranks", s, "--min-skew", "NaN"},
		{"ranks", s, "--min-skew", "nan%"},
		{"ranks", s, "--fail-on-skew", "Inf"},
		{"diff", s, s, "--alpha", "NaN"},
		{"diff", s, s, "--alpha", "+Inf"},
		{"diff", s, s, "--fail-on", "self_cuda>NaN%"},
		{"diff", s, s, "--fail-on", "self_cuda>10%&NaN"},
		{"check", s, "--max-gpu-idle", "NaN"},
		{"check", s, "--max", "total.gpu_idle_pct=NaN"},
		{"info", s, "--max-memory", "NaN"},
		{"info", s, "--max-memory", "NaNGB"},
		{"gaps", s, "--min-gap", "NaNus"},
	} {
		var out, errb strings.Builder
		code := Main(args, strings.NewReader(""), &out, &errb)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, ExitUsage, errb.String())
			continue
		}
		if !strings.Contains(strings.ToLower(errb.String()), "nan") && !strings.Contains(strings.ToLower(errb.String()), "inf") {
			t.Errorf("%v: the message does not name the value: %q", args, errb.String())
		}
	}
}
