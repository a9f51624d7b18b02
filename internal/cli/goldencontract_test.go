package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/testenv"
)

// goldenRun is one command line of the contract goldens, and the view
// package whose golden holds its standard output.
type goldenRun struct {
	suffix string // the golden's name after the trace's
	view   string // internal/render/<view>
	args   []string
}

var goldenRuns = []goldenRun{
	{"info", "infoview", []string{"info"}},
	{"table", "tableview", []string{"table"}},
	{"table_--by_kernel", "tableview", []string{"table", "--by", "kernel"}},
	{"table_--by_step", "tableview", []string{"table", "--by", "step"}},
	{"table_--format_json", "tableview", []string{"table", "--format", "json"}},
	{"gaps", "gapsview", []string{"gaps"}},
	{"chain", "chainview", []string{"chain"}},
	{"chain_up_all_json", "chainview", []string{"chain", "--regex", ".", "--up", "--all", "--format", "json"}},
	{"chain_up_summary", "chainview", []string{"chain", "--regex", ".", "--up", "--summary"}},
	{"chain_mm_summary", "chainview", []string{"chain", "aten::mm", "--summary"}},
	{"chain_mm_depth1", "chainview", []string{"chain", "aten::matmul", "--depth", "1", "--instance", "2"}},
}

// TestGoldenContract: the command line's contract on the repository's
// traces, through Main, in parallel. testdata/golden holds each run's
// exit code and standard error (notes, warnings, the refusal); the
// standard output of a run that exits 0 is exactly the view's golden
// (internal/render/<view>/testdata/golden, made by the view's own
// TestGolden on the model, not through Main), and a refusal prints
// nothing on it.
func TestGoldenContract(t *testing.T) {
	for _, f := range testenv.RepoTraces(t) {
		for _, g := range goldenRuns {
			name := testenv.RepoBase(f) + "." + g.suffix + ".golden"
			args := append([]string{g.args[0], "--allow-truncated", f}, g.args[1:]...)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				out, stderr, code := run(t, args...)
				out, stderr = testenv.Unroot(out), testenv.Unroot(stderr)
				if code == 0 && g.args[len(g.args)-1] == "json" && g.view == "chainview" {
					var v map[string]any
					if err := json.Unmarshal([]byte(out), &v); err != nil || v["schema"] != "tracetab.chain/2" {
						t.Fatalf("not chain/2 JSON: %v\n%s", err, out)
					}
				}
				golden.Check(t, testenv.Root(), name, "exit "+itoa(code)+"\n-- stderr --\n"+stderr)
				switch {
				case code != 0 && out != "":
					t.Fatalf("exit %d, yet stdout holds %d bytes", code, len(out))
				case code != 0:
					noViewGolden(t, g.view, name)
				default:
					holdToViewGolden(t, g.view, name, out)
				}
			})
		}
	}
}

// viewGoldenPath is where a view's golden lives.
func viewGoldenPath(view, name string) string {
	return filepath.Join(testenv.Root(), "internal", "render", view, "testdata", "golden", golden.FileName(name))
}

// holdToViewGolden fails unless out, a command's stdout through Main, is
// byte for byte the view's golden (made by the view's own test on the
// model): a command that builds its model or sets its view apart from the
// view's test fails here. The cli tests read the views' goldens, never
// write them (under make golden the views' tests do).
func holdToViewGolden(t *testing.T, view, name, out string) {
	t.Helper()
	path := viewGoldenPath(view, name)
	want, err := os.ReadFile(path)
	switch {
	case err != nil:
		t.Fatalf("the view has no golden: %v (run make golden)", err)
	case golden.Updating():
	case strings.ReplaceAll(string(want), "\r\n", "\n") != out:
		os.WriteFile(path+".main", []byte(out), 0o644)
		t.Fatalf("Main's stdout is not the view's golden %s (see %s.main): the command builds the model or sets the view apart from what %s's test does", path, path, view)
	}
}

// noViewGolden fails when a view has a golden for a run that exits
// non-zero (and prints nothing).
func noViewGolden(t *testing.T, view, name string) {
	t.Helper()
	if _, err := os.Stat(viewGoldenPath(view, name)); err == nil {
		t.Fatalf("the command refuses, yet the view has a golden (%s)", viewGoldenPath(view, name))
	}
}
