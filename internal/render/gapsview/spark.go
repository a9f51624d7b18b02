package gapsview

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// StepSparks is what the gaps text draws on each step line: where in the
// step's GPU span the GPU was busy (gaps.BusyCells), in these glyphs.
type StepSparks struct {
	Cells  []gaps.StepCells
	Glyphs viewkit.Glyphs
}

// addStepSparks adds a column to the gaps step rows (Step first, Note last)
// drawing each step's busy cells; a step with no device work gets none.
func addStepSparks(sg *layout.Grid, sp []StepSparks) {
	if len(sp) == 0 || len(sg.Headers) == 0 {
		return
	}
	by := map[string]string{}
	for _, c := range sp[0].Cells {
		if len(c.BusyNs) > 0 {
			by[strconv.FormatInt(c.Step, 10)] = sp[0].Glyphs.Spark(c.BusyNs, c.WidthNs)
		}
	}
	last := len(sg.Headers) - 1
	viewkit.InsertColumn(sg, last, "Busy over GPU window", func(_ int, row []string) string { return by[row[0]] })
	// a picture of numbers the row already gives: the first column left
	// out on a narrow terminal
	sg.Optional = append([]int{last}, sg.Optional...)
}
