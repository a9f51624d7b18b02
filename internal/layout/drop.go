package layout

import "slices"

// MinWidth is the narrowest the grid can be laid out in text: every name
// column cut to MinName (or its header), the other columns whole.
func (g *Grid) MinWidth() int {
	minName := g.MinName
	if minName <= 0 {
		minName = 16
	}
	total := 0
	for i, wd := range g.widths() {
		if g.isName(i) {
			wd = min(wd, max(minName, Width(g.Headers[i])))
		}
		total += wd + 2
	}
	return total
}

// DropToFit leaves columns out of the grid, in the order given (indices of
// its columns when called), while it is wider than Width even with
// its name columns cut to the narrowest: for the columns a narrow terminal
// can do without. It returns the headers of the columns it left out. A
// grid without a Width keeps every column.
func (g *Grid) DropToFit(order ...int) []string {
	if g.Width <= 0 {
		return nil
	}
	var dropped []string
	cols := make([]int, len(g.Headers)) // current position -> original index
	for i := range cols {
		cols[i] = i
	}
	for _, want := range order {
		if g.MinWidth() <= g.Width {
			break
		}
		at := slices.Index(cols, want)
		if at < 0 {
			continue
		}
		dropped = append(dropped, g.Headers[at])
		cols = slices.Delete(cols, at, at+1)
		g.Headers = slices.Delete(g.Headers, at, at+1)
		for k, r := range g.Rows {
			if at < len(r) {
				g.Rows[k] = slices.Delete(r, at, at+1)
			}
		}
		if at < len(g.RightAlign) {
			g.RightAlign = slices.Delete(g.RightAlign, at, at+1)
		}
		if at < len(g.Names) {
			g.Names = slices.Delete(g.Names, at, at+1)
		}
	}
	return dropped
}
