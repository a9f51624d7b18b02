package tableview

import (
	"io"
	"strconv"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/table"
)

// TableSchema versions the JSON form of the op table. 2: integer ns
// (*_ns) instead of float us, null for what is missing, sort_by and steps
// named, torch_rebuilt.
const TableSchema = "tracetab.table/2"

// OpRowJSON is one op row in JSON: integer ns (torch's float microsecond
// sums, rounded once) and bytes.
type OpRowJSON struct {
	Name         string   `json:"name"`
	Label        string   `json:"label"`
	Device       bool     `json:"device_op"`
	UserAnnotate bool     `json:"user_annotation"`
	TopLevel     bool     `json:"top_level"`
	Calls        int64    `json:"calls"`
	SelfCPUNs    int64    `json:"self_cpu_ns"`
	CPUTotalNs   int64    `json:"cpu_total_ns"`
	CPUAvgNs     int64    `json:"cpu_avg_ns"`
	SelfCUDANs   int64    `json:"self_cuda_ns"`
	CUDATotalNs  int64    `json:"cuda_total_ns"`
	CUDAAvgNs    int64    `json:"cuda_avg_ns"`
	SelfCPUPct   *float64 `json:"self_cpu_pct"`
	CPUTotalPct  *float64 `json:"cpu_total_pct"`
	SelfCUDAPct  *float64 `json:"self_cuda_pct"`
	CPUMem       *int64   `json:"cpu_mem_bytes"`
	SelfCPUMem   *int64   `json:"self_cpu_mem_bytes"`
	CUDAMem      *int64   `json:"cuda_mem_bytes"`
	SelfCUDAMem  *int64   `json:"self_cuda_mem_bytes"`
	InputShapes  *string  `json:"input_shapes"`
	Stack        []string `json:"stack"`
}

// OpTableJSON is the op table in JSON.
type OpTableJSON struct {
	Schema       string           `json:"schema"`
	File         string           `json:"file"`
	Torch        string           `json:"torch"`
	TorchRebuilt string           `json:"torch_rebuilt"`
	SortBy       string           `json:"sort_by"`
	Steps        *table.StepRange `json:"steps"`
	SelfCPUNs    int64            `json:"self_cpu_total_ns"`
	SelfCUDANs   int64            `json:"self_cuda_total_ns"`
	DeviceColumn bool             `json:"has_device_time"`
	Rows         []OpRowJSON      `json:"rows"`
}

func pctPtr(a, b float64) *float64 {
	if p, ok := table.Pct(a, b); ok {
		return &p
	}
	return nil
}

