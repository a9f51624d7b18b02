package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/testenv"
)

// widthTrace is a real trace that every text view has something to show
// for: six profiler steps, kernels and memcpys, recorded shapes and
// [memory] records (the TensorBoard plugin's resnet50 sample).
const widthTrace = "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"

// moduleWidthTrace is a real trace recorded with module frames and the
// kernels' efficiency args (TraceLens' BERT on an H100): the module view,
// and the kernel view with its TC, Blk/SM and Occ% columns.
const moduleWidthTrace = "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz"

// widthViews are the text views held to the width, one per command (and
// table's views); TRACE stands for the trace.
var widthViews = []struct {
	name  string
	args  []string
	trace string // the trace, when not widthTrace
}{
	{"info", []string{"info", "TRACE"}, ""},
	{"table", []string{"table", "TRACE", "--limit", "15"}, ""},
	{"table_kernel", []string{"table", "TRACE", "--by", "kernel", "--limit", "15"}, ""},
	{"table_step", []string{"table", "TRACE", "--by", "step"}, ""},
	{"table_category", []string{"table", "TRACE", "--by", "category"}, ""},
	{"table_sequence", []string{"table", "TRACE", "--by", "sequence", "--top", "3"}, ""},
	{"table_module", []string{"table", "TRACE", "--by", "module", "--limit", "25"}, moduleWidthTrace},
	{"table_kernel_eff", []string{"table", "TRACE", "--by", "kernel", "--limit", "15"}, moduleWidthTrace},
	{"gaps", []string{"gaps", "TRACE"}, ""},
	{"chain", []string{"chain", "TRACE", "aten::conv2d", "--summary"}, ""},
	{"compile", []string{"compile", "TRACE"}, ""},
	{"ranks", []string{"ranks", "TRACE"}, ""},
	{"critical-path", []string{"critical-path", "TRACE", "--step", "7"}, ""},
	{"memory", []string{"memory", "TRACE"}, ""},
	{"roofline", []string{"roofline", "TRACE", "--limit", "15"}, ""},
	{"diff", []string{"diff", "TRACE", "TRACE"}, ""},
	{"check", []string{"check", "TRACE", "--max", "total.gpu_idle_pct=90", "--max", "total.step_time=10s"}, ""},
}

// TestWidthGoldens: every command's text on a real trace at 80, 120 and
// 200 columns has no line wider than the width (wider widths never give
// a longer line than needed: the 200 golden shows the uncut names), and
// is kept as a golden file (testdata/golden/width.*), so a layout change
// is read in review.
func TestWidthGoldens(t *testing.T) {
	// the views print the path as given: given relative to this package,
	// the goldens hold the same text on every machine whose ../shared sits
	// beside the repository (elsewhere only the widths are checked)
	shared := testenv.Shared(t)
	pathOf := func(name string) (string, bool) {
		path := filepath.Join(shared, "traces", name)
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil {
				path = rel
			}
		}
		return path, path == filepath.Join("..", "..", "..", "shared", "traces", name)
	}
	if path, ok := pathOf(widthTrace); !ok {
		t.Logf("../shared is not beside the repository (%s): widths checked, goldens not compared", path)
	}
	for _, v := range widthViews {
		t.Run(v.name, func(t *testing.T) {
			name := widthTrace
			if v.trace != "" {
				name = v.trace
			}
			path, goldens := pathOf(name)
			t.Parallel()
			for _, w := range []int{80, 120, 200} {
				args := sweepLine(t, v.args, path, path)
				args = append(args, "--width", fmt.Sprint(w))
				out, stderr, code := run(t, args...)
				if code != ExitOK {
					t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
				}
				if out == "" {
					t.Fatalf("%s: no output", strings.Join(args, " "))
				}
				for i, line := range strings.Split(out, "\n") {
					if n := layout.Width(line); n > w {
						t.Errorf("--width %d: line %d has %d columns: %q", w, i+1, n, line)
					}
				}
				if goldens {
					golden.Check(t, testenv.Root(), fmt.Sprintf("width.%s.%d.golden", v.name, w), out)
				}
			}
		})
	}
}
