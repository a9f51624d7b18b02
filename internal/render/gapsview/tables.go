package gapsview

import (
	"fmt"
	"io"

	"github.com/tracetab/tracetab/internal/gaps"
)

// Tables writes the md or csv form. CSV is one table: section ("gaps"
// when empty). Markdown is every section with a heading, or the one named.
func Tables(w io.Writer, r *gaps.Report, format, section string) error {
	k := kitFor(format == "csv")
	if format == "csv" {
		if section == "" {
			section = "gaps"
		}
		g := gapsGrid(r, section, k)
		if g == nil {
			return fmt.Errorf("internal: no %s section", section)
		}
		return g.Write(w, "csv")
	}
	sections := Sections
	if section != "" {
		sections = []string{section}
	}
	first := true
	for _, s := range sections {
		g := gapsGrid(r, s, k)
		if g == nil || (len(g.Rows) == 0 && section == "") {
			continue
		}
		if !first {
			io.WriteString(w, "\n")
		}
		first = false
		fmt.Fprintf(w, "### %s\n\n", gapsTitles[s])
		if err := g.Write(w, "md"); err != nil {
			return err
		}
	}
	return nil
}
