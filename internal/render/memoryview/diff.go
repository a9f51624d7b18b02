package memoryview

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/layout"
)

// DiffText writes the memory part of a diff (text or md): per device the
// peaks and the median step growth on both sides, then the ops holding the
// most memory at the peak (top per device; 0: all).
func DiffText(w io.Writer, md *diff.MemoryDiff, format string, top, width int) error {
	if md == nil {
		return nil
	}
	p := &page{w: w, md: format == "md", width: width, n: 1}
	p.heading("Memory (per device; each side the median over its traces)")
	if len(md.Devices) == 0 {
		p.para("Neither side has [memory] events: profile with profile_memory=True.")
		return p.err
	}
	// a metric that cannot be compared says n/a and points to its reason,
	// written below the table as prose (it fits the width; a cell would not)
	var reasons []string
	g := &layout.Grid{Headers: []string{"Device", "Metric", "Base", "New", "Change"}, RightAlign: []bool{false, false, true, true, true}}
	for _, d := range md.Devices {
		for _, c := range d.Metrics {
			row := changeRow(d.Device, c.Metric, c)
			if c.Missing != "" {
				k := slices.Index(reasons, c.Missing)
				if k < 0 {
					reasons, k = append(reasons, c.Missing), len(reasons)
				}
				row[4] = "n/a (" + strconv.Itoa(k+1) + ")"
			}
			g.Rows = append(g.Rows, row)
		}
	}
	p.grid(g)
	if len(reasons) > 0 {
		var lines []string
		for k, r := range reasons {
			r = "(" + strconv.Itoa(k+1) + ") " + r
			if p.md {
				lines = append(lines, "- "+r)
				continue
			}
			lines = append(lines, layout.Wrap(r, p.width, "    ")...)
		}
		p.write(strings.Join(lines, "\n") + "\n")
	}
	ops := &layout.Grid{Headers: []string{"Device", "Alive at the peak, by op", "Base", "New", "Change"},
		RightAlign: []bool{false, false, true, true, true}, Names: []bool{false, true}}
	for _, d := range md.Devices {
		for i, c := range d.Ops {
			if top > 0 && i >= top {
				break
			}
			ops.Rows = append(ops.Rows, changeRow(d.Device, c.Op, c))
		}
	}
	if len(ops.Rows) > 0 {
		p.grid(ops)
	}
	return p.err
}

func changeRow(dev, what string, c diff.MemoryChange) []string {
	if c.Missing != "" {
		return []string{dev, what, "n/a", "n/a", c.Missing}
	}
	return []string{dev, what, diff.MemoryBytes(c.Base), diff.MemoryBytes(c.New), (cells{text: true}).signed(c.Abs) + " (" + relText(c.Rel) + ")"}
}

func relText(r float64) string {
	switch {
	case math.IsInf(r, 1):
		return "new"
	case math.IsNaN(r):
		return "0.0%"
	}
	s := strconv.FormatFloat(r*100, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	if r > 0 {
		s = "+" + s
	}
	return s + "%"
}

type memChangeJSON struct {
	BaseBytes  *int64   `json:"base_bytes"`
	NewBytes   *int64   `json:"new_bytes"`
	DeltaBytes *int64   `json:"delta_bytes"`
	DeltaPct   *float64 `json:"delta_pct"`
	BaseTraces int      `json:"base_traces"`
	NewTraces  int      `json:"new_traces"`
	Missing    *string  `json:"reason"`
}

type memMetricJSON struct {
	Metric string `json:"metric"`
	memChangeJSON
}

type memOpJSON struct {
	Op *string `json:"op"` // null: outside every op
	memChangeJSON
}

type memDeviceJSON struct {
	Device  string          `json:"device_name"`
	Status  *string         `json:"status"`
	Metrics []memMetricJSON `json:"metrics"`
	Ops     []memOpJSON     `json:"alive_at_peak_by_op"`
}

// DiffJSONValue is the "memory" member of tracetab.diff: nil (null) when
// neither side has [memory] events.
func DiffJSONValue(md *diff.MemoryDiff) any {
	if md == nil {
		return nil
	}
	out := struct {
		Devices []memDeviceJSON `json:"devices"`
	}{Devices: []memDeviceJSON{}}
	for _, d := range md.Devices {
		dj := memDeviceJSON{Device: d.Device, Status: orNull(d.Status, d.Status != ""), Metrics: []memMetricJSON{}, Ops: []memOpJSON{}}
		for _, c := range d.Metrics {
			dj.Metrics = append(dj.Metrics, memMetricJSON{c.Metric, memChange(c)})
		}
		for _, c := range d.Ops {
			dj.Ops = append(dj.Ops, memOpJSON{opJSON(c.Op), memChange(c)})
		}
		out.Devices = append(out.Devices, dj)
	}
	return out
}

func memChange(c diff.MemoryChange) memChangeJSON {
	ok := c.Missing == ""
	j := memChangeJSON{BaseBytes: orNull(c.Base, c.BaseN > 0), NewBytes: orNull(c.New, c.NewN > 0), DeltaBytes: orNull(c.Abs, ok),
		BaseTraces: c.BaseN, NewTraces: c.NewN, Missing: orNull(c.Missing, !ok)}
	if ok && !math.IsInf(c.Rel, 0) && !math.IsNaN(c.Rel) {
		j.DeltaPct = ptrF(math.Round(c.Rel*10000) / 100)
	}
	return j
}

func ptrF(f float64) *float64 { return &f }
