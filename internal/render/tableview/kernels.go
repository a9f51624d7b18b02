package tableview

import (
	"io"
	"math"
	"strconv"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/units"
)

// KernelSchema versions the JSON form of the kernel view. 2: integer ns
// only (avg, median and stddev rounded to the ns), calls, class, steps.
const KernelSchema = "tracetab.kernels/2"

type kernelJSON struct {
	Name     string  `json:"name"`
	Label    string  `json:"label"`
	Kind     string  `json:"kind"`
	Class    string  `json:"class"`
	Calls    int64   `json:"calls"`
	TotalNs  int64   `json:"total_ns"`
	AvgNs    int64   `json:"avg_ns"`
	MedianNs int64   `json:"median_ns"`
	MinNs    int64   `json:"min_ns"`
	MaxNs    int64   `json:"max_ns"`
	StddevNs int64   `json:"stddev_ns"`
	GPUPct   float64 `json:"gpu_time_pct"`
	// kernels only, null for memcpy and memset (kerneleff.go)
	TensorCores       *bool    `json:"tensor_cores_used"`
	MeanBlocksPerSM   *float64 `json:"mean_blocks_per_sm"`
	MeanOccupancy     *float64 `json:"mean_est_achieved_occupancy_pct"`
	LaunchOpCalls     *int64   `json:"launch_op_calls"`
	TCEligibleOpCalls *int64   `json:"tc_eligible_op_calls"`
}

// KernelSort names the order of the kernel view.
const KernelSort = "total_ns"

// KernelLayout says how the kernel view's text is laid out.
type KernelLayout struct {
	Limit     int  // rows shown; < 0 all
	NameWidth int  // the longest name shown, cut in the middle; 0: no cap
	Width     int  // the text's width, names cut to fit it; 0: no limit
	LongNames bool // full names, not labels (--long-names)
	// Eff, when set, adds the kernels' efficiency: JSON fields always,
	// text and Markdown columns and device lines when Eff.HasArgs.
	Eff *KernelEff
}

// Kernels writes the kernel view.
// hist, when given, adds each row's duration histogram to the text and
// Markdown table (table --by kernel --hist).
func Kernels(w io.Writer, format, file string, rows []table.KernelRow, totalNs int64, lay KernelLayout, steps *table.StepRange, hist ...KernelHists) error {
	if lay.Limit >= 0 && len(rows) > lay.Limit {
		rows = rows[:lay.Limit]
	}
	rnd := func(ns float64) int64 { return int64(math.Round(ns)) }
	pct2 := func(p float64) float64 { return math.Round(p*100) / 100 }
	if format == "json" {
		out := struct {
			Schema  string             `json:"schema"`
			File    string             `json:"file"`
			SortBy  string             `json:"sort_by"`
			Steps   *table.StepRange   `json:"steps"`
			TotalNs int64              `json:"gpu_time_ns"`
			Rows    []kernelJSON       `json:"kernels"`
			Devices []kernelDeviceJSON `json:"devices"`
		}{KernelSchema, file, KernelSort, steps, totalNs, []kernelJSON{}, devicesJSON(lay.Eff)}
		labels := names.Labels(demangled(kernelNames(rows)), names.LabelWidth)
		for i := range rows {
			r := &rows[i]
			j := kernelJSON{Name: r.Name, Label: labels[i], Kind: r.Kind.String(), Class: r.Class, Calls: r.Count,
				TotalNs: r.TotalNs, AvgNs: rnd(r.MeanNs), MedianNs: r.MedianNs, MinNs: r.MinNs, MaxNs: r.MaxNs,
				StddevNs: rnd(r.StdDevNs), GPUPct: pct2(r.Pct)}
			effJSON(&j, r)
			out.Rows = append(out.Rows, j)
		}
		return layout.JSON(w, out)
	}
	g := &layout.Grid{Headers: []string{"Time %", "Total", "Calls", "Avg", "Median", "Min", "Max", "StdDev", "Kind", "Class", "Name"},
		RightAlign: []bool{true, true, true, true, true, true, true, true, false, false, false},
		Names:      []bool{false, false, false, false, false, false, false, false, false, false, true},
		// on a narrow terminal StdDev, Kind, Min, Max, Avg, Median and Class
		// go, in that order, before the name is cut below 36 (2 x MinName)
		Optional: []int{7, 8, 5, 6, 3, 4, 9}, MinName: 18}
	t := func(ns float64) string { return units.Dur(rnd(ns)) }
	if format == "csv" {
		g.Headers = []string{"gpu_time_pct", "total_ns", "calls", "avg_ns", "median_ns", "min_ns", "max_ns", "stddev_ns", "kind", "class", "name", "label"}
		t = func(ns float64) string { return strconv.FormatInt(rnd(ns), 10) }
	}
	shown := kernelNames(rows)
	var labels []string
	if format == "csv" {
		labels = names.Labels(demangled(shown), names.LabelWidth)
	}
	if format == "text" && !lay.LongNames {
		shown = names.Labels(shown, lay.NameWidth) // names.Labels: the one labelling rule
		g.Width = lay.Width
	}
	for i, r := range rows {
		g.Rows = append(g.Rows, []string{strconv.FormatFloat(r.Pct, 'f', 2, 64), t(float64(r.TotalNs)), strconv.FormatInt(r.Count, 10),
			t(r.MeanNs), t(float64(r.MedianNs)), t(float64(r.MinNs)), t(float64(r.MaxNs)), t(r.StdDevNs), r.Kind.String(), r.Class, shown[i]})
		if labels != nil {
			g.Rows[i] = append(g.Rows[i], labels[i])
		}
	}
	eff := lay.Eff != nil && lay.Eff.HasArgs
	if eff {
		addEffColumns(g, rows, format)
	}
	if format == "text" || format == "md" {
		addKernelHists(g, hist)
	}
	if err := g.Write(w, format); err != nil {
		return err
	}
	if eff && (format == "text" || format == "md") {
		if format == "md" { // a line right under a Markdown table would be read as a row
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		return writeDeviceLines(w, lay.Eff)
	}
	return nil
}

func kernelNames(rows []table.KernelRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Name
	}
	return out
}

// demangled is names demangled: labels are read by people, whatever
// --demangle says of the full names.
func demangled(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = names.Demangle(s)
	}
	return out
}
