package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestReadmeFirstCommand: the excerpt the README shows under its first
// command is what that command prints, line for line.
func TestReadmeFirstCommand(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "The first command prints what the trace holds (excerpt):\n\n```\n")
	excerpt, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README has no excerpt of the first command's output")
	}
	wd, _ := os.Getwd()
	os.Chdir(testenv.Root())
	defer os.Chdir(wd)
	out, _, code := run(t, "info", "testdata/sample.pt.trace.json")
	if code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimRight(excerpt, "\n"), "\n")
	for _, l := range lines {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("README shows %q, info prints:\n%s", l, out)
		}
	}
	if len(lines) < 5 {
		t.Errorf("excerpt of %d lines", len(lines))
	}
}

// TestReadmeFormats: the table of which command takes which --format
// (moved from the README to docs/commands.md) is what the commands take: each listed format runs on the
// sample, and an unlisted one of the known formats is refused (exit 2).
func TestReadmeFormats(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "| command | `--format` |\n|---|---|\n")
	if !ok {
		t.Fatal("docs/commands.md has no table of formats")
	}
	table, _, _ := strings.Cut(rest, "\n\n")
	sample := testdata("sample.pt.trace.json")
	args := map[string][]string{
		"chain": {"aten::mm"}, "diff": {sample}, "check": {"--max-gpu-idle", "100"},
		"report": {"-o", "OUT.html"}, "crop": {"--step", "3", "-o", "OUT.json"}, "export": {"--to", "OUT"},
	}
	all := []string{"text", "md", "csv", "json", "junit", "html", "svg"}
	seen := map[string]bool{}
	for _, row := range strings.Split(table, "\n") {
		cells := strings.Split(row, "|")
		if len(cells) < 3 {
			t.Fatalf("a row of the formats table: %q", row)
		}
		cmds, formats := codeSpans(cells[1]), codeSpans(cells[2])
		for _, c := range cmds {
			seen[c] = true
			for _, f := range all {
				line := sweepLine(t, append(append([]string{c, "TRACE"}, args[c]...), "--format", f), sample, sample)
				_, stderr, code := run(t, line...)
				listed := slices.Contains(formats, f)
				switch {
				case listed && code == ExitUsage:
					t.Errorf("%s: the README lists --format %s, the command refuses it: %s", c, f, stderr)
				case !listed && code != ExitUsage:
					t.Errorf("%s: --format %s runs (exit %d), the README does not list it", c, f, code)
				}
			}
		}
	}
	for _, c := range useOrder {
		if !seen[c] {
			t.Errorf("the README's formats table has no row for %s", c)
		}
	}
}

// codeSpans are the `...` spans of a Markdown cell.
func codeSpans(cell string) []string {
	var out []string
	parts := strings.Split(cell, "`")
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// TestReadmeLength: the README reads in one sitting (issue 33): at most
// 250 lines; the reference lives in docs/.
func TestReadmeLength(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n > 250 {
		t.Errorf("README.md has %d lines, want at most 250", n)
	}
	for _, doc := range []string{"commands.md", "ci.md", "speed.md", "checks.md", "output.md", "schema.md", "fleet.md"} {
		if !strings.Contains(string(raw), "(docs/"+doc) {
			t.Errorf("README does not link docs/%s", doc)
		}
		if _, err := os.Stat(filepath.Join(testenv.Root(), "docs", doc)); err != nil {
			t.Errorf("docs/%s: %v", doc, err)
		}
	}
}
