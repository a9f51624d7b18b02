package tableview

import (
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/table"
)

// torchTable is torch's _build_table under way: the columns chosen and
// measured once, then the lines written into b.
type torchTable struct {
	res     *table.Result
	lay     TorchLayout
	c       cols
	w       torchWidths
	dev     string // the device's name in the headers (CUDA, XPU, ...)
	headers []string
	widths  []int
	left    []bool // left-aligned columns (Source Location)
	sep     string // the dashed rule, two spaces after each column
	lineLen int    // its length without the final two spaces
	b       strings.Builder
}

func newTorchTable(res *table.Result, lay TorchLayout) *torchTable {
	t := &torchTable{res: res, lay: lay, c: cols{exact: lay.TorchExact}}
	t.w = measureTorchColumns(res.Rows, t.c, t.marker, lay)
	t.dev = torchDeviceName(res)
	t.headers = torchHeaders(res, t.dev)
	t.columnLayout()
	return t
}

// marker is what ends a row's name: GPUMarker on a device row outside
// --torch-exact, else nothing.
func (t *torchTable) marker(r *table.Row) string {
	if t.lay.TorchExact || !r.Device {
		return ""
	}
	return GPUMarker
}

// torchWidths are the widths of the name, shapes and source columns, and
// whether the last two exist.
type torchWidths struct {
	name, shapes, src   int
	hasShapes, hasStack bool
}

// measureTorchColumns is torch's column sizing: each of the name, shapes
// and source columns is as wide as its longest cell plus 4 (the name with
// its marker, the source over every frame), capped at the layout's limit
// when that is set; the shapes column exists when a row has shapes, the
// source column when a row has a stack.
func measureTorchColumns(rows []table.Row, c cols, marker func(*table.Row) string, lay TorchLayout) torchWidths {
	var w torchWidths
	for i := range rows {
		w.name = max(w.name, c.width(rows[i].Name)+c.width(marker(&rows[i]))+4)
		if len(rows[i].Shapes) > 0 {
			w.hasShapes = true
		}
		w.shapes = max(w.shapes, c.width(rows[i].Shapes)+4)
		for _, fr := range rows[i].Stack {
			w.hasStack = true
			w.src = max(w.src, c.width(fr)+4)
		}
	}
	if lay.NameWidth > 0 {
		w.name = min(w.name, lay.NameWidth)
	}
	if lay.ShapesWidth > 0 {
		w.shapes = min(w.shapes, lay.ShapesWidth)
	}
	if lay.SrcWidth > 0 {
		w.src = min(w.src, lay.SrcWidth)
	}
	return w
}

// torchDeviceName is CUDA, or from torch 2.4 on the trace's use_device in
// capitals when it has one.
func torchDeviceName(res *table.Result) string {
	if res.Torch.DeviceNameFromUseDevice() && res.UseDevice != "" {
		return strings.ToUpper(res.UseDevice)
	}
	return "CUDA"
}

// torchHeaders are the fixed-width columns: the CPU times, the device
// times when some row has device time, the CPU memory when the trace
// profiled memory and the device memory when it also has a device with
// memory, then the call count.
func torchHeaders(res *table.Result, dev string) []string {
	headers := []string{"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"}
	if res.HasDeviceTime {
		headers = append(headers, "Self "+dev, "Self "+dev+" %", dev+" total", dev+" time avg")
	}
	if res.ProfileMemory {
		headers = append(headers, "CPU Mem", "Self CPU Mem")
		if res.UseDevice != "" && res.HasDeviceMem {
			headers = append(headers, dev+" Mem", "Self "+dev+" Mem")
		}
	}
	return append(headers, "# of Calls")
}

// columnLayout adds the shapes and source columns to the headers and
// sets every column's width and alignment (12 for each fixed column; the
// source left-aligned) and the dashed rule.
func (t *torchTable) columnLayout() {
	t.widths = []int{t.w.name}
	for range t.headers[1:] {
		t.widths = append(t.widths, 12)
	}
	t.left = make([]bool, len(t.headers))
	if t.w.hasShapes {
		t.headers = append(t.headers, "Input Shapes")
		t.widths = append(t.widths, t.w.shapes)
		t.left = append(t.left, false)
	}
	if t.w.hasStack {
		t.headers = append(t.headers, "Source Location")
		t.widths = append(t.widths, t.w.src)
		t.left = append(t.left, true)
	}
	t.lineLen = -2
	var sep strings.Builder
	for _, wd := range t.widths {
		sep.WriteString(strings.Repeat("-", wd))
		sep.WriteString("  ")
		t.lineLen += wd + 2
	}
	t.sep = sep.String()
}

