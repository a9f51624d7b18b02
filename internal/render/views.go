package render

import (
	"io"
	"strconv"

	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// KernelSchema versions the JSON form of the kernel view.
const KernelSchema = "tracetab.kernels/1"

type kernelJSON struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Count     int64   `json:"count"`
	TotalUs   float64 `json:"total_us"`
	AvgUs     float64 `json:"avg_us"`
	MedianUs  float64 `json:"median_us"`
	MinUs     float64 `json:"min_us"`
	MaxUs     float64 `json:"max_us"`
	StddevUs  float64 `json:"stddev_us"`
	PctOfGPU  float64 `json:"pct_of_gpu_time"`
	TotalNs   int64   `json:"total_ns"`
	MinNs     int64   `json:"min_ns"`
	MaxNs     int64   `json:"max_ns"`
	MedianNs  float64 `json:"median_ns"`
	StddevNs  float64 `json:"stddev_ns"`
	MeanNs    float64 `json:"avg_ns"`
	Truncated bool    `json:"-"`
}

// Kernels writes the kernel view.
func Kernels(w io.Writer, format, file string, rows []table.KernelRow, totalNs int64, limit, nameWidth int) error {
	if limit >= 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	us := func(ns float64) float64 { return ns / 1e3 }
	if format == "json" {
		out := struct {
			Schema  string       `json:"schema"`
			File    string       `json:"file"`
			TotalUs float64      `json:"gpu_time_us"`
			Rows    []kernelJSON `json:"kernels"`
		}{KernelSchema, file, us(float64(totalNs)), []kernelJSON{}}
		for _, r := range rows {
			out.Rows = append(out.Rows, kernelJSON{Name: r.Name, Kind: r.Kind.String(), Count: r.Count,
				TotalUs: us(float64(r.TotalNs)), AvgUs: us(r.MeanNs), MedianUs: us(r.MedianNs),
				MinUs: us(float64(r.MinNs)), MaxUs: us(float64(r.MaxNs)), StddevUs: us(r.StdDevNs), PctOfGPU: r.Pct,
				TotalNs: r.TotalNs, MinNs: r.MinNs, MaxNs: r.MaxNs, MedianNs: r.MedianNs, StddevNs: r.StdDevNs, MeanNs: r.MeanNs})
		}
		return JSON(w, out)
	}
	g := &Grid{Headers: []string{"Time %", "Total", "Count", "Avg", "Median", "Min", "Max", "StdDev", "Kind", "Name"},
		RightAlign: []bool{true, true, true, true, true, true, true, true, false, false}}
	t := func(ns float64) string { return fmtUs(ns / 1e3) }
	if format == "csv" {
		g.Headers = []string{"pct_of_gpu_time", "total_us", "count", "avg_us", "median_us", "min_us", "max_us", "stddev_us", "kind", "name"}
		t = func(ns float64) string { return strconv.FormatFloat(ns/1e3, 'f', -1, 64) }
	}
	shown := make([]string, len(rows))
	for i, r := range rows {
		shown[i] = r.Name
	}
	if format == "text" {
		shown = names.Column(shown, nameWidth) // middle ellipsis, #2 for collisions
	}
	for i, r := range rows {
		name := shown[i]
		g.Rows = append(g.Rows, []string{strconv.FormatFloat(r.Pct, 'f', 2, 64), t(float64(r.TotalNs)), strconv.FormatInt(r.Count, 10),
			t(r.MeanNs), t(r.MedianNs), t(float64(r.MinNs)), t(float64(r.MaxNs)), t(r.StdDevNs), r.Kind.String(), name})
	}
	return g.Write(w, format)
}

// fmtUs formats microseconds with a unit for people.
func fmtUs(us float64) string {
	switch a := max(us, -us); {
	case a >= 1e6:
		return strconv.FormatFloat(us/1e6, 'f', 3, 64) + "s"
	case a >= 1e3:
		return strconv.FormatFloat(us/1e3, 'f', 3, 64) + "ms"
	}
	return strconv.FormatFloat(us, 'f', 3, 64) + "us"
}

// StepSchema versions the JSON form of the step view.
const StepSchema = "tracetab.steps/1"

type stepJSON struct {
	Step      int64   `json:"step"`
	StartUs   float64 `json:"start_us"`
	CPUUs     float64 `json:"cpu_us"`
	GPUBusyUs float64 `json:"gpu_busy_us"`
	GPUSpanUs float64 `json:"gpu_span_us"`
	Kernels   int     `json:"kernels"`
	DeviceOps int     `json:"device_ops"`
	Cold      bool    `json:"cold"`
}

// Steps writes the step view.
func Steps(w io.Writer, format, file string, t0 int64, rows []trace.Step) error {
	if format == "json" {
		out := struct {
			Schema string     `json:"schema"`
			File   string     `json:"file"`
			Steps  []stepJSON `json:"steps"`
		}{StepSchema, file, []stepJSON{}}
		for _, r := range rows {
			out.Steps = append(out.Steps, stepJSON{r.N, float64(r.Start-t0) / 1e3, float64(r.End-r.Start) / 1e3,
				float64(r.GPUBusyNs) / 1e3, float64(r.GPUSpanNs) / 1e3, r.Kernels, r.DeviceOps, r.Cold})
		}
		return JSON(w, out)
	}
	g := &Grid{Headers: []string{"Step", "Start", "CPU time", "GPU busy", "GPU busy %", "Kernels", "Device ops", "Note"},
		RightAlign: []bool{true, true, true, true, true, true, true, false}}
	t := func(ns int64) string { return fmtUs(float64(ns) / 1e3) }
	if format == "csv" {
		g.Headers = []string{"step", "start_us", "cpu_us", "gpu_busy_us", "gpu_busy_pct", "kernels", "device_ops", "note"}
		t = func(ns int64) string { return strconv.FormatFloat(float64(ns)/1e3, 'f', -1, 64) }
	}
	for _, r := range rows {
		n := ""
		if r.Cold {
			n = "cold: much longer than the median step"
		}
		busy := "-"
		if cpu := r.End - r.Start; cpu > 0 {
			busy = strconv.FormatFloat(float64(r.GPUBusyNs)*100/float64(cpu), 'f', 2, 64)
		}
		g.Rows = append(g.Rows, []string{strconv.FormatInt(r.N, 10), t(r.Start - t0), t(r.End - r.Start), t(r.GPUBusyNs), busy,
			strconv.Itoa(r.Kernels), strconv.Itoa(r.DeviceOps), n})
	}
	return g.Write(w, format)
}
