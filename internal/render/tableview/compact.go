package tableview

import (
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/units"
)

// CompactColumn is one column the compact op table can show.
type CompactColumn struct {
	Key    string // what --columns names it
	Header string
	cell   func(r *table.Row, res *table.Result) string
}

// usCell formats an op row's time as torch's layout does (_format_time):
// the row's float microseconds scaled and rounded by the same rule, so a
// tie prints the same digits in both layouts.
func usCell(us float64) string { return torchTime(us, "") }

func pctCell(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return units.Pct(a*100/b) + "%"
}

// CompactColumns are the columns of the compact op table, keyed by the
// short names --columns takes (torch's sort keys name them too).
var CompactColumns = []CompactColumn{
	{"self_cpu", "Self CPU", func(r *table.Row, _ *table.Result) string { return usCell(r.SelfCPU) }},
	{"self_cpu_pct", "Self CPU %", func(r *table.Row, res *table.Result) string { return pctCell(r.SelfCPU, res.SumSelfCPU) }},
	{"cpu_total", "CPU total", func(r *table.Row, _ *table.Result) string { return usCell(r.CPUTotal) }},
	{"cpu_avg", "CPU avg", func(r *table.Row, _ *table.Result) string { return usCell(r.CPUAvg()) }},
	{"self_cuda", "Self CUDA", func(r *table.Row, _ *table.Result) string { return usCell(r.SelfDev) }},
	{"self_cuda_pct", "Self CUDA %", func(r *table.Row, res *table.Result) string { return pctCell(r.SelfDev, res.SumSelfDev) }},
	{"cuda_total", "CUDA total", func(r *table.Row, _ *table.Result) string { return usCell(r.DevTotal) }},
	{"cuda_avg", "CUDA avg", func(r *table.Row, _ *table.Result) string { return usCell(r.DevAvg()) }},
	{"calls", "Calls", func(r *table.Row, _ *table.Result) string { return strconv.FormatInt(r.Count, 10) }},
	{"cpu_mem", "CPU Mem", func(r *table.Row, _ *table.Result) string { return units.Bytes(r.CPUMem) }},
	{"self_cpu_mem", "Self CPU Mem", func(r *table.Row, _ *table.Result) string { return units.Bytes(r.SelfCPUMem) }},
	{"cuda_mem", "CUDA Mem", func(r *table.Row, _ *table.Result) string { return units.Bytes(r.DevMem) }},
	{"self_cuda_mem", "Self CUDA Mem", func(r *table.Row, _ *table.Result) string { return units.Bytes(r.SelfDevMem) }},
}

// CompactLayout says what the compact op table shows: the columns in
// order (the name always first) and the width of the whole line.
type CompactLayout struct {
	Columns   []CompactColumn
	Width     int // the line's width in columns, the name column taking what is left; 0: no limit
	NameWidth int // --name-width when given: the name column at most this wide (0: no cap)
	Demangle  bool
	Torch     TorchLayout // for the row limit and top-level filter
	// Model gives a row's roofline figures for the model columns; nil
	// when none is shown.
	Model func(r *table.Row) *RowModel
}

// GPUMarker ends the name of a device row (kernel, memcpy, memset, GPU
// annotation span) in the compact table.
const GPUMarker = " [gpu]"

// minNameWidth is the narrowest name column the compact table uses, even
// when the other columns leave less.
const minNameWidth = 16

// CompactOpTable writes the op table for a terminal of lay.Width columns:
// the chosen columns, each as wide as its widest cell, and names cut in the
// middle (and #2 where two still look alike) to fill the rest.
func CompactOpTable(w io.Writer, res *table.Result, lay CompactLayout) error {
	rows := OpRows(res, lay.Torch)
	cells := make([][]string, len(rows))
	widths := make([]int, len(lay.Columns))
	for j, c := range lay.Columns {
		widths[j] = layout.Width(c.Header)
	}
	raw := make([]string, len(rows))
	for i := range rows {
		raw[i] = rows[i].Name
		cells[i] = make([]string, len(lay.Columns))
		for j, c := range lay.Columns {
			if mc := modelCells[c.Key]; mc != nil {
				cells[i][j] = mc(lay.rowModel(&rows[i]))
			} else {
				cells[i][j] = c.cell(&rows[i], res)
			}
			widths[j] = max(widths[j], layout.Width(cells[i][j]))
		}
	}
	if lay.Demangle {
		raw = names.DemangleAll(raw)
	}
	rest := lay.Width
	for _, wd := range widths {
		rest -= wd + 2
	}
	nameW := max(rest, minNameWidth)
	if lay.Width <= 0 {
		nameW = 0 // no limit: every name whole
	}
	if lay.NameWidth > 0 && (nameW == 0 || lay.NameWidth < nameW) {
		nameW = max(lay.NameWidth, len(names.Ellipsis)+2) // --name-width caps it
	}
	// a kernel or GPU annotation row can share its name with a CPU row (a
	// Triton op and its kernel; ProfilerStep* on both lanes): it ends in
	// the marker, after the cut and any #2, as in torch's layout
	shown := make([]string, len(rows))
	for _, dev := range []bool{false, true} {
		var idx []int
		var col []string
		for i := range rows {
			if rows[i].Device == dev {
				idx, col = append(idx, i), append(col, raw[i])
			}
		}
		w := nameW
		m := ""
		if dev {
			m = GPUMarker
			if w > 0 {
				w = max(w-layout.Width(m), len(names.Ellipsis)+2)
			}
		}
		for k, s := range names.Column(col, w) {
			shown[idx[k]] = s + m
		}
	}
	longest := layout.Width("Name")
	for _, s := range shown {
		longest = max(longest, layout.Width(s))
	}
	if nameW <= 0 || nameW > longest {
		nameW = longest
	}

	var b strings.Builder
	line := func(name string, vals []string) {
		b.WriteString(name + strings.Repeat(" ", nameW-layout.Width(name)))
		for j, v := range vals {
			b.WriteString("  " + strings.Repeat(" ", widths[j]-layout.Width(v)) + v)
		}
		b.WriteString("\n")
	}
	heads := make([]string, len(lay.Columns))
	for j, c := range lay.Columns {
		heads[j] = c.Header
	}
	line("Name", heads)
	total := nameW
	for _, wd := range widths {
		total += wd + 2
	}
	b.WriteString(strings.Repeat("-", total) + "\n")
	for i := range rows {
		line(shown[i], cells[i])
	}
	b.WriteString(strings.Repeat("-", total) + "\n")
	b.WriteString("Self CPU time total: " + usCell(res.SumSelfCPU))
	if res.HasDeviceTime {
		b.WriteString("; Self CUDA time total: " + usCell(res.SumSelfDev))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
