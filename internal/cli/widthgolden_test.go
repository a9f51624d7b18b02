package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/testenv"
)

// widthViews are the text views held to the width, one per command (and
// table's views); TRACE stands for the trace. view is the package under
// internal/render whose TestWidthGolden renders the same text on the
// model and holds its golden, width.<name>.<w>.golden.
var widthViews = []struct {
	name  string
	view  string
	args  []string
	trace string // the trace, when not testenv.WidthTraceName
}{
	{"info", "infoview", []string{"info", "TRACE"}, ""},
	{"table", "tableview", []string{"table", "TRACE", "--limit", "15"}, ""},
	{"table_kernel", "tableview", []string{"table", "TRACE", "--by", "kernel", "--limit", "15"}, ""},
	{"table_step", "tableview", []string{"table", "TRACE", "--by", "step"}, ""},
	{"table_category", "categoryview", []string{"table", "TRACE", "--by", "category"}, ""},
	{"table_sequence", "sequenceview", []string{"table", "TRACE", "--by", "sequence", "--top", "3"}, ""},
	{"table_module", "moduleview", []string{"table", "TRACE", "--by", "module", "--limit", "25"}, testenv.ModuleWidthTraceName},
	{"table_kernel_eff", "tableview", []string{"table", "TRACE", "--by", "kernel", "--limit", "15"}, testenv.ModuleWidthTraceName},
	{"gaps", "gapsview", []string{"gaps", "TRACE"}, ""},
	{"chain", "chainview", []string{"chain", "TRACE", "aten::conv2d", "--summary"}, ""},
	{"compile", "compileview", []string{"compile", "TRACE"}, ""},
	{"ranks", "ranksview", []string{"ranks", "TRACE"}, ""},
	{"critical-path", "critpathview", []string{"critical-path", "TRACE", "--step", "7"}, ""},
	{"memory", "memoryview", []string{"memory", "TRACE"}, ""},
	{"roofline", "rooflineview", []string{"roofline", "TRACE", "--limit", "15"}, ""},
	{"diff", "diffview", []string{"diff", "TRACE", "TRACE"}, ""},
	{"check", "diffview", []string{"check", "TRACE", "--max", "total.gpu_idle_pct=90", "--max", "total.step_time=10s"}, ""},
}

// TestWidthGoldens: the width contract of every text view, through Main
// at 80, 120 and 200 columns, in parallel: exit 0, no line wider than the
// width (wider widths never give a longer line than needed: the 200
// golden shows the uncut names), and stdout byte for byte the view's
// width golden (internal/render/<view>/testdata/golden/width.*, made by
// the view's own TestWidthGolden on the model, not through Main; read
// here, never written), so a command that builds its model or sets its
// view apart from that test fails.
func TestWidthGoldens(t *testing.T) {
	// the views print the path as given: given relative to this package,
	// the goldens hold the same text on every machine whose ../shared sits
	// beside the repository (elsewhere only the widths are checked)
	testenv.Shared(t)
	if _, shown, ok := testenv.WidthTrace(t, testenv.WidthTraceName); !ok {
		t.Logf("../shared is not beside the repository: widths checked, goldens not compared (%s)", shown)
	}
	for _, v := range widthViews {
		name := testenv.WidthTraceName
		if v.trace != "" {
			name = v.trace
		}
		abs, _, goldens := testenv.WidthTrace(t, name)
		path := abs
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil {
				path = rel
			}
		}
		for _, w := range golden.Widths {
			t.Run(fmt.Sprintf("%s/%d", v.name, w), func(t *testing.T) {
				t.Parallel()
				args := sweepLine(t, v.args, path, path)
				args = append(args, "--width", fmt.Sprint(w))
				out, stderr, code := run(t, args...)
				if code != ExitOK {
					t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
				}
				golden.CheckWidth(t, w, out)
				if goldens {
					holdToViewGolden(t, v.view, golden.WidthName(v.name, w), out)
				}
			})
		}
	}
}
