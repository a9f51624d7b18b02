package layout

import (
	"fmt"
	"io"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// benchGrid is 2,000 rows of 8 columns as a kernel view holds them: a
// name (every 50th one wide: CJK or emoji) and seven numbers.
func benchGrid() *Grid {
	g := &Grid{
		Headers:    []string{"Name", "Calls", "Total", "Avg", "Min", "Max", "Median", "Time %"},
		RightAlign: []bool{false, true, true, true, true, true, true, true},
		Names:      []bool{true},
	}
	for i := range 2000 {
		name := fmt.Sprintf("void at::native::vectorized_elementwise_kernel<4, MulFunctor<float>, at::detail::Array<char*, %d>>", i)
		switch i % 100 {
		case 0:
			name = fmt.Sprintf("注意力层_%d_矩阵乘法", i)
		case 50:
			name = fmt.Sprintf("🔥matmul_%d", i)
		}
		g.Rows = append(g.Rows, []string{name, "12", "1.234ms", "102.833us", "98.000us", "110.500us", "101.000us", "0.42"})
	}
	return g
}

// BenchmarkGridText: the hand grid's text (Grid.Write "text"), the figures
// quoted at the top of grid.go.
func BenchmarkGridText(b *testing.B) {
	g := benchGrid()
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Write(io.Discard, "text"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTablewriterText: the same cells through tablewriter's text
// renderer (Blueprint) with borders and column separators off, the
// nearest it comes to the hand grid's layout.
func BenchmarkTablewriterText(b *testing.B) {
	g := benchGrid()
	align := make([]tw.Align, len(g.Headers))
	for i := range align {
		align[i] = tw.AlignLeft
		if g.isRight(i) {
			align[i] = tw.AlignRight
		}
	}
	cfg := tablewriter.Config{
		Header: tw.CellConfig{Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone}, Alignment: tw.CellAlignment{PerColumn: align}},
		Row:    tw.CellConfig{Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone}, Alignment: tw.CellAlignment{PerColumn: align}},
	}
	rend := renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Settings: tw.Settings{Separators: tw.Separators{ShowHeader: tw.On, BetweenColumns: tw.Off}, Lines: tw.Lines{ShowHeaderLine: tw.On}},
	})
	b.ReportAllocs()
	for b.Loop() {
		t := tablewriter.NewTable(io.Discard, tablewriter.WithConfig(cfg), tablewriter.WithRenderer(rend))
		t.Header(g.Headers)
		if err := t.Bulk(g.Rows); err != nil {
			b.Fatal(err)
		}
		if err := t.Render(); err != nil {
			b.Fatal(err)
		}
	}
}
