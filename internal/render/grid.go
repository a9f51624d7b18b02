package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Grid is a plain table of cells, rendered as an aligned text table, a
// GitHub Markdown table or CSV. tablewriter lives here and nowhere else.
type Grid struct {
	Headers []string
	Rows    [][]string
	// RightAlign marks numeric columns.
	RightAlign []bool
}

// Write renders g in format "text", "md" or "csv".
func (g *Grid) Write(w io.Writer, format string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(g.Headers); err != nil {
			return err
		}
		if err := cw.WriteAll(g.Rows); err != nil {
			return err
		}
		cw.Flush()
		return cw.Error()
	case "md", "text":
	default:
		return fmt.Errorf("unknown format %q", format)
	}
	align := make([]tw.Align, len(g.Headers))
	for i := range align {
		align[i] = tw.AlignLeft
		if i < len(g.RightAlign) && g.RightAlign[i] {
			align[i] = tw.AlignRight
		}
	}
	cfg := tablewriter.Config{
		Header: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
		Row: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
	}
	opts := []tablewriter.Option{tablewriter.WithConfig(cfg)}
	if format == "md" {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	} else {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.Border{Left: tw.Off, Right: tw.Off, Top: tw.Off, Bottom: tw.Off},
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On},
			},
			Symbols: tw.NewSymbols(tw.StyleASCII),
		})))
	}
	t := tablewriter.NewTable(w, opts...)
	t.Header(anySlice(g.Headers)...)
	for _, r := range g.Rows {
		if format == "md" {
			r = mdEscape(r)
		}
		if err := t.Append(anySlice(r)...); err != nil {
			return err
		}
	}
	return t.Render()
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func mdEscape(r []string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = strings.ReplaceAll(c, "|", "\\|")
	}
	return out
}
