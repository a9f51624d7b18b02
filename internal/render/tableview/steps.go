package tableview

import (
	"io"
	"math"
	"strconv"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// StepSchema versions the JSON form of the step view. 2: integer ns,
// gpu_busy_pct (null without CPU time), steps. 3: the step's share of GPU
// time by the one definition of GPU idle (gpu_window_ns, gpu_busy_ns,
// gpu_idle_ns, gpu_idle_pct, devices, largest_gap_ns); gpu_span_ns and
// gpu_busy_pct (of the CPU time) are gone.
const StepSchema = "tracetab.steps/3"

type stepJSON struct {
	Step         int64    `json:"step"`
	StartNs      int64    `json:"start_ns"`
	CPUNs        int64    `json:"cpu_ns"`
	GPUWindowNs  *int64   `json:"gpu_window_ns"` // the GPU figures are null without device work
	GPUBusyNs    *int64   `json:"gpu_busy_ns"`
	GPUIdleNs    *int64   `json:"gpu_idle_ns"`
	GPUIdlePct   *float64 `json:"gpu_idle_pct"`
	Devices      int      `json:"devices"`
	LargestGapNs *int64   `json:"largest_gap_ns"`
	Kernels      int      `json:"kernels"`
	DeviceOps    int      `json:"device_ops"`
	Cold         bool     `json:"cold"`
}

// stepIdlePct is the step's GPU idle share of its window on its devices,
// nil when the window is empty.
func stepIdlePct(r trace.Step) *float64 {
	if den := r.GPUWindowNs * int64(r.Devices); den > 0 {
		p := math.Round(float64(r.GPUIdleNs)*1e4/float64(den)) / 100
		return &p
	}
	return nil
}

// Steps writes the step view; start times are relative to t0. Unless all,
// text and Markdown summarise more than viewkit.SummaryRows steps (their
// distribution, the cold steps and the steps that stand out).
func Steps(w io.Writer, format, file string, t0 int64, rows []trace.Step, steps *table.StepRange, width int, all bool) error {
	if format == "json" {
		out := struct {
			Schema string           `json:"schema"`
			File   string           `json:"file"`
			Steps  *table.StepRange `json:"steps_selected"`
			Rows   []stepJSON       `json:"steps"`
		}{StepSchema, file, steps, []stepJSON{}}
		for _, r := range rows {
			j := stepJSON{Step: r.N, StartNs: r.Start - t0, CPUNs: r.End - r.Start, GPUIdlePct: stepIdlePct(r), Devices: r.Devices,
				Kernels: r.Kernels, DeviceOps: r.DeviceOps, Cold: r.Cold}
			if r.Devices > 0 {
				j.GPUWindowNs, j.GPUBusyNs, j.GPUIdleNs, j.LargestGapNs = &r.GPUWindowNs, &r.GPUBusyNs, &r.GPUIdleNs, &r.LargestGapNs
			}
			out.Rows = append(out.Rows, j)
		}
		return layout.JSON(w, out)
	}
	g := &layout.Grid{Headers: []string{"Step", "Start", "CPU time", "GPU window", "GPU busy", "GPU idle", "Idle %", "Kernels", "Note"},
		RightAlign: []bool{true, true, true, true, true, true, true, true, false}, Width: width,
		Optional: []int{7, 1, 6}} // on a narrow terminal: Kernels, then Start, then Idle % (the JSON has them all)
	t := units.Dur
	if format == "csv" {
		g.Headers = []string{"step", "start_ns", "cpu_ns", "gpu_window_ns", "gpu_busy_ns", "gpu_idle_ns", "gpu_idle_pct", "kernels", "device_ops", "cold"}
		t = func(ns int64) string { return strconv.FormatInt(ns, 10) }
	}
	cold := false
	for _, r := range rows {
		idle := "-"
		if format == "csv" {
			idle = ""
		}
		if p := stepIdlePct(r); p != nil {
			idle = strconv.FormatFloat(*p, 'f', 2, 64)
		}
		gpu := func(ns int64) string {
			if r.Devices == 0 {
				return idle // no device work: n/a
			}
			return t(ns)
		}
		row := []string{strconv.FormatInt(r.N, 10), t(r.Start - t0), t(r.End - r.Start), gpu(r.GPUWindowNs), gpu(r.GPUBusyNs), gpu(r.GPUIdleNs), idle,
			strconv.Itoa(r.Kernels)}
		if format == "csv" {
			row = append(row, strconv.Itoa(r.DeviceOps), strconv.FormatBool(r.Cold))
		} else {
			n := ""
			if r.Cold {
				n, cold = "cold*", true
			}
			row = append(row, n)
		}
		g.Rows = append(g.Rows, row)
	}
	summary := ""
	if !all && format != "csv" {
		summary = viewkit.Summarise(g, stepSummary(rows))
	}
	if err := g.Write(w, format); err != nil || format == "csv" {
		return err
	}
	foot := "GPU window: from the step's start to its end or the later end of the device work it launched, less what an earlier step's window covers; GPU busy: the device work in it; idle: the rest (docs/output.md, \"GPU idle\")."
	if len(rows) > 0 && rows[0].Devices == 0 {
		foot = "The trace has no device work: the GPU columns are n/a."
	}
	if cold {
		foot += " *cold: much longer than the median step (warm-up, a cold start)."
	}
	if summary != "" {
		foot = summary + ". " + foot
	}
	if format == "md" {
		_, err := io.WriteString(w, "\n"+layout.MdText(foot)+"\n")
		return err
	}
	wrap := width
	if wrap <= 0 {
		wrap = 100
	}
	for _, l := range layout.Wrap(foot, wrap, "") {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// stepSummary summarises the step grid by CPU time, the GPU window, busy
// and idle time, Idle % and kernels; the cold steps are always listed.
func stepSummary(rows []trace.Step) viewkit.Summary {
	n := len(rows)
	cpu, win, busy, idle := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	kernels := make([]int, n)
	gpu := make([]bool, n)
	pct := viewkit.Column{Index: 6, Values: make([]float64, n), Has: make([]bool, n),
		Format: func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }}
	var cold []int
	for i, r := range rows {
		cpu[i], win[i], busy[i], idle[i], kernels[i], gpu[i] = r.End-r.Start, r.GPUWindowNs, r.GPUBusyNs, r.GPUIdleNs, r.Kernels, r.Devices > 0
		if p := stepIdlePct(r); p != nil {
			pct.Values[i], pct.Has[i] = *p, true
		}
		if r.Cold {
			cold = append(cold, i)
		}
	}
	return viewkit.Summary{Noun: "steps", Label: 0, Keep: cold, KeepWhy: "the cold steps",
		Cols: []viewkit.Column{viewkit.NsColumn(2, cpu, nil), viewkit.NsColumn(3, win, gpu), viewkit.NsColumn(4, busy, gpu),
			viewkit.NsColumn(5, idle, gpu), pct, viewkit.CountColumn(7, kernels, nil)}}
}
