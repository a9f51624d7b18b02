package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestReadmeExcerpts: every fenced block of the README that starts with
// "$ tracetab ..." shows what that command prints today, line for line and
// one after the other (a line "..." stands for lines left out), and exits as the
// README says (1 only for check).
func TestReadmeExcerpts(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	os.Chdir(testenv.Root())
	defer os.Chdir(wd)
	blocks := regexp.MustCompile("(?s)```\n\\$ tracetab ([^\n]*)\n(.*?)```").FindAllStringSubmatch(string(raw), -1)
	if len(blocks) < 4 {
		t.Fatalf("the README shows %d commands with their output, want at least 4 (table, gaps, chain, check)", len(blocks))
	}
	for _, b := range blocks {
		args := strings.Fields(b[1])
		t.Run(args[0], func(t *testing.T) {
			stdout, stderr, code := run(t, args...)
			want := 0
			if args[0] == "check" {
				want = ExitCheck
			}
			if code != want {
				t.Fatalf("exit %d, want %d: %s", code, want, stderr)
			}
			got := strings.Split(stdout+stderr, "\n")
			i, skip := 0, true // the excerpt may start anywhere; after that, lines follow on
			for _, l := range strings.Split(strings.TrimRight(b[2], "\n"), "\n") {
				if l == "..." {
					skip = true
					continue
				}
				for skip && i < len(got) && got[i] != l {
					i++
				}
				if i == len(got) || got[i] != l {
					t.Fatalf("the README shows %q; the command prints:\n%s%s", l, stdout, stderr)
				}
				i, skip = i+1, false
			}
		})
	}
}
