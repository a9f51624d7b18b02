// Package viewkit holds the few pieces that more than one command's view
// needs and that are not layout (internal/layout lays grids, Markdown,
// CSV and JSON out): the sparkline glyphs and the column they draw in, a
// table with its heading, the short form of a kernel name, the rounding
// of a JSON percentage, and the summary of a list that grows with the
// input (Summarise: its distribution and the rows that stand out). Each command's view lives in its own
// package beside this one (gapsview, tableview, diffview, ranksview,
// chainview, compileview, infoview, memoryview, rooflineview,
// critpathview). Like the views, it computes nothing of its own: a
// summary's figures come from internal/stats (Distribution).
package viewkit

import (
	"math"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
)

// Titled is a table with its heading and a line under it ("" for none).
type Titled struct {
	Title string
	Grid  *layout.Grid
	Foot  string
}

// KernelShort is a kernel's name for a text column: its signature without
// the return type "void " and the parameter list ("ncclKernel_AllReduce_
// RING_LL_Sum_float(ncclDevComm*, ...)"), which repeat what the template
// arguments say; the name up to its parameters is what tells kernels
// apart (names that still look alike get #2 in the column).
func KernelShort(name string) string {
	s := strings.TrimPrefix(name, "void ")
	if !strings.HasSuffix(s, ")") {
		return name
	}
	// the parameter list is the last (...) at template depth 0
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', '>':
			depth++
		case '(', '<':
			depth--
			if depth == 0 && s[i] == '(' {
				if i == 0 {
					return name
				}
				return s[:i]
			}
		}
	}
	return name
}

// Round2 rounds x to two decimals for JSON, a negative zero to 0.
func Round2(x float64) float64 {
	r := math.Round(x*100) / 100
	if r == 0 {
		return 0
	}
	return r
}
