package layout

import (
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/names"
)

// WriteMarkdownCompact writes g as a GitHub table without padding the
// cells to a common width, for tables whose names are long (a CI summary
// of hundreds of kernels): lines stay as short as their cells. Name
// columns are code spans, cut in the middle to nameWidth columns (0: whole;
// distinct names stay distinct, names.Column); other cells are escaped.
func (g *Grid) WriteMarkdownCompact(w io.Writer, nameWidth int) error {
	rows := g.Rows
	if nameWidth > 0 {
		rows = make([][]string, len(g.Rows))
		for i, r := range g.Rows {
			rows[i] = append([]string(nil), r...)
		}
		for c := range g.Headers {
			if !g.isName(c) {
				continue
			}
			col := make([]string, len(rows))
			for i, r := range rows {
				if c < len(r) {
					col[i] = r[c]
				}
			}
			col = names.Column(col, nameWidth)
			for i, r := range rows {
				if c < len(r) {
					r[c] = col[i]
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("|")
	for _, h := range g.Headers {
		b.WriteString(" " + MdText(h) + " |")
	}
	b.WriteString("\n|")
	for i := range g.Headers {
		if g.isRight(i) {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("|")
		for i := range g.Headers {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			if g.isName(i) {
				c = MdCode(c)
			} else {
				c = MdText(c)
			}
			if c == "" {
				b.WriteString(" |")
			} else {
				b.WriteString(" " + c + " |")
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
