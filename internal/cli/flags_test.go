package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestFlagValueErrors: every value error names the flag and the forms it
// accepts; durations need a unit everywhere; typos get a suggestion.
func TestFlagValueErrors(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"table", "--srot", "count", sample}, 2, []string{"unknown flag --srot", "did you mean --sort?"}},
		{[]string{"gaps", "--min-gpa", "1ms", sample}, 2, []string{"did you mean --min-gap?"}},
		{[]string{"table", "--allow-truncatd", sample}, 2, []string{"did you mean --allow-truncated?"}},
		{[]string{"table", "--zzzzzz", sample}, 2, []string{"unknown flag --zzzzzz", "tracetab table --help"}},
		{[]string{"--zzzzzz"}, 2, []string{"unknown flag --zzzzzz for 'tracetab';", "see 'tracetab --help'"}},
		{[]string{"gaps", "--min-gap", "50", sample}, 2, []string{"--min-gap", "has no unit", "20us, 1.5ms"}},
		{[]string{"gaps", "--min-gap", "fast", sample}, 2, []string{"--min-gap", "not a duration", "20us, 1.5ms"}},
		{[]string{"gaps", "--min-gap", "50us", sample}, 0, nil},
		{[]string{"check", "--max-step-time", "25", sample}, 2, []string{"--max-step-time", "has no unit", "1.5ms"}},
		{[]string{"check", "--max-step-time", "1s", sample}, 0, nil},
		{[]string{"check", "--max-gpu-idle", "100%", sample}, 0, nil},
		{[]string{"check", "--max-gpu-idle", "100", sample}, 0, nil},
		{[]string{"check", "--max-gpu-idle", "forty", sample}, 2, []string{"--max-gpu-idle", "40 or 40%"}},
		{[]string{"check", "--max", "self_cuda_per_call=50", sample}, 2, []string{"has no unit"}},
		{[]string{"diff", sample, sample, "--fail-on", "self_cpu>50"}, 2, []string{"has no unit"}},
		{[]string{"table", "--limit", "x", sample}, 2, []string{"--limit \"x\"", "whole number"}},
		{[]string{"table", "--group-by-shape=maybe", sample}, 2, []string{"--group-by-shape", "true or false"}},
		{[]string{"table", sample, "--limit"}, 2, []string{"--limit needs a value", "whole number"}},
		{[]string{"version", "x"}, 2, []string{"takes no argument"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, stderr, code := run(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) {
	return 0, errors.New("write /dev/stdout: no space left on device")
}

// TestWriteErrorExit3: a failed write of the output is exit 3 with the OS
// error and no usage text, for every command.
func TestWriteErrorExit3(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	for _, args := range [][]string{{"info", sample}, {"table", sample}, {"table", "--format", "json", sample}, {"gaps", sample}, {"chain", sample}, {"version"}} {
		var errb bytes.Buffer
		code := Main(args, strings.NewReader(""), fullDisk{}, &errb)
		if code != ExitUnreadable || !strings.Contains(errb.String(), "cannot write the output: write /dev/stdout: no space left on device") ||
			strings.Contains(errb.String(), "--help") {
			t.Errorf("%v: exit %d %q", args, code, errb.String())
		}
	}
}

// TestHelpOrder: help lists the commands in the order of use.
func TestHelpOrder(t *testing.T) {
	out, _, code := run(t, "--help")
	if code != 0 {
		t.Fatal(code)
	}
	last := -1
	for _, c := range useOrder {
		i := strings.Index(out, "\n  "+c+" ")
		if i < 0 {
			if c == "compile" {
				continue // not merged yet
			}
			t.Fatalf("help lacks %s:\n%s", c, out)
		}
		if i < last {
			t.Errorf("%s listed out of order:\n%s", c, out)
		}
		last = i
	}
	if v := strings.Index(out, "\n  version "); v < last {
		t.Errorf("version should come after the analysis commands:\n%s", out)
	}
}
