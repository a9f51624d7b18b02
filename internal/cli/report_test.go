package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportUsage: what report refuses, with the documented exit codes and
// a message that names what is wrong; -o - writes the page to stdout.
func TestReportUsage(t *testing.T) {
	t.Parallel()
	sample := testdata("sample.pt.trace.json")
	dir := t.TempDir()
	nosteps := filepath.Join(dir, "nosteps.json")
	os.WriteFile(nosteps, []byte(`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":5,"dur":2}]}`), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", sample, "--step", "99", "-o", filepath.Join(dir, "a.html")}, 2, "no step 99; steps are 2-5"},
		{[]string{"report", sample, "--step", "x"}, 2, `--step "x"`},
		{[]string{"report", sample, "--format", "pdf"}, 2, "use html, svg"},
		{[]string{"report", sample, "--max-events", "0"}, 2, "--max-events"},
		{[]string{"report", nosteps, "--format", "svg"}, 2, "no ProfilerStep#N"},
		{[]string{"report", nosteps, "--step", "1"}, 2, "no ProfilerStep annotations"},
		{[]string{"report", sample, "-o", filepath.Join(dir, "no", "such", "dir", "r.html")}, 3, "cannot write the output"},
		{[]string{"report", filepath.Join(dir, "missing.json")}, 3, "missing.json"},
		{[]string{"report"}, 2, ""},
	} {
		out, stderr, code := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q), %d bytes out", c.args, code, c.code, stderr, c.want, len(out))
		}
	}
	out, stderr, code := run(t, "report", sample, "-o", "-")
	if code != 0 || !strings.HasPrefix(out, "<!DOCTYPE html>") || strings.Contains(stderr, "wrote") {
		t.Errorf("-o -: exit %d, %q..., stderr %q", code, out[:min(len(out), 40)], stderr)
	}
	out, _, code = run(t, "report", sample, "--format", "svg")
	if code != 0 || !strings.HasPrefix(out, `<svg xmlns="http://www.w3.org/2000/svg"`) {
		t.Errorf("--format svg: exit %d, %q...", code, out[:min(len(out), 60)])
	}
	out, stderr, code = run(t, "report", nosteps, "-o", filepath.Join(dir, "n.html"))
	if code != 0 || !strings.Contains(stderr, "no step chart") || !strings.Contains(stderr, "wrote "+filepath.Join(dir, "n.html")) {
		t.Errorf("a trace without steps: exit %d, stderr %q", code, stderr)
	}
}
