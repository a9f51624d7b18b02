// Package tableview lays out the views of tracetab table: the op table
// in torch's layout (key_averages().table()) or the compact one with
// its roofline columns, the kernel and step views, as text fitting a
// width, Markdown, CSV and JSON. It computes nothing.
package tableview

import (
	"io"
	"strconv"

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
	if len(res.Rows) == 0 {
		return nil
	}
	t := newTorchTable(res, lay)
	t.preamble()
	t.body()
	t.footer()
	_, err := io.WriteString(w, t.b.String())
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
