package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTruncationMessage: a truncated trace gets one line naming the file,
// the offset and the flag; with the flag given, no line names it again.
func TestTruncationMessage(t *testing.T) {
	dir := t.TempDir()
	cutKeys := filepath.Join(dir, "cut-keys.json")
	text := `{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1}],"traceNa`
	os.WriteFile(cutKeys, []byte(text), 0o644)
	at := "byte " + itoa(len(text))
	_, stderr, code := run(t, "info", cutKeys)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != ExitUnreadable || len(lines) != 1 || !strings.Contains(lines[0], "cut-keys.json: "+at) || !strings.Contains(lines[0], "--allow-truncated") {
		t.Fatalf("exit %d, stderr %q: want exit 3 and one line with the file, offset and flag", code, stderr)
	}
	_, stderr, code = run(t, "info", "--allow-truncated", cutKeys)
	if code != ExitOK || !strings.Contains(stderr, "truncated at "+at) || strings.Contains(stderr, "--allow-truncated") {
		t.Fatalf("with the flag: exit %d, stderr %q", code, stderr)
	}
}

// TestDiffStdinTwice: diff - - is a usage error, not an empty second side.
func TestDiffStdinTwice(t *testing.T) {
	_, stderr, code := run(t, "diff", "-", "-")
	if code != ExitUsage || !strings.Contains(stderr, "standard input") {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
}
