package report

import (
	"encoding/json"

	"github.com/tracetab/tracetab/internal/render"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// The page's data, as the script reads it. Lists of numbers are columns
// (one list per field); starts and bins are written as the difference to
// the one before (the script adds them up once when it loads).

type laneJSON struct {
	Kind   string   `json:"kind"`
	Label  string   `json:"label"`
	Device int      `json:"device"`
	Stream int64    `json:"stream"`
	Rows   int      `json:"rows"`
	Start  []int64  `json:"s"` // delta-coded
	Dur    []int64  `json:"d"`
	Name   []int32  `json:"n"`
	Shape  []int32  `json:"x"`
	Row    []int16  `json:"r"`
	Kind_  []uint16 `json:"k"`
	Link   []int32  `json:"l"`
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
	Device    string  `json:"device"`
	T         []int64 `json:"t"` // delta-coded
	Alloc     []int64 `json:"allocated"`
	Reserved  []int64 `json:"reserved"`
	PeakNs    int64   `json:"peak_ns"`
	PeakBytes int64   `json:"peak_bytes"`
	PeakText  string  `json:"peak_text"`
	MaxBytes  int64   `json:"max_bytes"`
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

// maxMemPoints bounds the points of each memory curve the page holds: a
// curve with more keeps, in each of this many equal stretches of time, its
// first, lowest, highest and last point (the peak among them).
const maxMemPoints = 8000

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
		j := laneJSON{Kind: ln.Kind, Label: ln.Label, Device: ln.Device, Stream: ln.Stream, Rows: ln.Rows}
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
				Color: CauseColors[g.Cause], Label: "GPU " + itoa(int64(g.Device)) + " idle " + units.Dur(g.LenNs) + " (steps " + render.GapSteps(g) + "): " + render.GapCause(g),
				Short: g.Activity})
		}
		for _, s := range r.Steps {
			d.Steps = append(d.Steps, stepMarkJSON{Step: s.Step, StartNs: s.StartNs, EndNs: s.StartNs + s.CPUNs})
		}
	}
	for _, m := range p.In.Memory {
		d.Memory = append(d.Memory, memCurve(m))
	}
	return json.Marshal(d)
}

// memCurve thins a curve to maxMemPoints stretches (keeping each
// stretch's first, lowest, highest and last point) and writes it.
func memCurve(m MemorySeries) memJSON {
	j := memJSON{Device: m.Device, PeakNs: m.PeakNs, PeakBytes: m.PeakBytes,
		PeakText: "peak " + units.Bytes(m.PeakBytes) + " at " + units.Dur(m.PeakNs), Reserved: []int64{}}
	if m.PeakOp != "" {
		j.PeakText += " in " + m.PeakOp
	}
	keep := make([]bool, len(m.TimesNs))
	n := len(m.TimesNs)
	if n <= maxMemPoints*4 {
		for i := range keep {
			keep[i] = true
		}
	} else {
		lo, hi := m.TimesNs[0], m.TimesNs[n-1]
		span := max(hi-lo, 1)
		i := 0
		for s := int64(0); s < maxMemPoints && i < n; s++ {
			end := lo + span*(s+1)/maxMemPoints
			first, mn, mx, last := i, i, i, i
			for i < n && (m.TimesNs[i] < end || s == maxMemPoints-1) {
				if m.AllocatedBytes[i] < m.AllocatedBytes[mn] {
					mn = i
				}
				if m.AllocatedBytes[i] > m.AllocatedBytes[mx] {
					mx = i
				}
				last = i
				i++
			}
			keep[first], keep[mn], keep[mx], keep[last] = true, true, true, true
		}
	}
	var t []int64
	for i := range m.TimesNs {
		if !keep[i] {
			continue
		}
		t = append(t, m.TimesNs[i])
		j.Alloc = append(j.Alloc, m.AllocatedBytes[i])
		j.MaxBytes = max(j.MaxBytes, m.AllocatedBytes[i])
		if m.ReservedBytes != nil {
			j.Reserved = append(j.Reserved, m.ReservedBytes[i])
			j.MaxBytes = max(j.MaxBytes, m.ReservedBytes[i])
		}
	}
	j.T = delta(t)
	if j.Alloc == nil {
		j.Alloc = []int64{}
	}
	return j
}
