package cli

import (
	"os"

	"github.com/tracetab/tracetab/internal/render/viewkit"
	"golang.org/x/term"
)

// sparkCells is how many cells a gaps step line's sparkline has, and
// histBins how many bins a kernel's histogram in table --by kernel --hist.
const (
	sparkCells = 16
	histBins   = 12
)

// glyphs is what the terminal pictures are drawn in: Unicode blocks when
// stdout is a terminal, plain ASCII when it is a file or a pipe.
func (e *env) glyphs() viewkit.Glyphs {
	if ow, ok := e.stdout.(*outWriter); ok {
		if f, ok := ow.w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			return viewkit.Blocks
		}
	}
	return viewkit.ASCII
}
