package render

import "github.com/tracetab/tracetab/internal/layout"

// Grid is layout.Grid: the views of this package lay their tables out
// with the one layout layer.
type Grid = layout.Grid