func sortName(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// OpRows returns the rows of the op table that table() would print.
func OpRows(res *table.Result, lay TorchLayout) []table.Row {
	var out []table.Row
	for i := range res.Rows {
		if len(out) == lay.Limit {
			break
		}
		if lay.TopLevel && !res.Rows[i].TopLevel {
			continue
		}
		out = append(out, res.Rows[i])
	}
	return out
}

// OpTableJSONOf builds the JSON form.
func OpTableJSONOf(file, sortBy string, res *table.Result, lay TorchLayout) *OpTableJSON {
	j := &OpTableJSON{Schema: TableSchema, File: file, Torch: res.Torch.String(), TorchRebuilt: res.Rebuilt.String(),
		SortBy: sortName(sortBy), Steps: res.Steps,
		SelfCPUNs: table.Ns(res.SumSelfCPU), SelfCUDANs: table.Ns(res.SumSelfDev), DeviceColumn: res.HasDeviceTime, Rows: []OpRowJSON{}}
	rows := OpRows(res, lay)
	ns := make([]string, len(rows))
	for i, r := range rows {
		ns[i] = r.Name
	}
	labels := names.Labels(demangled(ns), names.LabelWidth)
	for i, r := range rows {
		o := OpRowJSON{Name: r.Name, Label: labels[i], Device: r.Device, UserAnnotate: r.UserAnn, TopLevel: r.TopLevel, Calls: r.Count,
			SelfCPUNs: table.Ns(r.SelfCPU), CPUTotalNs: table.Ns(r.CPUTotal), CPUAvgNs: table.Ns(r.CPUAvg()),
			SelfCUDANs: table.Ns(r.SelfDev), CUDATotalNs: table.Ns(r.DevTotal), CUDAAvgNs: table.Ns(r.DevAvg()),
			SelfCPUPct: pctPtr(r.SelfCPU, res.SumSelfCPU), CPUTotalPct: pctPtr(r.CPUTotal, res.SumSelfCPU),
			SelfCUDAPct: pctPtr(r.SelfDev, res.SumSelfDev), Stack: r.Stack}
		if res.ProfileMemory {
			o.CPUMem, o.SelfCPUMem = ptr64(r.CPUMem), ptr64(r.SelfCPUMem)
			o.CUDAMem, o.SelfCUDAMem = ptr64(r.DevMem), ptr64(r.SelfDevMem)
		}
		if res.Grouped {
			sh := r.Shapes
			o.InputShapes = &sh
		}
		j.Rows = append(j.Rows, o)
	}
	return j
}

func ptr64(v int64) *int64 { return &v }

// OpGrid is the op table as cells for md and csv: full precision in csv,
// torch's formatting in md, where device rows end in GPUMarker as in the
// text table (csv keeps the name as written).
func OpGrid(res *table.Result, lay TorchLayout, csv bool) *layout.Grid {
	g := &layout.Grid{Headers: []string{"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"}}
	if csv {
		g.Headers = []string{"name", "self_cpu_pct", "self_cpu_ns", "cpu_total_pct", "cpu_total_ns", "cpu_avg_ns"}
	}
	dev := res.HasDeviceTime
	if dev {
		if csv {
			g.Headers = append(g.Headers, "self_cuda_ns", "self_cuda_pct", "cuda_total_ns", "cuda_avg_ns")
		} else {
			g.Headers = append(g.Headers, "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg")
		}
	}
	if res.ProfileMemory {
		if csv {
			g.Headers = append(g.Headers, "cpu_mem_bytes", "self_cpu_mem_bytes")
		} else {
			g.Headers = append(g.Headers, "CPU Mem", "Self CPU Mem")
		}
	}
	if csv {
		g.Headers = append(g.Headers, "calls", "input_shapes")
	} else {
		g.Headers = append(g.Headers, "# of Calls", "Input Shapes")
	}
	g.RightAlign = make([]bool, len(g.Headers))
	g.Names = make([]bool, len(g.Headers))
	for i := 1; i < len(g.Headers)-1; i++ {
		g.RightAlign[i] = true
	}
	g.Names[0], g.Names[len(g.Names)-1] = true, true // the name and the shapes: code spans in Markdown
	tf := func(x float64) string { return torchTime(x, lay.TimeUnit) }
	if csv {
		tf = func(x float64) string { return strconv.FormatInt(table.Ns(x), 10) }
	}
	pf := func(a, b float64) string {
		if csv {
			if p, ok := table.Pct(a, b); ok {
				return strconv.FormatFloat(p, 'f', 2, 64)
			}
			return ""
		}
		return share(a, b)
	}
	for _, r := range OpRows(res, lay) {
		name := r.Name
		if !csv && r.Device {
			name += GPUMarker // md is read as text: tell a device row from a CPU row of its name
		}
		cells := []string{name, pf(r.SelfCPU, res.SumSelfCPU), tf(r.SelfCPU), pf(r.CPUTotal, res.SumSelfCPU), tf(r.CPUTotal), tf(r.CPUAvg())}
		if dev {
			cells = append(cells, tf(r.SelfDev), pf(r.SelfDev, res.SumSelfDev), tf(r.DevTotal), tf(r.DevAvg()))
		}
		if res.ProfileMemory {
			if csv {
				cells = append(cells, strconv.FormatInt(r.CPUMem, 10), strconv.FormatInt(r.SelfCPUMem, 10))
			} else {
				cells = append(cells, torchMemory(r.CPUMem, true), torchMemory(r.SelfCPUMem, true))
			}
		}
		cells = append(cells, strconv.FormatInt(r.Count, 10), r.Shapes)
		g.Rows = append(g.Rows, cells)
	}
	return g
}

// OpTable writes the op table in the given format.
func OpTable(w io.Writer, format, file, sortBy string, res *table.Result, lay TorchLayout) error {
	switch format {
	case "json":
		return layout.JSON(w, OpTableJSONOf(file, sortBy, res, lay))
	case "csv":
		return OpGrid(res, lay, true).Write(w, "csv")
	case "md":
		if err := OpGrid(res, lay, false).Write(w, "md"); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\nSelf CPU time total: "+torchTime(res.SumSelfCPU, lay.TimeUnit)+footDev(res, lay)+"\n")
		return err
	}
	return TorchText(w, res, lay)
}

func footDev(res *table.Result, lay TorchLayout) string {
	if !res.HasDeviceTime {
		return ""
	}
	// a paragraph of its own: Markdown's hard line break would be two
	// trailing spaces, and no text output ends a line with a space
	return "\n\nSelf CUDA time total: " + torchTime(res.SumSelfDev, lay.TimeUnit)
}
