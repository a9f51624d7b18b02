package tableview

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// KernelEff is what the kernel view shows of the kernels' efficiency:
// whether the trace's kernels carry Kineto's efficiency args (text then
// adds the TC, Blk/SM and Occ% columns and a line per device) and the
// per-device metrics over the window.
type KernelEff struct {
	HasArgs bool
	Window  kerneleff.Window
	Devices []kerneleff.Device
}

type kernelDeviceJSON struct {
	Device       int      `json:"device"`
	Window       string   `json:"window"` // "steps" or "trace"
	WindowNs     int64    `json:"window_ns"`
	BusyNs       int64    `json:"busy_ns"`
	Utilization  float64  `json:"gpu_utilization_pct"`
	SMEfficiency *float64 `json:"est_sm_efficiency_pct"`
	Occupancy    *float64 `json:"est_achieved_occupancy_pct"`
}

func round(v float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(v*p) / p
}

func optRound(v float64, ok bool, places int) *float64 {
	if !ok {
		return nil
	}
	r := round(v, places)
	return &r
}

// effJSON fills a kernel row's efficiency fields (null for memcpy and
// memset rows, and for a mean no call carried the arg of).
func effJSON(j *kernelJSON, r *table.KernelRow) {
	if r.Kind != trace.KindKernel {
		return
	}
	tc := r.TensorCores
	j.TensorCores = &tc
	j.MeanBlocksPerSM = optRound(r.BlocksPerSM, r.HasBlocksPerSM, 4)
	j.MeanOccupancy = optRound(r.OccupancyPct, r.HasOccupancy, 2)
	op, el := r.OpCalls, r.TCEligibleCalls
	j.LaunchOpCalls, j.TCEligibleOpCalls = &op, &el
}

func devicesJSON(e *KernelEff) []kernelDeviceJSON {
	out := []kernelDeviceJSON{}
	if e == nil {
		return out
	}
	for _, d := range e.Devices {
		out = append(out, kernelDeviceJSON{Device: d.Device, Window: e.Window.Of, WindowNs: d.WindowNs, BusyNs: d.BusyNs,
			Utilization: round(d.UtilizationPct, 2), SMEfficiency: optRound(d.SMEfficiencyPct, d.HasSMEfficiency, 2),
			Occupancy: optRound(d.OccupancyPct, d.HasOccupancy, 2)})
	}
	return out
}

// effCells are a row's TC, Blk/SM and Occ% cells ("-" where not measured).
func effCells(r *table.KernelRow) []string {
	if r.Kind != trace.KindKernel {
		return []string{"-", "-", "-"}
	}
	tc := "no"
	if r.TensorCores {
		tc = "yes"
	}
	cell := func(v float64, ok bool) string {
		if !ok {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return []string{tc, cell(r.BlocksPerSM, r.HasBlocksPerSM), cell(r.OccupancyPct, r.HasOccupancy)}
}

// writeDeviceLines writes a line per device under the text or Markdown
// table: the GPU Summary's three metrics over the window.
func writeDeviceLines(w io.Writer, e *KernelEff) error {
	pct := func(v float64, ok bool) string {
		if !ok {
			return "n/a"
		}
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	}
	for _, d := range e.Devices {
		if _, err := fmt.Fprintf(w, "GPU %d (%s, %s): util %s, est. SM eff %s, est. occupancy %s\n", d.Device, e.Window.Of,
			units.Dur(d.WindowNs), pct(d.UtilizationPct, true), pct(d.SMEfficiencyPct, d.HasSMEfficiency), pct(d.OccupancyPct, d.HasOccupancy)); err != nil {
			return err
		}
	}
	return nil
}

// addEffColumns puts the TC, Blk/SM and Occ% columns before Kind; on a
// narrow terminal they are the first to go (Occ%, Blk/SM, TC), before
// every other optional column.
func addEffColumns(g *layout.Grid, rows []table.KernelRow, format string) {
	const at = 8 // Kind's index
	heads := []string{"TC", "Blk/SM", "Occ%"}
	if format == "csv" {
		heads = []string{"tensor_cores_used", "mean_blocks_per_sm", "mean_est_achieved_occupancy_pct"}
	}
	ins := func(s []string, add ...string) []string {
		out := append([]string{}, s[:at]...)
		out = append(out, add...)
		return append(out, s[at:]...)
	}
	g.Headers = ins(g.Headers, heads...)
	g.RightAlign = append(append(append([]bool{}, g.RightAlign[:at]...), false, true, true), g.RightAlign[at:]...)
	g.Names = append(append(append([]bool{}, g.Names[:at]...), false, false, false), g.Names[at:]...)
	for i := range g.Rows {
		g.Rows[i] = ins(g.Rows[i], effCells(&rows[i])...)
	}
	opt := []int{at + 2, at + 1, at}
	for _, c := range g.Optional {
		if c >= at {
			c += 3
		}
		opt = append(opt, c)
	}
	g.Optional = opt
}
