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

// TestReportWritesWhole: the page is written under a temporary name and
// renamed into place (no other file is left beside it), a device such as
// /dev/null is written in place and stays a device, and a path that
// cannot be written is named as given.
func TestReportWritesWhole(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	if _, stderr, code := run(t, "report", testdata("sample.pt.trace.json"), "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 || names[0].Name() != "r.html" {
		t.Errorf("the directory holds %v, want r.html alone", names)
	}
	if st, err := os.Stat("/dev/null"); err == nil && st.Mode()&os.ModeDevice != 0 {
		if _, stderr, code := run(t, "report", testdata("sample.pt.trace.json"), "-o", "/dev/null"); code != 0 {
			t.Fatalf("-o /dev/null: exit %d: %s", code, stderr)
		}
		if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&os.ModeDevice == 0 {
			t.Fatalf("/dev/null is no longer a device: %v %v", st, err)
		}
	}
	missing := filepath.Join(dir, "no", "r.html")
	_, stderr, code := run(t, "report", testdata("sample.pt.trace.json"), "-o", missing)
	if code == 0 || !strings.Contains(stderr, missing) {
		t.Errorf("-o %s: exit %d, %q: want an error naming it", missing, code, stderr)
	}
}
