// Package rooflineview lays out roofline.Result: a table of op rows (text
// fitting a width, Markdown, CSV), the summary, and the JSON document
// tracetab.roofline/1. It computes nothing.
package rooflineview

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/roofline"
	"github.com/tracetab/tracetab/internal/units"
)

// Options say how the rows are shown.
type Options struct {
	Limit    int  // rows shown; negative: all
	Width    int  // text width
	Demangle bool // device-op names demangled in text and Markdown
}

// shown is the rows within the limit.
func shown(r *roofline.Result, limit int) []roofline.Row {
	if limit < 0 || limit >= len(r.Rows) {
		return r.Rows
	}
	return r.Rows[:limit]
}

const na = "n/a"

func f2(p *float64) string {
	if p == nil {
		return na
	}
	return strconv.FormatFloat(*p, 'f', 2, 64)
}

func pct(p *float64) string {
	if p == nil {
		return na
	}
	return units.Pct(*p)
}

func count(p *int64) string {
	if p == nil {
		return na
	}
	return strconv.FormatInt(*p, 10)
}

func orNA(s string) string {
	if s == "" {
		return na
	}
	return s
}

// displayName is the row's name for people: a device op row says so.
func displayName(r *roofline.Row, demangle bool) string {
	n := r.Name
	if demangle {
		n = names.Demangle(n)
	}
	if r.DeviceOp {
		n += " [gpu]"
	}
	return n
}

// shapes is the recorded Input Dims for people: each tensor's sizes joined
// by x (a list of tensors in brackets), the arguments that are not tensors
// left out, then the first tensor's dtype: "512, 141x512, 512x512 bf16".
func shapes(r *roofline.Row) string {
	if r.Dims == "" {
		return ""
	}
	var parts []string
	var dims []any
	if json.Unmarshal([]byte(r.Dims), &dims) != nil {
		return r.Dims
	}
	var types []string
	json.Unmarshal([]byte(r.Types), &types)
	first := ""
	for i, d := range dims {
		t := ""
		if i < len(types) {
			t = types[i]
		}
		s := sizes(d)
		if s == "" || (len(types) == len(dims) && t != "TensorList" && !roofline.IsDType(t)) {
			continue
		}
		parts = append(parts, s)
		if first == "" && roofline.IsDType(t) {
			first = t
		}
	}
	out := strings.Join(parts, ", ")
	if first != "" {
		out += " " + shortDType(first)
	}
	return out
}

// sizes writes a JSON list of sizes as AxB, a list of such lists in
// brackets; "" for an empty list (a scalar or None).
func sizes(d any) string {
	xs, ok := d.([]any)
	if !ok || len(xs) == 0 {
		return ""
	}
	var ps []string
	nested := false
	for _, x := range xs {
		switch v := x.(type) {
		case float64:
			ps = append(ps, strconv.FormatFloat(v, 'f', -1, 64))
		case []any:
			nested = true
			if s := sizes(v); s != "" {
				ps = append(ps, s)
			}
		}
	}
	if nested {
		return "[" + strings.Join(ps, ", ") + "]"
	}
	return strings.Join(ps, "x")
}

// shortDType names a dtype as people write it.
func shortDType(t string) string {
	switch t {
	case "float":
		return "fp32"
	case "double":
		return "fp64"
	case "c10::Half":
		return "fp16"
	case "c10::BFloat16":
		return "bf16"
	case "long int", "long":
		return "int64"
	case "int":
		return "int32"
	}
	return strings.TrimPrefix(t, "c10::")
}

func family(r *roofline.Row) string {
	if r.Est == nil {
		return ""
	}
	return string(r.Est.Family)
}

// Table writes the rows as text (fitting o.Width), md or csv, and for text
// and md the summary after them.
func Table(w io.Writer, format string, r *roofline.Result, o Options) error {
	rows := shown(r, o.Limit)
	var g layout.Grid
	if format == "csv" {
		g = csvGrid(rows)
	} else {
		g = layout.Grid{
			Headers:    []string{"Op", "Input shapes", "Calls", "Device", "TFLOP/s", "TB/s", "% peak", "Bound"},
			RightAlign: []bool{false, false, true, true, true, true, true, false},
			Names:      []bool{true, true},
			Width:      o.Width,
			MinName:    12,
		}
		if format == "md" {
			g.Headers = []string{"Op", "Input shapes", "Family", "Calls", "Device", "FLOPs", "Bytes", "FLOP/B", "TFLOP/s", "TB/s",
				"Precision", "% compute", "% memory", "% peak", "Bound"}
			g.RightAlign = []bool{false, false, false, true, true, true, true, true, true, true, false, true, true, true, false}
		}
		for i := range rows {
			x := &rows[i]
			name := displayName(x, o.Demangle && (format == "text" || format == "md"))
			if format == "md" {
				g.Rows = append(g.Rows, []string{name, shapes(x), orNA(family(x)), strconv.FormatInt(x.Calls, 10), units.Dur(x.DeviceNs),
					count(x.FLOPs), count(x.Bytes), f2(x.Intensity), f2(x.TFLOPs), f2(x.TBps), orNA(string(x.Precision)),
					pct(x.ComputePct), pct(x.MemoryPct), pct(x.PeakPct), orNA(x.Bound)})
				continue
			}
			g.Rows = append(g.Rows, []string{name, shapes(x), strconv.FormatInt(x.Calls, 10), units.Dur(x.DeviceNs),
				f2(x.TFLOPs), f2(x.TBps), pct(x.PeakPct), orNA(x.Bound)})
		}
	}
	if err := g.Write(w, format); err != nil {
		return err
	}
	if format == "csv" {
		return nil
	}
	var b strings.Builder
	if len(rows) < len(r.Rows) {
		b.WriteString(units.Plural(len(r.Rows)-len(rows), "more row", "more rows") + " (--limit -1 shows all)\n")
	}
	width := o.Width
	if format == "md" {
		width = 0
		b.WriteString("\n")
	}
	for _, s := range Summary(r) {
		for _, l := range layout.Wrap(s, width, "  ") {
			if format == "md" {
				l = layout.MdText(l)
			}
			b.WriteString(l + "\n")
		}
		if format == "md" {
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// csvGrid is every figure of every row, full precision, in the JSON's names.
func csvGrid(rows []roofline.Row) layout.Grid {
	g := layout.Grid{Headers: []string{"name", "device_op", "input_shapes", "input_types", "concrete_inputs", "device", "family", "model",
		"model_note", "calls", "device_ns", "flops", "bytes", "flops_per_byte", "tflops_per_s", "tb_per_s", "precision",
		"peak_tflops_per_s", "pct_of_compute_peak", "pct_of_memory_peak", "peak_pct", "bound", "lost_ns"}}
	full := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	cnt := func(p *int64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatInt(*p, 10)
	}
	for i := range rows {
		x := &rows[i]
		model := ""
		if x.Est != nil {
			model = x.Est.Model
		}
		g.Rows = append(g.Rows, []string{x.Name, strconv.FormatBool(x.DeviceOp), x.Dims, x.Types, x.Values, strconv.Itoa(x.Device),
			family(x), model, x.NoModel, strconv.FormatInt(x.Calls, 10), strconv.FormatInt(x.DeviceNs, 10), cnt(x.FLOPs), cnt(x.Bytes),
			full(x.Intensity), full(x.TFLOPs), full(x.TBps), string(x.Precision), full(x.PeakTFLOPs), full(x.ComputePct),
			full(x.MemoryPct), full(x.PeakPct), x.Bound, cnt(x.LostNs)})
	}
	return g
}
