package tableview

import (
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/stats"
)

// KernelHists are the kernel view's duration histograms, one per row in
// the rows' order (stats.NewLogHist of each kernel's durations), drawn in
// these glyphs.
type KernelHists struct {
	ByRow  []stats.LogHist
	Glyphs viewkit.Glyphs
}

// addKernelHists adds a column before the kernel view's Name column (the
// last) drawing each row's histogram.
func addKernelHists(g *layout.Grid, kh []KernelHists) {
	if len(kh) == 0 || len(g.Headers) == 0 {
		return
	}
	last := len(g.Headers) - 1
	viewkit.InsertColumn(g, last, "Spread (log bins)", func(i int, _ []string) string {
		if i < len(kh[0].ByRow) {
			return kh[0].Glyphs.Hist(kh[0].ByRow[i])
		}
		return ""
	})
	if g.Names != nil {
		g.Names[last] = true // a code span in Markdown: the glyphs as drawn, in a fixed-width font
	}
}
