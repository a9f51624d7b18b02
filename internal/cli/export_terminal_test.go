package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// smallJob writes n small generated ranks (each file differs, so none is
// exported as a duplicate of another) and returns their directory.
func smallJob(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for r := range n {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Config{Steps: 2, World: n, Rank: r}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("rank%02d.json", r)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// traceLines counts the per-trace lines of export's text (a line that
// starts with a path and names its trace id).
func traceLines(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ".json: trace ") {
			n++
		}
	}
	return n
}

// visible is what a terminal shows of s: each line's text after its last
// carriage return, escape sequences left out.
func visible(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		if l = ansi.ReplaceAllString(l, ""); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestExportAtTerminal: at a terminal of 80 columns export's lines fit
// it; a few traces get a line each, more than exportLinesMax a progress
// line on stderr (cleared at the end) and the total alone on stdout, a
// skipped file's warning on a line of its own; piped, every trace has its
// line.
func TestExportAtTerminal(t *testing.T) {
	few := smallJob(t, 2)
	out, errs, code := runPTY(t, 80, "export", "--to", t.TempDir(), few)
	if code != 0 || traceLines(out) != 2 || !strings.Contains(out, "exported 2 traces to ") {
		t.Errorf("two traces at a terminal: exit %d, %d trace lines:\n%s%s", code, traceLines(out), out, errs)
	}
	for _, l := range append(tooWide(out, 80), tooWide(errs, 80)...) {
		t.Errorf("80 columns: %s", l)
	}

	n := exportLinesMax + 5
	many := smallJob(t, n)
	if err := os.WriteFile(filepath.Join(many, "zz-broken.json"), []byte(`{"traceEvents": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runPTY(t, 80, "export", "--to", t.TempDir(), many)
	if code != ExitUnreadable || traceLines(out) != 0 || !strings.Contains(out, fmt.Sprintf("exported %d traces to ", n)) {
		t.Errorf("%d traces and a broken file at a terminal: exit %d, %d trace lines:\n%s", n+1, code, traceLines(out), out)
	}
	if !strings.Contains(errs, fmt.Sprintf("exporting: %d of %d traces (1 skipped)", n+1, n+1)) {
		t.Errorf("no final progress line on stderr:\n%q", errs)
	}
	// what stays on the terminal: the warning from the start of a line
	// (wrapped to the width), no progress line
	shown := visible(errs)
	warned := false
	for _, l := range shown {
		if strings.Contains(l, "exporting:") {
			t.Errorf("the progress line was left on the terminal: %q", l)
		}
		warned = warned || strings.HasPrefix(l, "tracetab: warning: skipped:")
	}
	if !warned || !strings.Contains(strings.Join(shown, " "), "zz-broken.json") {
		t.Errorf("the broken file's warning is not on lines of its own:\n%q", shown)
	}
	for _, l := range append(tooWide(out, 80), tooWide(errs, 80)...) {
		t.Errorf("80 columns: %s", l)
	}

	out, errs, code = run(t, "export", "--to", t.TempDir(), many)
	if code != ExitUnreadable || traceLines(out) != n || strings.Contains(errs, "exporting:") {
		t.Errorf("piped: exit %d, %d trace lines (want %d), progress on stderr: %v", code, traceLines(out), n, strings.Contains(errs, "exporting:"))
	}
}
