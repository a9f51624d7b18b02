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
				viewGolden := filepath.Join(testenv.Root(), "internal", "render", g.view, "testdata", "golden", golden.FileName(name))
				want, err := os.ReadFile(viewGolden)
				switch {
				case code != 0 && out != "":
					t.Fatalf("exit %d, yet stdout holds %d bytes", code, len(out))
				case code != 0 && err == nil:
					t.Fatalf("exit %d, yet the view has a golden (%s)", code, viewGolden)
				case code == 0 && err != nil:
					t.Fatalf("exit 0, and the view has no golden: %v (run make golden)", err)
				case code == 0 && !golden.Updating() && strings.ReplaceAll(string(want), "\r\n", "\n") != out:
					os.WriteFile(viewGolden+".main", []byte(out), 0o644)
					t.Fatalf("Main's stdout is not the view's golden %s (see %s.main): the command builds the model or sets the view apart from what %s's TestGolden does", viewGolden, viewGolden, g.view)
				}
			})
		}
	}
}
