package reportview

import (
	"encoding/json"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/render/gapsview"
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// The page's data, as the script reads it. Lists of numbers are columns
// (one list per field); starts and bins are written as the difference to
// the one before (the script adds them up once when it loads).

type laneJSON struct {
	Kind   string `json:"kind"`
	Label  string `json:"label"`
	Device int    `json:"device"`
	Stream int64  `json:"stream"`
	Rows   int    `json:"rows"`
	// the lane's events shorter than this (outside the detail step) are
	// bands only; 0 when all are written
	ShortestNs int64    `json:"shortest_ns"`
	Start      []int64  `json:"s"` // delta-coded
	Dur        []int64  `json:"d"`
	Name       []int32  `json:"n"`
	Shape      []int32  `json:"x"`
	Row        []int16  `json:"r"`
	Kind_      []uint16 `json:"k"`
	Link       []int32  `json:"l"`
}

type bandJSON struct {
	Lane  int     `json:"lane"`
	Row   int     `json:"row"`
	Bin   []int64 `json:"b"` // delta-coded
	Pct   []int8  `json:"p"`
	Count []int32 `json:"c"`
}

type levelJSON struct {
	BinNs  int64      `json:"bin_ns"`
	FromNs int64      `json:"from_ns"`
	ToNs   int64      `json:"to_ns"`
	Bands  []bandJSON `json:"bands"`
}

type gapMarkJSON struct {
	Device  int    `json:"device"`
	StartNs int64  `json:"start_ns"`
	LenNs   int64  `json:"length_ns"`
	Cause   string `json:"cause"`
	Color   string `json:"color"`
	Label   string `json:"label"` // the gaps text's cause line, with the length
	Short   string `json:"short"` // what the CPU was doing, for a label on the timeline
}

type stepMarkJSON struct {
	Step    int64 `json:"step"`
	StartNs int64 `json:"start_ns"` // the CPU annotation
	EndNs   int64 `json:"end_ns"`
}

type memJSON struct {
	Device   string  `json:"device"`
	T        []int64 `json:"t"` // delta-coded: the points, or the columns' starts
	Alloc    []int64 `json:"allocated"`
	Reserved []int64 `json:"reserved"`      // [] without Total Reserved
	MinAlloc []int64 `json:"min_allocated"` // columns only: [] for points
	Columns  bool    `json:"columns"`
	// the peak and its text; the scale of the drawing
	PeakNs    int64  `json:"peak_ns"`
	PeakBytes int64  `json:"peak_bytes"`
	PeakText  string `json:"peak_text"`
	MaxBytes  int64  `json:"max_bytes"`
}

type dataJSON struct {
	StartNs int64          `json:"start_ns"`
	EndNs   int64          `json:"end_ns"`
	Strings []string       `json:"strings"`
	Kinds   []string       `json:"kinds"`       // trace.Kind names by number
	Colors  []string       `json:"kind_colors"` // their colours
	Lanes   []laneJSON     `json:"lanes"`
	Levels  []levelJSON    `json:"levels"`
	Detail  *Window        `json:"detail"`
	Events  int            `json:"events"`  // events the lanes hold in the trace
	Written int            `json:"written"` // of them written one by one
	Gaps    []gapMarkJSON  `json:"gaps"`
	Steps   []stepMarkJSON `json:"steps"`
	Memory  []memJSON      `json:"memory"`
	// the device time by category (table --by category); null without
	// the categories model
	Categories *categoriesJSON `json:"categories"`
}

func delta(x []int64) []int64 {
	out := make([]int64, len(x))
	prev := int64(0)
	for i, v := range x {
		out[i] = v - prev
		prev = v
	}
	return out
}

// data is the page's JSON.
func (p *Page) data(t *trace.Trace) ([]byte, error) {
	tl := p.Timeline
	d := dataJSON{StartNs: tl.StartNs, EndNs: tl.EndNs, Strings: tl.Strings, Lanes: []laneJSON{}, Levels: []levelJSON{},
		Detail: tl.Detail, Events: tl.Events, Written: tl.Written, Gaps: []gapMarkJSON{}, Steps: []stepMarkJSON{}, Memory: []memJSON{}}
	if d.Strings == nil {
		d.Strings = []string{}
	}
	for k := trace.Kind(0); k.String() != "invalid"; k++ {
		d.Kinds = append(d.Kinds, k.String())
		c, ok := kindColors[k]
		if !ok {
			c = kindColors[trace.KindOther]
		}
		d.Colors = append(d.Colors, c)
	}
	for _, ln := range tl.Lanes {
		j := laneJSON{Kind: ln.Kind, Label: ln.Label, Device: ln.Device, Stream: ln.Stream, Rows: ln.Rows, ShortestNs: ln.ShortestNs}
		starts := make([]int64, len(ln.Ev))
		for i, e := range ln.Ev {
			starts[i] = e.StartNs
			j.Dur = append(j.Dur, e.DurNs)
			j.Name = append(j.Name, e.Name)
			j.Shape = append(j.Shape, e.Shape)
			j.Row = append(j.Row, e.Row)
			j.Kind_ = append(j.Kind_, uint16(e.Kind))
			j.Link = append(j.Link, e.Link)
		}
		j.Start = delta(starts)
		d.Lanes = append(d.Lanes, j)
	}
	for _, lv := range tl.Levels {
		j := levelJSON{BinNs: lv.BinNs, FromNs: lv.FromNs, ToNs: lv.ToNs, Bands: []bandJSON{}}
		for _, b := range lv.Bands {
			j.Bands = append(j.Bands, bandJSON{Lane: b.Lane, Row: b.Row, Bin: delta(b.Bin), Pct: b.Pct, Count: b.Count})
		}
		d.Levels = append(d.Levels, j)
	}
	if r := p.In.Gaps; r != nil {
		for _, g := range r.Gaps {
			d.Gaps = append(d.Gaps, gapMarkJSON{Device: g.Device, StartNs: g.StartNs, LenNs: g.LenNs, Cause: g.Cause.String(),
				Color: CauseColors[g.Cause], Label: "GPU " + itoa(int64(g.Device)) + " idle " + units.Dur(g.LenNs) + " (steps " + gapsview.Steps(g) + "): " + gapsview.Cause(g),
				Short: g.Activity})
		}
		for _, s := range r.Steps {
			d.Steps = append(d.Steps, stepMarkJSON{Step: s.Step, StartNs: s.StartNs, EndNs: s.StartNs + s.CPUNs})
		}
	}
	for _, m := range p.In.Memory {
		d.Memory = append(d.Memory, memCurve(m))
	}
	d.Categories = categoriesData(p.In.Categories)
	return json.Marshal(d)
}

// memCurve writes a device's curve: its points, or its columns (the
// highest allocated and reserved, and the lowest allocated, of each).
func memCurve(m report.MemorySeries) memJSON {
	j := memJSON{Device: m.Device, PeakNs: m.PeakNs, PeakBytes: m.PeakBytes, Alloc: []int64{}, Reserved: []int64{}, MinAlloc: []int64{},
		PeakText: m.Device + " peak " + units.Bytes(m.PeakBytes) + " allocated at " + units.Dur(m.PeakNs)}
	if m.PeakOp != "" {
		j.PeakText += " in " + m.PeakOp
	}
	if m.Relative {
		j.PeakText += " (relative to the level before the first record: the trace has no Total Allocated)"
	}
	var t []int64
	if len(m.Columns) > 0 {
		j.Columns = true
		for _, c := range m.Columns {
			t = append(t, c.StartNs)
			j.Alloc = append(j.Alloc, c.MaxAllocated)
			j.MinAlloc = append(j.MinAlloc, c.MinAllocated)
			if m.HasReserved {
				j.Reserved = append(j.Reserved, c.MaxReserved)
			}
		}
	} else {
		t = m.TimesNs
		j.Alloc = append(j.Alloc, m.AllocatedBytes...)
		if m.HasReserved {
			j.Reserved = append(j.Reserved, m.ReservedBytes...)
		}
	}
	j.T = delta(t)
	for _, v := range append(append([]int64{m.PeakBytes}, j.Alloc...), j.Reserved...) {
		j.MaxBytes = max(j.MaxBytes, v)
	}
	return j
}

// categoriesJSON is the categories model: every category (opclass
// order) with its colour, in total and per step; a step's lists are by
// category in the same order.
type categoriesJSON struct {
	DeviceNs   int64              `json:"device_ns"`
	Kernels    int                `json:"kernels"`
	Categories []categoryJSON     `json:"categories"`
	Steps      []categoryStepJSON `json:"steps"`
}

type categoryJSON struct {
	Category string `json:"category"`
	Color    string `json:"color"`
	DeviceNs int64  `json:"device_ns"`
	Kernels  int    `json:"kernels"`
}

type categoryStepJSON struct {
	Step     int64   `json:"step"`
	DeviceNs int64   `json:"device_ns"`
	Kernels  int     `json:"kernels"`
	Ns       []int64 `json:"ns"`
	Count    []int   `json:"k"`
}

func categoriesData(r *categories.Result) *categoriesJSON {
	if r == nil {
		return nil
	}
	j := &categoriesJSON{DeviceNs: r.DeviceNs, Kernels: r.Kernels, Steps: []categoryStepJSON{}}
	for k, c := range r.Cells {
		cat := opclass.Categories[k]
		j.Categories = append(j.Categories, categoryJSON{Category: string(cat), Color: CategoryColors[cat], DeviceNs: c.DeviceNs, Kernels: c.Kernels})
	}
	for _, s := range r.Steps {
		st := categoryStepJSON{Step: s.N, DeviceNs: s.DeviceNs, Kernels: s.Kernels}
		for _, c := range s.Cells {
			st.Ns = append(st.Ns, c.DeviceNs)
			st.Count = append(st.Count, c.Kernels)
		}
		j.Steps = append(j.Steps, st)
	}
	return j
}
