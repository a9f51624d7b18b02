package reportview

import (
	"encoding/json"

	"github.com/tracetab/tracetab/internal/render/gapsview"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// The page's data as it was written before the hand-written encoder
// (appendData): the same fields in structs, through encoding/json. The
// tests hold appendData to it byte for byte.

type oLaneJSON struct {
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

type oBandJSON struct {
	Lane  int     `json:"lane"`
	Row   int     `json:"row"`
	Bin   []int64 `json:"b"` // delta-coded
	Pct   []int8  `json:"p"`
	Count []int32 `json:"c"`
}

type oLevelJSON struct {
	BinNs  int64       `json:"bin_ns"`
	FromNs int64       `json:"from_ns"`
	ToNs   int64       `json:"to_ns"`
	Bands  []oBandJSON `json:"bands"`
}

type oDataJSON struct {
	StartNs int64          `json:"start_ns"`
	EndNs   int64          `json:"end_ns"`
	Strings []string       `json:"strings"`
	Kinds   []string       `json:"kinds"`       // trace.Kind names by number
	Colors  []string       `json:"kind_colors"` // their colours
	Lanes   []oLaneJSON    `json:"lanes"`
	Levels  []oLevelJSON   `json:"levels"`
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

func oDelta(x []int64) []int64 {
	out := make([]int64, len(x))
	prev := int64(0)
	for i, v := range x {
		out[i] = v - prev
		prev = v
	}
	return out
}

// dataReflect is the page's JSON through encoding/json.
func (p *Page) dataReflect(t *trace.Trace) ([]byte, error) {
	tl := p.Timeline
	d := oDataJSON{StartNs: tl.StartNs, EndNs: tl.EndNs, Strings: tl.Strings, Lanes: []oLaneJSON{}, Levels: []oLevelJSON{},
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
		j := oLaneJSON{Kind: ln.Kind, Label: ln.Label, Device: ln.Device, Stream: ln.Stream, Rows: ln.Rows, ShortestNs: ln.ShortestNs}
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
		j.Start = oDelta(starts)
		d.Lanes = append(d.Lanes, j)
	}
	for _, lv := range tl.Levels {
		j := oLevelJSON{BinNs: lv.BinNs, FromNs: lv.FromNs, ToNs: lv.ToNs, Bands: []oBandJSON{}}
		for _, b := range lv.Bands {
			j.Bands = append(j.Bands, oBandJSON{Lane: b.Lane, Row: b.Row, Bin: oDelta(b.Bin), Pct: b.Pct, Count: b.Count})
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
		j := memCurve(m)
		j.T = oDelta(j.T)
		d.Memory = append(d.Memory, j)
	}
	d.Categories = categoriesData(p.In.Categories)
	return json.Marshal(d)
}
