package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestSequenceViewRefusals: flags that do not apply are refused with exit
// 2; so is a trace without a sequence, in one line saying why.
func TestSequenceViewRefusals(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	for _, args := range [][]string{
		{"--by", "sequence", "--sort", "cpu_time_total"},
		{"--by", "sequence", "--min-len", "0"},
		{"--by", "sequence", "--top", "-1"},
		{"--by", "sequence", "--limit", "3"},
		{"--by", "sequence", "--match", "x"},
		{"--by", "sequence", "--steps", "1"},
		{"--min-len", "2"},
		{"--op", "aten::mm"},
		{"--by", "sequence", "--op", "no such op in any trace"},
		{"--by", "sequence", "--min-len", "100000"},
	} {
		_, stderr, code := run(t, append([]string{"table", sample}, args...)...)
		if code != ExitUsage || stderr == "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestSequenceViewSharedTraces: on the shared traces, --by sequence's JSON
// keeps the output contract and its text fits 80 columns, or the trace is
// refused with exit 2; at least five traces show sequences.
func TestSequenceViewSharedTraces(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	shown := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".tar.gz") {
			continue
		}
		out, stderr, code := run(t, "table", p, "--by", "sequence", "--format", "json", "--top", "0")
		switch code {
		case ExitOK:
			shown++
			if v := contractViolations([]byte(out)); len(v) > 0 {
				t.Errorf("%s breaks the output contract:\n  %s", filepath.Base(p), strings.Join(v, "\n  "))
			}
			text, _, _ := run(t, "table", p, "--by", "sequence", "--width", "80")
			for _, l := range strings.Split(text, "\n") {
				if layout.Width(l) > 80 {
					t.Errorf("%s: %d columns: %q", filepath.Base(p), layout.Width(l), l)
				}
			}
		case ExitUsage:
			if stderr == "" {
				t.Errorf("%s: exit 2 with nothing said", filepath.Base(p))
			}
		default:
			t.Errorf("%s: exit %d: %s", filepath.Base(p), code, stderr)
		}
	}
	if shown < 5 {
		t.Fatalf("%d shared traces show sequences, want at least 5", shown)
	}
}
