package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// docCommands are the tracetab command lines in the fenced blocks of the
// README and docs/*.md, as words: the leading "$ " and a "cat x |" left
// out, cut at a comment, a pipe or a redirection, continued lines joined.
// Lines built from shell variables ("$1", "$(...)") are left out.
func docCommands(t *testing.T) map[string][][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(testenv.Root(), "docs", "*.md"))
	files = append(files, filepath.Join(testenv.Root(), "README.md"))
	out := map[string][][]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in, cont := false, ""
		for _, l := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				in = !in
				continue
			}
			if !in {
				continue
			}
			l = cont + strings.TrimSpace(l)
			cont = ""
			if strings.HasSuffix(l, "\\") {
				cont = strings.TrimSuffix(l, "\\") + " "
				continue
			}
			l = strings.TrimPrefix(l, "$ ")
			if _, after, ok := strings.Cut(l, "| tracetab "); ok {
				l = "tracetab " + after
			}
			if !strings.HasPrefix(l, "tracetab ") || strings.Contains(l, "$1") || strings.Contains(l, "$(") {
				continue
			}
			for _, stop := range []string{" #", " |", " >"} {
				l, _, _ = strings.Cut(l, stop)
			}
			out[filepath.Base(f)] = append(out[filepath.Base(f)], shellWords(l)[1:])
		}
	}
	return out
}

// shellWords splits a line on spaces outside single or double quotes.
func shellWords(l string) []string {
	var words []string
	var w strings.Builder
	quote, inWord := rune(0), false
	for _, r := range l {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// TestDocsCommands: every tracetab command line the README and docs/*.md
// show names a command tracetab has and flags it takes, with values its
// flags accept (durations with their unit and the like). The README's
// excerpts run in full in TestReadmeExcerpts.
func TestDocsCommands(t *testing.T) {
	lines := docCommands(t)
	n := 0
	for file, ls := range lines {
		for _, args := range ls {
			n++
			root := newRoot(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
			root.InitDefaultHelpFlag()
			root.InitDefaultVersionFlag()
			cmd, rest, err := root.Find(args)
			if err != nil || (cmd == root && len(args) > 0 && !strings.HasPrefix(args[0], "-")) {
				t.Errorf("%s: tracetab %s: no such command (%v)", file, strings.Join(args, " "), err)
				continue
			}
			cmd.InitDefaultHelpFlag()
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("%s: tracetab %s: %v", file, strings.Join(args, " "), err)
			}
		}
	}
	if n < 40 || len(lines["README.md"]) < 6 || len(lines["commands.md"]) < 30 {
		t.Errorf("checked %d command lines (%d in the README, %d in docs/commands.md); the docs show more", n, len(lines["README.md"]), len(lines["commands.md"]))
	}
}

// sampleLacks are what the repository's sample does not record, by a word
// of the command line, and what the command says then (exit 2: nothing to
// show); on a trace that records it the line runs (see each command's tests).
var sampleLacks = map[string]string{
	"module":                 "has no nn.Module frames",
	"sequence":               "no sequence of at least 3 device ops",
	"triton_poi_fused_add_0": "no event is named",
}

// TestDocsCommandsRun runs every command line of the README and docs/*.md
// on the repository's sample: a trace file the docs name (x.json, x.json.gz)
// is the sample, "-" reads it from stdin, a folder of traces (x/) holds two
// copies of it, --dataset reads their export, the budget file is the one
// docs/ci.md shows, and what a command writes (-o, --to) goes to a fresh
// folder. Each must end as a command ends on a healthy trace: 0, or 1 for a
// failed check; or 2 with its message where the sample lacks what the line
// asks for (sampleLacks).
func TestDocsCommandsRun(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	raw, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	traces := t.TempDir()
	for _, n := range []string{"a.pt.trace.json", "b.pt.trace.json"} {
		os.WriteFile(filepath.Join(traces, n), raw, 0o644)
	}
	dataset := filepath.Join(t.TempDir(), "fleet")
	if _, stderr, code := run(t, "export", traces, "--to", dataset); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	budget := filepath.Join(t.TempDir(), "budget.yaml")
	os.WriteFile(budget, []byte(readmeBlock(t, "# perf/budget.yaml")), 0o644)
	n := 0
	for file, ls := range docCommands(t) {
		for _, args := range ls {
			line := make([]string, len(args))
			prev, lacks := "", ""
			for i, a := range args {
				if msg, ok := sampleLacks[a]; ok {
					lacks = msg
				}
				switch {
				case prev == "-o" || prev == "--to":
					a = filepath.Join(t.TempDir(), filepath.Base(a))
				case prev == "--dataset":
					a = dataset
				case prev == "--budget":
					a = budget
				case strings.HasSuffix(a, ".json") || strings.HasSuffix(a, ".json.gz"):
					if _, err := os.Stat(filepath.Join(testenv.Root(), a)); err != nil {
						a = sample
					} else {
						a = filepath.Join(testenv.Root(), a)
					}
				case strings.HasSuffix(a, "/") && !strings.HasPrefix(a, "-"):
					a = traces
				}
				line[i], prev = a, args[i]
			}
			n++
			var out, errb strings.Builder
			code := Main(line, strings.NewReader(string(raw)), &out, &errb)
			stderr := errb.String()
			switch {
			case lacks != "":
				if code != ExitUsage || !strings.Contains(stderr, lacks) {
					t.Errorf("%s: tracetab %s: exit %d, want 2 with %q: %s", file, strings.Join(args, " "), code, lacks, stderr)
				}
			case code != 0 && code != ExitCheck:
				t.Errorf("%s: tracetab %s: exit %d: %s", file, strings.Join(args, " "), code, stderr)
			}
		}
	}
	t.Logf("ran %d command lines", n)
	if n < 40 {
		t.Errorf("ran %d command lines; the docs show more", n)
	}
}
