package categoryview

import (
	"io"
	"strconv"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/render/viewkit"
)

// categoryJSON is one category's device work; pct is its share of the
// whole (of the trace, or of its step), null when that has no device time.
type categoryJSON struct {
	Category string   `json:"category"`
	DeviceNs int64    `json:"device_ns"`
	Pct      *float64 `json:"pct"`
	Kernels  int      `json:"kernels"`
}

type stepJSON struct {
	Step       int64          `json:"step"`
	DeviceNs   int64          `json:"device_ns"`
	Kernels    int            `json:"kernels"`
	Categories []categoryJSON `json:"categories"`
}

type workJSON struct {
	DeviceNs int64 `json:"device_ns"`
	Kernels  int   `json:"kernels"`
}

type rangeJSON struct {
	First int64 `json:"first"`
	Last  int64 `json:"last"`
}

type docJSON struct {
	Schema            string         `json:"schema"`
	File              string         `json:"file"`
	StepsRange        *rangeJSON     `json:"steps_range"`
	DeviceNs          int64          `json:"device_ns"`
	Kernels           int            `json:"kernels"`
	UnlinkedDeviceOps int            `json:"unlinked_device_ops"`
	OutsideSteps      *workJSON      `json:"outside_steps"`
	Categories        []categoryJSON `json:"categories"`
	Steps             []stepJSON     `json:"steps"`
}

func cellsJSON(c *categories.Cells, whole int64) []categoryJSON {
	out := make([]categoryJSON, len(c))
	for k, x := range c {
		out[k] = categoryJSON{Category: string(opclass.Categories[k]), DeviceNs: x.DeviceNs, Kernels: x.Kernels}
		if p := categories.Pct(x.DeviceNs, whole); p != nil {
			v := viewkit.Round2(*p)
			out[k].Pct = &v
		}
	}
	return out
}

// writeJSON writes tracetab.categories/1: every category, in total and
// per step; outside_steps is null for a trace without steps or with a
// --steps range.
func writeJSON(w io.Writer, file string, r *categories.Result, o Options) error {
	d := docJSON{Schema: Schema, File: file, DeviceNs: r.DeviceNs, Kernels: r.Kernels, UnlinkedDeviceOps: r.Unlinked,
		Categories: cellsJSON(&r.Cells, r.DeviceNs), Steps: []stepJSON{}}
	if o.Range != nil {
		d.StepsRange = &rangeJSON{o.Range.First, o.Range.Last}
	} else if len(r.Steps) > 0 {
		d.OutsideSteps = &workJSON{r.Outside.DeviceNs, r.Outside.Kernels}
	}
	for _, s := range r.Steps {
		d.Steps = append(d.Steps, stepJSON{Step: s.N, DeviceNs: s.DeviceNs, Kernels: s.Kernels, Categories: cellsJSON(&s.Cells, s.DeviceNs)})
	}
	return layout.JSON(w, d)
}

// writeCSV writes one long table: a row per category of the trace
// (scope "trace", no step), then per category of each step.
func writeCSV(w io.Writer, r *categories.Result) error {
	var rows [][]string
	add := func(scope, step string, c *categories.Cells, whole int64) {
		for k, x := range c {
			p := ""
			if v := categories.Pct(x.DeviceNs, whole); v != nil {
				p = strconv.FormatFloat(*v, 'f', -1, 64)
			}
			rows = append(rows, []string{scope, step, string(opclass.Categories[k]), strconv.FormatInt(x.DeviceNs, 10), p, strconv.Itoa(x.Kernels)})
		}
	}
	add("trace", "", &r.Cells, r.DeviceNs)
	for _, s := range r.Steps {
		add("step", strconv.FormatInt(s.N, 10), &s.Cells, s.DeviceNs)
	}
	return layout.WriteCSV(w, []string{"scope", "step", "category", "device_ns", "pct", "kernels"}, rows)
}
