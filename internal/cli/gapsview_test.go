package cli

import (
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestGapsWidthAndSection: --width fits the text, --section picks one
// CSV or Markdown table, and bad values are usage errors naming the flag.
func TestGapsWidthAndSection(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	out, stderr, code := run(t, "gaps", "--width", "80", sample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if layout.Width(l) > 80 {
			t.Errorf("a line of %d at --width 80: %q", layout.Width(l), l)
		}
	}
	out, _, code = run(t, "gaps", "--format", "csv", "--section", "causes", sample)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(rows) < 2 || strings.Join(rows[0], ",") != "cause,idle_ns,share_pct,class" {
		t.Errorf("--section causes: exit %d, %v: %q", code, err, out)
	}
	out, _, _ = run(t, "gaps", "--format", "md", "--section", "startup", sample)
	if strings.Count(out, "### ") != 1 || !strings.Contains(out, "### One-time start-up calls") {
		t.Errorf("md --section prints one table:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"gaps", "--width", "20", sample}, "--width 20"},
		{[]string{"gaps", "--width", "-5", sample}, "--width -5"},
		{[]string{"gaps", "--section", "gaps", sample}, "--section picks one table of --format csv or md"},
		{[]string{"gaps", "--format", "csv", "--section", "nope", sample}, `--section "nope": want one of verdict, causes`},
	} {
		out, stderr, code := run(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.msg) || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.msg)
		}
	}
}
