package diffview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
)

// check --by module cuts a module path by its leading modules, so the cell
// still ends in the module's name; other rows are cut in the middle.
func TestCheckTextCutsModulePathsByPath(t *testing.T) {
	path := "VeryLongModelName_0/EncoderStack_0/TransformerLayer_11/SelfAttentionBlock_0/Linear_15"
	out := []diff.Outcome{{
		Budget: diff.Budget{Text: "cuda_total<=1ms", Metric: "cuda_total", MaxText: "1ms"},
		Value:  257341, Row: path, Rows: 1,
	}}
	for _, width := range []int{0, 80} {
		var b bytes.Buffer
		if err := CheckText(&b, "text", "t.json", out, &diff.Gate{}, width, true); err != nil {
			t.Fatal(err)
		}
		row := lastRow(t, b.String())
		cell := strings.Fields(row)[len(strings.Fields(row))-2]
		if !strings.HasPrefix(cell, ".../") || !strings.HasSuffix(cell, "/Linear_15") {
			t.Errorf("width %d: the path cell is %q, want .../…/Linear_15\n%s", width, cell, b.String())
		}
		if width > 0 {
			for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				if layout.Width(l) > width {
					t.Errorf("width %d: line of %d columns: %q", width, layout.Width(l), l)
				}
			}
		}
		var m bytes.Buffer
		if err := CheckText(&m, "text", "t.json", out, &diff.Gate{}, width, false); err != nil {
			t.Fatal(err)
		}
		if width == 80 && strings.Contains(lastRow(t, m.String()), ".../") {
			t.Errorf("width %d: an op row was cut by path: %q", width, lastRow(t, m.String()))
		}
	}
}

func lastRow(t *testing.T, s string) string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 0 {
		t.Fatal("no output")
	}
	return lines[len(lines)-1]
}
