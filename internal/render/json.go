// Package render turns analysis results into text, Markdown, CSV or JSON.
// It computes nothing: every number arrives ready.
package render

import (
	"io"

	"github.com/tracetab/tracetab/internal/layout"
)

// JSON writes v as indented JSON (layout.JSON).
func JSON(w io.Writer, v any) error { return layout.JSON(w, v) }
