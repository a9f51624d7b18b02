package render

import (
	"io"
	"strconv"

	"github.com/tracetab/tracetab/internal/table"
)

// TableSchema versions the JSON form of the op table.
const TableSchema = "tracetab.table/1"

// OpRowJSON is one op row in JSON: raw microseconds and bytes.
type OpRowJSON struct {
	Name         string   `json:"name"`
	Device       bool     `json:"device_op"`
	Calls        int64    `json:"calls"`
	SelfCPUUs    float64  `json:"self_cpu_us"`
	CPUTotalUs   float64  `json:"cpu_total_us"`
	CPUAvgUs     float64  `json:"cpu_avg_us"`
	SelfCUDAUs   float64  `json:"self_cuda_us"`
	CUDATotalUs  float64  `json:"cuda_total_us"`
	CUDAAvgUs    float64  `json:"cuda_avg_us"`
	SelfCPUPct   float64  `json:"self_cpu_pct"`
	SelfCUDAPct  float64  `json:"self_cuda_pct"`
	CPUMem       *int64   `json:"cpu_mem_bytes,omitempty"`
	SelfCPUMem   *int64   `json:"self_cpu_mem_bytes,omitempty"`
	CUDAMem      *int64   `json:"cuda_mem_bytes,omitempty"`
	SelfCUDAMem  *int64   `json:"self_cuda_mem_bytes,omitempty"`
	InputShapes  string   `json:"input_shapes,omitempty"`
	Stack        []string `json:"stack,omitempty"`
	TopLevel     bool     `json:"top_level"`
	UserAnnotate bool     `json:"user_annotation"`
}

// OpTableJSON is the op table in JSON.
type OpTableJSON struct {
	Schema       string      `json:"schema"`
	File         string      `json:"file"`
	Torch        string      `json:"torch"`
	SortBy       string      `json:"sort_by"`
	SelfCPUUs    float64     `json:"self_cpu_total_us"`
	SelfCUDAUs   float64     `json:"self_cuda_total_us"`
	DeviceColumn bool        `json:"has_device_time"`
	Rows         []OpRowJSON `json:"rows"`
}

func pct(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a * 100 / b
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
	j := &OpTableJSON{Schema: TableSchema, File: file, Torch: res.Torch.String(), SortBy: sortBy,
		SelfCPUUs: res.SumSelfCPU, SelfCUDAUs: res.SumSelfDev, DeviceColumn: res.HasDeviceTime, Rows: []OpRowJSON{}}
	for _, r := range OpRows(res, lay) {
		o := OpRowJSON{Name: r.Name, Device: r.Device, Calls: r.Count,
			SelfCPUUs: r.SelfCPU, CPUTotalUs: r.CPUTotal, CPUAvgUs: r.CPUAvg(),
			SelfCUDAUs: r.SelfDev, CUDATotalUs: r.DevTotal, CUDAAvgUs: r.DevAvg(),
			SelfCPUPct: pct(r.SelfCPU, res.SumSelfCPU), SelfCUDAPct: pct(r.SelfDev, res.SumSelfDev),
			InputShapes: r.Shapes, Stack: r.Stack, TopLevel: r.TopLevel, UserAnnotate: r.UserAnn}
		if res.ProfileMemory {
			o.CPUMem, o.SelfCPUMem = ptr64(r.CPUMem), ptr64(r.SelfCPUMem)
			o.CUDAMem, o.SelfCUDAMem = ptr64(r.DevMem), ptr64(r.SelfDevMem)
		}
		j.Rows = append(j.Rows, o)
	}
	return j
}

func ptr64(v int64) *int64 { return &v }

// OpGrid is the op table as cells for md and csv: full precision in csv,
// torch's formatting in md.
func OpGrid(res *table.Result, lay TorchLayout, csv bool) *Grid {
	g := &Grid{Headers: []string{"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"}}
	if csv {
		g.Headers = []string{"name", "self_cpu_pct", "self_cpu_us", "cpu_total_pct", "cpu_total_us", "cpu_avg_us"}
	}
	dev := res.HasDeviceTime
	if dev {
		if csv {
			g.Headers = append(g.Headers, "self_cuda_us", "self_cuda_pct", "cuda_total_us", "cuda_avg_us")
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
	for i := 1; i < len(g.Headers)-1; i++ {
		g.RightAlign[i] = true
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	tf := func(x float64) string { return torchTime(x, lay.TimeUnit) }
	if csv {
		tf = num
	}
	pf := func(a, b float64) string {
		if csv {
			return num(pct(a, b))
		}
		return share(a, b)
	}
	for _, r := range OpRows(res, lay) {
		cells := []string{r.Name, pf(r.SelfCPU, res.SumSelfCPU), tf(r.SelfCPU), pf(r.CPUTotal, res.SumSelfCPU), tf(r.CPUTotal), tf(r.CPUAvg())}
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
		return JSON(w, OpTableJSONOf(file, sortBy, res, lay))
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
	return "  \nSelf CUDA time total: " + torchTime(res.SumSelfDev, lay.TimeUnit)
}
