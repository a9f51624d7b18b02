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
	case "text":
		return g.writeText(w)
	case "md":
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
	opts := []tablewriter.Option{tablewriter.WithConfig(cfg), tablewriter.WithRenderer(renderer.NewMarkdown())}
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

// writeText lays the grid out as aligned columns under a dashed rule.
// tablewriter's text renderer took half a second for a handful of small
// tables (measured with --cpuprofile on gaps), so plain text is laid out
// here; Markdown still goes through tablewriter.
func (g *Grid) writeText(w io.Writer) error {
	width := make([]int, len(g.Headers))
	for i, h := range g.Headers {
		width[i] = runes(h)
	}
	for _, r := range g.Rows {
		for i, c := range r {
			if i < len(width) {
				width[i] = max(width[i], runes(c))
			}
		}
	}
	var b, l strings.Builder
	// a line ends at its last character: the padding of the last cells is
	// not written (no text output ends a line with a space)
	line := func(cells []string) {
		l.Reset()
		for i := range g.Headers {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			pad := strings.Repeat(" ", width[i]-runes(c))
			l.WriteByte(' ')
			if i < len(g.RightAlign) && g.RightAlign[i] {
				l.WriteString(pad + c)
			} else {
				l.WriteString(c + pad)
			}
			l.WriteByte(' ')
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	line(g.Headers)
	total := 0
	for _, wd := range width {
		total += wd + 2
	}
	b.WriteString(strings.Repeat("-", total))
	b.WriteByte('\n')
	for _, r := range g.Rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
