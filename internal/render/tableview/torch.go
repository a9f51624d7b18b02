// Package tableview lays out the views of tracetab table: the op table
// in torch's layout (key_averages().table()) or the compact one with
// its roofline columns, the kernel and step views, as text fitting a
// width, Markdown, CSV and JSON. It computes nothing.
package tableview

import (
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/table"
)

// TorchLayout holds the table(...) arguments of torch's EventList.table.
type TorchLayout struct {
	Limit       int // row_limit; negative prints all
	TopLevel    bool
	NameWidth   int // max_name_column_width; 0 means none
	ShapesWidth int // max_shapes_column_width
	SrcWidth    int // max_src_column_width
	TimeUnit    string
	Header      string
	// TorchExact prints torch's bytes exactly. Without it, device rows
	// (kernels, memcpys, memsets, GPU annotation spans) end in GPUMarker,
	// so a row that shares its name with a CPU row (a Triton op and its
	// kernel, ProfilerStep* on both lanes) can be told apart.
	TorchExact bool
}

// DefaultTorchLayout is table()'s defaults.
func DefaultTorchLayout() TorchLayout {
	return TorchLayout{Limit: 100, NameWidth: 55, ShapesWidth: 80, SrcWidth: 75}
}

// TorchText writes the table as torch's _build_table prints it for the
// version in res.Torch: byte for byte with lay.TorchExact, else with the
// device rows marked (see TorchLayout.TorchExact).
func TorchText(w io.Writer, res *table.Result, lay TorchLayout) error {
	rows := res.Rows
	if len(rows) == 0 {
		return nil
	}
	v := res.Torch
	marker := func(r *table.Row) string {
		if lay.TorchExact || !r.Device {
			return ""
		}
		return GPUMarker
	}
	c := cols{exact: lay.TorchExact}
	hasShapes, hasStack := false, false
	nameW, shapesW, srcW := 0, 0, 0
	for i := range rows {
		nameW = max(nameW, c.width(rows[i].Name)+c.width(marker(&rows[i]))+4)
		if len(rows[i].Shapes) > 0 {
			hasShapes = true
		}
		shapesW = max(shapesW, c.width(rows[i].Shapes)+4)
		for _, fr := range rows[i].Stack {
			hasStack = true
			srcW = max(srcW, c.width(fr)+4)
		}
	}
	if lay.NameWidth > 0 {
		nameW = min(nameW, lay.NameWidth)
	}
	if lay.ShapesWidth > 0 {
		shapesW = min(shapesW, lay.ShapesWidth)
	}
	if lay.SrcWidth > 0 {
		srcW = min(srcW, lay.SrcWidth)
	}
	dev := "CUDA"
	if v.DeviceNameFromUseDevice() && res.UseDevice != "" {
		dev = strings.ToUpper(res.UseDevice)
	}
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
	headers = append(headers, "# of Calls")
	widths := []int{nameW}
	for range headers[1:] {
		widths = append(widths, 12)
	}
	left := make([]bool, len(headers))
	if hasShapes {
		headers = append(headers, "Input Shapes")
		widths = append(widths, shapesW)
		left = append(left, false)
	}
	if hasStack {
		headers = append(headers, "Source Location")
		widths = append(widths, srcW)
		left = append(left, true)
	}
	lineLen := -2
	var sep strings.Builder
	for _, wd := range widths {
		sep.WriteString(strings.Repeat("-", wd))
		sep.WriteString("  ")
		lineLen += wd + 2
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	row := func(vals []string) {
		for i, s := range vals {
			pad := widths[i] - c.width(s)
			if left[i] {
				b.WriteString(s)
			}
			if pad > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
			if !left[i] {
				b.WriteString(s)
			}
			b.WriteString("  ")
		}
		b.WriteByte('\n')
	}
	if lay.Header != "" {
		line(strings.Repeat("=", lineLen))
		line(lay.Header)
	}
	if lay.TopLevel {
		line(strings.Repeat("=", lineLen))
		line("This report only display top-level ops statistics")
	}
	line(sep.String())
	row(headers)
	line(sep.String())
	tf := func(us float64) string { return torchTime(us, lay.TimeUnit) }
	mem := func(n int64) string { return torchMemory(n, v.UpperMemoryUnits()) }
	maxFrames := v.MaxStackFrames()
	distinct := torchDistinctNames(rows, marker, lay)
	printed := 0
	for i := range rows {
		r := &rows[i]
		if printed == lay.Limit {
			break
		}
		if lay.TopLevel && !r.TopLevel {
			continue
		}
		printed++
		name := c.torchName(r.Name, marker(r), lay.NameWidth)
		if d, ok := distinct[i]; ok {
			name = d
		}
		vals := []string{name,
			share(r.SelfCPU, res.SumSelfCPU), tf(r.SelfCPU),
			share(r.CPUTotal, res.SumSelfCPU), tf(r.CPUTotal), tf(r.CPUAvg())}
		if res.HasDeviceTime {
			vals = append(vals, tf(r.SelfDev), share(r.SelfDev, res.SumSelfDev), tf(r.DevTotal), tf(r.DevAvg()))
		}
		if res.ProfileMemory {
			vals = append(vals, mem(r.CPUMem), mem(r.SelfCPUMem))
			if res.UseDevice != "" && res.HasDeviceMem {
				vals = append(vals, mem(r.DevMem), mem(r.SelfDevMem))
			}
		}
		vals = append(vals, strconv.FormatInt(r.Count, 10))
		if hasShapes {
			vals = append(vals, c.head(r.Shapes, shapesW))
		}
		if hasStack {
			src := ""
			if len(r.Stack) > 0 {
				src = c.trimPath(r.Stack[0], srcW)
			}
			vals = append(vals, src)
		}
		row(vals)
		if hasStack {
			empty := make([]string, len(headers))
			var rest []string // the frames after the first; a row without a stack has none (Python's [][1:])
			if len(r.Stack) > 1 {
				rest = r.Stack[1:]
			}
			for k, fr := range rest {
				if k+1 >= maxFrames {
					break
				}
				empty[len(empty)-1] = c.trimPath(fr, srcW)
				row(empty)
			}
			empty[len(empty)-1] = ""
			row(empty)
		}
	}
	line(sep.String())
	line("Self CPU time total: " + tf(res.SumSelfCPU))
	if res.HasDeviceTime {
		line("Self " + dev + " time total: " + tf(res.SumSelfDev))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// torchName is the name cell: torch cuts a name of width-3 columns or
// more to width-3 and adds "..."; a marker stays whole at the end, and the
// name is cut to leave it room, so the cell is as wide as torch's.
func (c cols) torchName(name, marker string, width int) string {
	full := name + marker
	if width <= 0 || c.width(full) < width-3 {
		return full
	}
	keep := width - 3 - c.width(marker)
	if keep < 0 && marker == "" {
		keep = max(c.width(name)+keep, 0) // Python's key[:width-3] for width < 3
	}
	return c.head(name, keep) + "..." + marker
}

// torchDistinctNames is, outside --torch-exact, the name cell of each row that
// torch would cut: cut in the middle instead of at the end, and where two
// different names with the same marker would still look alike, the later
// ones end in #2, #3 (names.Column). The cell is never wider than torch's.
func torchDistinctNames(rows []table.Row, marker func(*table.Row) string, lay TorchLayout) map[int]string {
	if lay.TorchExact || lay.NameWidth <= 0 {
		return nil
	}
	type group struct {
		idx   []int
		names []string
	}
	groups := map[string]*group{}
	for i := range rows {
		m := marker(&rows[i])
		if layout.Width(rows[i].Name+m) < lay.NameWidth-3 {
			continue
		}
		g := groups[m]
		if g == nil {
			g = &group{}
			groups[m] = g
		}
		g.idx = append(g.idx, i)
		g.names = append(g.names, rows[i].Name)
	}
	out := map[int]string{}
	for m, g := range groups {
		w := lay.NameWidth - layout.Width(m)
		if w < len(names.Ellipsis)+2 {
			continue // too narrow to cut in the middle: torch's cut
		}
		for k, shown := range names.Column(g.names, w) {
			out[g.idx[k]] = shown + m
		}
	}
	return out
}

// torchTime is _format_time, or override_time_unit when unit is set.
func torchTime(us float64, unit string) string {
	switch unit {
	case "s":
		return f3(us/1e6) + "s"
	case "ms":
		return f3(us/1e3) + "ms"
	case "us":
		return f3(us) + "us"
	}
	switch {
	case us >= 1e6:
		return f3(us/1e6) + "s"
	case us >= 1e3:
		return f3(us/1e3) + "ms"
	}
	return f3(us) + "us"
}

func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// share is _format_time_share.
func share(t, total float64) string {
	if total == 0 {
		return "NaN"
	}
	return strconv.FormatFloat(t*100.0/total, 'f', 2, 64) + "%"
}

// torchMemory is _format_memory ("Kb" up to 2.6, "KB" after).
func torchMemory(n int64, upper bool) string {
	const kb, mb, gb = 1024, 1024 * 1024, 1024 * 1024 * 1024
	a := n
	if a < 0 {
		a = -a
	}
	u := [4]string{" Gb", " Mb", " Kb", " b"}
	if upper {
		u = [4]string{" GB", " MB", " KB", " B"}
	}
	switch {
	case a >= gb:
		return strconv.FormatFloat(float64(n)*1.0/gb, 'f', 2, 64) + u[0]
	case a >= mb:
		return strconv.FormatFloat(float64(n)*1.0/mb, 'f', 2, 64) + u[1]
	case a >= kb:
		return strconv.FormatFloat(float64(n)*1.0/kb, 'f', 2, 64) + u[2]
	}
	return strconv.FormatInt(n, 10) + u[3]
}
