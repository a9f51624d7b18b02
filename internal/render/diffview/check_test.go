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

// TestCheckTextNarrow: at a width the budget grid's columns do not fit in,
// check prints one record per budget: no line wider than the width, no
// dashed rule cut in two, and every budget's result, value, limit, where
// and rows still there; where the grid fits, the grid.
func TestCheckTextNarrow(t *testing.T) {
	out := []diff.Outcome{
		{Budget: diff.Budget{Text: "total.gpu_idle_pct<=90", Metric: "gpu_idle_pct", MaxText: "90", Total: true}, Value: 981500, Rows: 1,
			Failed: []diff.Violation{{Rule: "total.gpu_idle_pct<=90", Msg: "total.gpu_idle_pct is 98.15%, over the budget of 90%"}}},
		{Budget: diff.Budget{Text: "cuda_total<=1ms", Metric: "cuda_total", MaxText: "1ms"}, Value: 257341, Row: "aten::addmm", Rows: 3},
	}
	full := func(width int) string {
		var b bytes.Buffer
		if err := CheckText(&b, "text", "t.json", out, &diff.Gate{}, width, false); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	unlimited := full(0)
	gridW := 0
	for _, l := range strings.Split(unlimited, "\n") {
		gridW = max(gridW, layout.Width(l))
	}
	for width := 30; width <= gridW+5; width++ {
		s := full(width)
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			if layout.Width(l) > width {
				t.Errorf("width %d: line of %d columns: %q", width, layout.Width(l), l)
			}
			if strings.Contains(l, "-...-") || strings.Contains(l, "-…-") {
				t.Errorf("width %d: a rule cut in two: %q", width, l)
			}
		}
		grid := strings.Contains(s, " Result ")
		if width >= gridW && !grid {
			t.Errorf("width %d (the grid is %d wide): no grid\n%s", width, gridW, s)
		}
		if grid {
			continue
		}
		joined := strings.Join(strings.Fields(s), " ")
		for _, want := range []string{"FAIL", "ok", "aten::addmm", "(total)", "rows 1", "rows 3", "limit max 1ms", "limit max 90%"} {
			if !strings.Contains(joined, want) {
				t.Errorf("width %d: the records lack %q\n%s", width, want, s)
			}
		}
	}
}
