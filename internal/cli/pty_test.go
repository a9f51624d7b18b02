package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/tracetab/tracetab/internal/testenv"
)

// runPTY runs tracetab with stdout and stderr on two pseudo-terminals of
// the given width, as a person at a terminal does (no --width): the
// commands find the width themselves.
func runPTY(t *testing.T, cols int, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var outs [2]bytes.Buffer
	var ttys, masters [2]*os.File
	var wg sync.WaitGroup
	for k := range 2 {
		m, s, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		if err := pty.Setsize(m, &pty.Winsize{Cols: uint16(cols), Rows: 50}); err != nil {
			t.Fatal(err)
		}
		masters[k], ttys[k] = m, s
		wg.Add(1)
		go func() { defer wg.Done(); io.Copy(&outs[k], m) }()
	}
	code = Main(args, strings.NewReader(""), ttys[0], ttys[1])
	for k := range 2 {
		ttys[k].Close()
	}
	wg.Wait()
	for k := range 2 {
		masters[k].Close()
	}
	clean := func(b bytes.Buffer) string { return strings.ReplaceAll(b.String(), "\r\n", "\n") }
	return clean(outs[0]), clean(outs[1]), code
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// tooWide lists the lines of s wider than cols (display columns: runes,
// escape sequences and carriage-return progress left out).
func tooWide(s string, cols int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		l = ansi.ReplaceAllString(l, "")
		if n := utf8.RuneCountInString(l); n > cols {
			out = append(out, fmt.Sprintf("%d columns: %s", n, l))
		}
	}
	return out
}

// Every command on every shared trace, and every command's --help, under a
// real pseudo-terminal of 80 and 120 columns: no line of stdout or stderr
// is wider than the terminal.
func TestPTYWidths(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	if len(files) < 20 {
		t.Fatalf("want the shared traces, found %d", len(files))
	}
	cmds := []string{"", "info", "table", "gaps", "chain", "critical-path", "compile", "ranks", "roofline", "memory", "report", "diff", "check", "trend", "crop", "export", "version"}
	for _, cols := range []int{80, 120} {
		for _, c := range cmds {
			args := []string{"--help"}
			if c != "" {
				args = []string{c, "--help"}
			}
			out, errs, _ := runPTY(t, cols, args...)
			for _, l := range append(tooWide(out, cols), tooWide(errs, cols)...) {
				t.Errorf("%d columns: tracetab %s --help: %s", cols, c, l)
			}
		}
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			js, _, _ := run(t, "table", f, "--format", "json", "--limit", "1", "--sort", "cpu_time_total")
			var doc struct {
				Rows []struct {
					Name string `json:"name"`
				} `json:"rows"`
			}
			json.Unmarshal([]byte(js), &doc)
			op := "aten::mm"
			if len(doc.Rows) > 0 {
				op = doc.Rows[0].Name
			}
			html := filepath.Join(t.TempDir(), "r.html")
			runs := [][]string{
				{"info", f}, {"table", f}, {"table", f, "--by", "kernel"}, {"table", f, "--by", "step"},
				{"table", f, "--by", "module"}, {"table", f, "--by", "category"}, {"table", f, "--by", "sequence"}, {"gaps", f}, {"chain", f, op}, {"critical-path", f},
				{"compile", f}, {"ranks", f}, {"roofline", f}, {"memory", f}, {"diff", f, f}, {"report", f, "-o", html},
			}
			for _, cols := range []int{80, 120} {
				for _, args := range runs {
					out, errs, _ := runPTY(t, cols, args...)
					for _, l := range tooWide(out, cols) {
						t.Errorf("%d columns: tracetab %s: stdout: %s", cols, strings.Join(args[:1], " "), l)
					}
					for _, l := range tooWide(errs, cols) {
						t.Errorf("%d columns: tracetab %s: stderr: %s", cols, strings.Join(args[:1], " "), l)
					}
				}
			}
		})
	}
}
