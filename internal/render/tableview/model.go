package tableview

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/units"
)

// RowModel is a table row's roofline figures (tracetab roofline): over the
// modelled calls of the row's op, the FLOPs, the achieved TFLOP/s and the
// time-weighted % of peak of their bound resource. Nil fields are n/a.
type RowModel struct {
	FLOPs   *int64
	TFLOPs  *float64
	PeakPct *float64
}

// modelCells are the cells of the roofline columns, by column key.
var modelCells = map[string]func(m *RowModel) string{
	"flops": func(m *RowModel) string {
		if m.FLOPs == nil {
			return "n/a"
		}
		return siCount(*m.FLOPs)
	},
	"tflops_s": func(m *RowModel) string {
		if m.TFLOPs == nil {
			return "n/a"
		}
		return strconv.FormatFloat(*m.TFLOPs, 'f', 2, 64)
	},
	"pct_peak": func(m *RowModel) string {
		if m.PeakPct == nil {
			return "n/a"
		}
		return units.Pct(*m.PeakPct) + "%"
	},
}

func init() {
	CompactColumns = append(CompactColumns,
		CompactColumn{Key: "flops", Header: "FLOPs"},
		CompactColumn{Key: "tflops_s", Header: "TFLOP/s"},
		CompactColumn{Key: "pct_peak", Header: "% peak"})
}

// IsModelColumn reports whether a compact column shows roofline figures
// (CompactLayout.Model gives them).
func IsModelColumn(key string) bool { return modelCells[key] != nil }

func (lay *CompactLayout) rowModel(r *table.Row) *RowModel {
	if lay.Model == nil {
		return &RowModel{}
	}
	if m := lay.Model(r); m != nil {
		return m
	}
	return &RowModel{}
}

// siCount writes a count with an SI prefix and three digits after the
// point: 1.257G, 74.000M, 512.
func siCount(n int64) string {
	v := float64(n)
	for _, p := range []struct {
		s string
		f float64
	}{{"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3}} {
		if v >= p.f {
			return strconv.FormatFloat(v/p.f, 'f', 3, 64) + p.s
		}
	}
	return strconv.FormatInt(n, 10)
}