func (t *torchTable) line(s string) { t.b.WriteString(s); t.b.WriteByte('\n') }

// row writes one line of cells, each padded to its column's width and
// followed by two spaces.
func (t *torchTable) row(vals []string) {
	for i, s := range vals {
		pad := t.widths[i] - t.c.width(s)
		if t.left[i] {
			t.b.WriteString(s)
		}
		if pad > 0 {
			t.b.WriteString(strings.Repeat(" ", pad))
		}
		if !t.left[i] {
			t.b.WriteString(s)
		}
		t.b.WriteString("  ")
	}
	t.b.WriteByte('\n')
}

// preamble is the header line and the top-level banner, each under a
// rule of '=', then the column headers between dashed rules.
func (t *torchTable) preamble() {
	if t.lay.Header != "" {
		t.line(strings.Repeat("=", t.lineLen))
		t.line(t.lay.Header)
	}
	if t.lay.TopLevel {
		t.line(strings.Repeat("=", t.lineLen))
		t.line("This report only display top-level ops statistics")
	}
	t.line(t.sep)
	t.row(t.headers)
	t.line(t.sep)
}

func (t *torchTable) time(us float64) string { return torchTime(us, t.lay.TimeUnit) }

// body writes the rows in order, at most lay.Limit of them (the rows
// --top-level skips do not count), each followed by its stack lines.
func (t *torchTable) body() {
	rows := t.res.Rows
	distinct := torchDistinctNames(rows, t.marker, t.lay)
	printed := 0
	for i := range rows {
		r := &rows[i]
		if printed == t.lay.Limit {
			break
		}
		if t.lay.TopLevel && !r.TopLevel {
			continue
		}
		printed++
		name := t.c.torchName(r.Name, t.marker(r), t.lay.NameWidth)
		if d, ok := distinct[i]; ok {
			name = d
		}
		t.row(t.cells(r, name))
		if t.w.hasStack {
			for _, fr := range torchMoreFrames(r.Stack, t.res.Torch.MaxStackFrames()) {
				t.sourceLine(t.c.trimPath(fr, t.w.src))
			}
			t.sourceLine("")
		}
	}
}

// cells is a row's cells: name, times and shares, memory, calls, shapes,
// the first frame of its stack.
func (t *torchTable) cells(r *table.Row, name string) []string {
	res := t.res
	mem := func(n int64) string { return torchMemory(n, res.Torch.UpperMemoryUnits()) }
	vals := []string{name,
		share(r.SelfCPU, res.SumSelfCPU), t.time(r.SelfCPU),
		share(r.CPUTotal, res.SumSelfCPU), t.time(r.CPUTotal), t.time(r.CPUAvg())}
	if res.HasDeviceTime {
		vals = append(vals, t.time(r.SelfDev), share(r.SelfDev, res.SumSelfDev), t.time(r.DevTotal), t.time(r.DevAvg()))
	}
	if res.ProfileMemory {
		vals = append(vals, mem(r.CPUMem), mem(r.SelfCPUMem))
		if res.UseDevice != "" && res.HasDeviceMem {
			vals = append(vals, mem(r.DevMem), mem(r.SelfDevMem))
		}
	}
	vals = append(vals, strconv.FormatInt(r.Count, 10))
	if t.w.hasShapes {
		vals = append(vals, t.c.head(r.Shapes, t.w.shapes))
	}
	if t.w.hasStack {
		src := ""
		if len(r.Stack) > 0 {
			src = t.c.trimPath(r.Stack[0], t.w.src)
		}
		vals = append(vals, src)
	}
	return vals
}

// torchMoreFrames are the frames printed on lines of their own under a
// row: those after the first (a row without a stack has none: Python's
// [][1:]), up to maxFrames frames in all.
func torchMoreFrames(stack []string, maxFrames int) []string {
	if len(stack) <= 1 {
		return nil
	}
	rest := stack[1:]
	return rest[:max(0, min(len(rest), maxFrames-1))]
}

// sourceLine is a line with every cell empty but the source.
func (t *torchTable) sourceLine(src string) {
	empty := make([]string, len(t.headers))
	empty[len(empty)-1] = src
	t.row(empty)
}

// footer is the closing rule and the self-time totals.
func (t *torchTable) footer() {
	t.line(t.sep)
	t.line("Self CPU time total: " + t.time(t.res.SumSelfCPU))
	if t.res.HasDeviceTime {
		t.line("Self " + t.dev + " time total: " + t.time(t.res.SumSelfDev))
	}
}
