package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
)

// wideOpNames are op and kernel names as user record_function labels,
// module names and paths give them: CJK, emoji, combining marks, one long
// enough to be cut at 80 columns, and ASCII.
var wideOpNames = []string{
	"注意力层",
	"🔥matmul",
	"cafe\u0301_re\u0301sume\u0301_layer",
	"模块/注意力层/🔥矩阵乘法_" + strings.Repeat("注意", 20) + "_tail",
	"aten::addmm",
}

// TestWideNamesGrid: on a trace whose op and kernel names are wide, the
// text grids of table and table --by kernel at --width 80 line up on
// screen: no line is wider than 80; in the op table, whose last column is
// right-aligned, every line from the header to the closing rule is as
// wide; in the kernel table, whose last column is the names, every name
// starts at the header's display column and a cut name fills the column
// (to within the one column a wide character may leave).
func TestWideNamesGrid(t *testing.T) {
	var rows []string
	ts := int64(1000)
	for i, n := range wideOpNames {
		corr := int64(100 + i)
		for k := range 3 {
			ext := int64(10*i + k + 1)
			rows = append(rows,
				fmt.Sprintf("cpu_op %s 1 %d 300 0 %d", n, ts, ext),
				fmt.Sprintf("cuda_runtime cudaLaunchKernel 1 %d 20 %d %d", ts+10, corr*10+int64(k), ext),
				fmt.Sprintf("kernel %s_kernel 7 %d %d %d 0", n, ts+50, 100+40*i, corr*10+int64(k)))
			ts += 400
		}
	}
	path := miniTrace(t, rows...)
	for _, args := range [][]string{{"table", path}, {"table", path, "--by", "kernel"}} {
		args = append(args, "--width", "80")
		what := strings.Join(args[2:], " ")
		out, stderr, code := run(t, args...)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", what, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		rule := func(l string) bool { return l != "" && strings.Trim(l, "-") == "" }
		top := -1
		for i, l := range lines {
			if n := layout.Width(l); n > 80 {
				t.Errorf("%s: line %d is %d columns: %q", what, i+1, n, l)
			}
			if rule(l) && top < 0 {
				top = i
			}
		}
		if top < 1 {
			t.Fatalf("%s: no header and rule:\n%s", what, out)
		}
		head, ruleW := lines[top-1], layout.Width(lines[top])
		var grid []string // the rows under the rule, up to a rule or a note
		for _, l := range lines[top+1:] {
			if l == "" || rule(l) || strings.HasPrefix(l, "(") {
				break
			}
			grid = append(grid, l)
		}
		wide, cut := 0, 0
		for _, l := range grid {
			if layout.Width(l) != len([]rune(l)) {
				wide++
			}
		}
		if wide < 3 {
			t.Fatalf("%s: %d rows with wide characters: the check says little\n%s", what, wide, out)
		}
		if len(args) == 4 { // the op table: its last column right-aligned
			for _, l := range append([]string{head}, grid...) {
				if layout.Width(l) != layout.Width(head) {
					t.Errorf("%s: %q is %d columns, the header %d", what, l, layout.Width(l), layout.Width(head))
				}
			}
			continue
		}
		nameCol := layout.Width(head[:strings.Index(head, "Name")])
		for _, l := range grid {
			at := strings.LastIndex(l, "  ") + 2 // the names hold no two spaces
			if c := layout.Width(l[:at]); c != nameCol {
				t.Errorf("%s: the name in %q starts at column %d, the header's at %d", what, l, c, nameCol)
			}
			if strings.Contains(l[at:], "...") {
				cut++
				if w := layout.Width(l); w < ruleW-1 || w > ruleW {
					t.Errorf("%s: cut name row %q is %d columns, the rule %d", what, l, w, ruleW)
				}
			}
		}
		if cut == 0 {
			t.Errorf("%s: no name cut at 80 columns: the check says little\n%s", what, out)
		}
	}
}
