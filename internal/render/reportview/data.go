package reportview

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/render/gapsview"
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// The page's data, as the script reads it: one JSON object (appendData
// writes it), whose lists of numbers are columns (one list per field);
// starts and bins are written as the difference to the one before (the
// script adds them up once when it loads). Its fields, in order:
//
//	start_ns, end_ns  the time axis
//	strings           the names and shapes the events refer to
//	kinds, kind_colors trace.Kind names by number, and their colours
//	lanes             per lane: kind, label, device, stream, rows,
//	                  shortest_ns (the lane's events shorter than this,
//	                  outside the detail step, are bands only; 0 when all
//	                  are written), and the columns of its written events:
//	                  s (start, delta-coded), d (duration), n (name), x
//	                  (shape, -1: none), r (row), k (kind), l (link)
//	levels            per level: bin_ns, from_ns, to_ns, bands (per band:
//	                  lane, row, b (bin, delta-coded), p (percent), c (count))
//	detail            the detail window ({start_ns, end_ns, step}) or null
//	events, written   events the lanes hold in the trace; of them written one by one
//	gaps, steps       the shaded gaps (gapMarkJSON) and the step marks (stepMarkJSON)
//	memory            the memory curves (memJSON)
//	categories        the device time by category (categoriesJSON), or null
//
// A list the page builds from nothing is null when empty (the lanes'
// columns but s, a category's or a step's lists), as encoding/json wrote
// the structs this encoder replaced (data_oracle_test.go holds them).

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
	T        []int64 `json:"t"` // the points, or the columns' starts (written delta-coded)
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

// data is the page's JSON.
//
// Written by hand into one buffer sized ahead: encoding/json's reflection
// over the columns (60,000 events, 250,000 cells) and the copies of them
// it needed took 15-20% of report's instructions above info's on the
// 20 MB export-shape trace (cachegrind: 200 M of 970 M) and 25 ms of the
// 200 MB one's; this writes the same bytes (TestDataMatchesEncodingJSON).
func (p *Page) data(t *trace.Trace) ([]byte, error) {
	tl := p.Timeline
	size := 4096 + 64*len(tl.Strings)
	for _, ln := range tl.Lanes {
		size += 40 * len(ln.Ev)
	}
	for _, lv := range tl.Levels {
		for _, b := range lv.Bands {
			size += 14 * len(b.Bin)
		}
	}
	w := jsonWriter{b: make([]byte, 0, size)}
	w.raw(`{"start_ns":`)
	w.int(tl.StartNs)
	w.raw(`,"end_ns":`)
	w.int(tl.EndNs)
	w.raw(`,"strings":`)
	if tl.Strings == nil {
		w.raw(`[]`)
	} else {
		w.strs(tl.Strings)
	}
	w.raw(`,"kinds":[`)
	for k := trace.Kind(0); k.String() != "invalid"; k++ {
		w.sep(k > 0)
		w.str(k.String())
	}
	w.raw(`],"kind_colors":[`)
	for k := trace.Kind(0); k.String() != "invalid"; k++ {
		c, ok := kindColors[k]
		if !ok {
			c = kindColors[trace.KindOther]
		}
		w.sep(k > 0)
		w.str(c)
	}
	w.raw(`],"lanes":[`)
	for n := range tl.Lanes {
		ln := &tl.Lanes[n]
		w.sep(n > 0)
		w.raw(`{"kind":`)
		w.str(ln.Kind)
		w.raw(`,"label":`)
		w.str(ln.Label)
		w.raw(`,"device":`)
		w.int(int64(ln.Device))
		w.raw(`,"stream":`)
		w.int(ln.Stream)
		w.raw(`,"rows":`)
		w.int(int64(ln.Rows))
		w.raw(`,"shortest_ns":`)
		w.int(ln.ShortestNs)
		w.laneColumns(ln.Ev)
		w.raw(`}`)
	}
	w.raw(`],"levels":[`)
	for n, lv := range tl.Levels {
		w.sep(n > 0)
		w.raw(`{"bin_ns":`)
		w.int(lv.BinNs)
		w.raw(`,"from_ns":`)
		w.int(lv.FromNs)
		w.raw(`,"to_ns":`)
		w.int(lv.ToNs)
		w.raw(`,"bands":[`)
		for m := range lv.Bands {
			b := &lv.Bands[m]
			w.sep(m > 0)
			w.raw(`{"lane":`)
			w.int(int64(b.Lane))
			w.raw(`,"row":`)
			w.int(int64(b.Row))
			w.raw(`,"b":`)
			w.delta(b.Bin)
			w.raw(`,"p":`)
			ints(&w, b.Pct)
			w.raw(`,"c":`)
			ints(&w, b.Count)
			w.raw(`}`)
		}
		w.raw(`]}`)
	}
	w.raw(`],"detail":`)
	if d := tl.Detail; d != nil {
		w.raw(`{"start_ns":`)
		w.int(d.StartNs)
		w.raw(`,"end_ns":`)
		w.int(d.EndNs)
		w.raw(`,"step":`)
		w.int(d.Step)
		w.raw(`}`)
	} else {
		w.raw(`null`)
	}
	w.raw(`,"events":`)
	w.int(int64(tl.Events))
	w.raw(`,"written":`)
	w.int(int64(tl.Written))
	w.raw(`,"gaps":[`)
	if r := p.In.Gaps; r != nil {
		for n, g := range r.Gaps {
			w.sep(n > 0)
			w.raw(`{"device":`)
			w.int(int64(g.Device))
			w.raw(`,"start_ns":`)
			w.int(g.StartNs)
			w.raw(`,"length_ns":`)
			w.int(g.LenNs)
			w.raw(`,"cause":`)
			w.str(g.Cause.String())
			w.raw(`,"color":`)
			w.str(CauseColors[g.Cause])
			w.raw(`,"label":`)
			w.str("GPU " + itoa(int64(g.Device)) + " idle " + units.Dur(g.LenNs) + " (steps " + gapsview.Steps(g) + "): " + gapsview.Cause(g))
			w.raw(`,"short":`)
			w.str(g.Activity)
			w.raw(`}`)
		}
	}
	w.raw(`],"steps":[`)
	if r := p.In.Gaps; r != nil {
		for n, s := range r.Steps {
			w.sep(n > 0)
			w.raw(`{"step":`)
			w.int(s.Step)
			w.raw(`,"start_ns":`)
			w.int(s.StartNs)
			w.raw(`,"end_ns":`)
			w.int(s.StartNs + s.CPUNs)
			w.raw(`}`)
		}
	}
	w.raw(`],"memory":[`)
	for n, m := range p.In.Memory {
		w.sep(n > 0)
		w.mem(memCurve(m))
	}
	w.raw(`],"categories":`)
	w.categories(categoriesData(p.In.Categories))
	w.raw(`}`)
	return w.b, nil
}

// laneColumns writes a lane's columns: s, delta-coded, always a list;
// the others null for a lane without written events.
func (w *jsonWriter) laneColumns(ev []Ev) {
	w.raw(`,"s":[`)
	prev := int64(0)
	for i := range ev {
		w.sep(i > 0)
		w.int(ev[i].StartNs - prev)
		prev = ev[i].StartNs
	}
	w.raw(`]`)
	column := func(key string, v func(e *Ev) int64) {
		w.raw(key)
		if ev == nil {
			w.raw(`null`)
			return
		}
		w.raw(`[`)
		for i := range ev {
			w.sep(i > 0)
			w.int(v(&ev[i]))
		}
		w.raw(`]`)
	}
	column(`,"d":`, func(e *Ev) int64 { return e.DurNs })
	column(`,"n":`, func(e *Ev) int64 { return int64(e.Name) })
	column(`,"x":`, func(e *Ev) int64 { return int64(e.Shape) })
	column(`,"r":`, func(e *Ev) int64 { return int64(e.Row) })
	column(`,"k":`, func(e *Ev) int64 { return int64(uint16(e.Kind)) })
	column(`,"l":`, func(e *Ev) int64 { return int64(e.Link) })
}

// mem writes a memory curve (memJSON's fields in order).
func (w *jsonWriter) mem(j memJSON) {
	w.raw(`{"device":`)
	w.str(j.Device)
	w.raw(`,"t":`)
	w.delta(j.T)
	w.raw(`,"allocated":`)
	ints(w, j.Alloc)
	w.raw(`,"reserved":`)
	ints(w, j.Reserved)
	w.raw(`,"min_allocated":`)
	ints(w, j.MinAlloc)
	w.raw(`,"columns":`)
	w.raw(strconv.FormatBool(j.Columns))
	w.raw(`,"peak_ns":`)
	w.int(j.PeakNs)
	w.raw(`,"peak_bytes":`)
	w.int(j.PeakBytes)
	w.raw(`,"peak_text":`)
	w.str(j.PeakText)
	w.raw(`,"max_bytes":`)
	w.int(j.MaxBytes)
	w.raw(`}`)
}

// categories writes the categories model (categoriesJSON's fields in
// order), or null.
func (w *jsonWriter) categories(j *categoriesJSON) {
	if j == nil {
		w.raw(`null`)
		return
	}
	w.raw(`{"device_ns":`)
	w.int(j.DeviceNs)
	w.raw(`,"kernels":`)
	w.int(int64(j.Kernels))
	w.raw(`,"categories":`)
	if j.Categories == nil {
		w.raw(`null`)
	} else {
		w.raw(`[`)
		for n, c := range j.Categories {
			w.sep(n > 0)
			w.raw(`{"category":`)
			w.str(c.Category)
			w.raw(`,"color":`)
			w.str(c.Color)
			w.raw(`,"device_ns":`)
			w.int(c.DeviceNs)
			w.raw(`,"kernels":`)
			w.int(int64(c.Kernels))
			w.raw(`}`)
		}
		w.raw(`]`)
	}
	w.raw(`,"steps":`)
	if j.Steps == nil {
		w.raw(`null`)
	} else {
		w.raw(`[`)
		for n, s := range j.Steps {
			w.sep(n > 0)
			w.raw(`{"step":`)
			w.int(s.Step)
			w.raw(`,"device_ns":`)
			w.int(s.DeviceNs)
			w.raw(`,"kernels":`)
			w.int(int64(s.Kernels))
			w.raw(`,"ns":`)
			ints(w, s.Ns)
			w.raw(`,"k":`)
			ints(w, s.Count)
			w.raw(`}`)
		}
		w.raw(`]`)
	}
	w.raw(`}`)
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
	j.T = t
	j.MaxBytes = max(j.MaxBytes, m.PeakBytes)
	for _, v := range j.Alloc {
		j.MaxBytes = max(j.MaxBytes, v)
	}
	for _, v := range j.Reserved {
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
	// lists sized ahead (one allocation each, not their doublings); an
	// empty one stays nil (null), as before
	j := &categoriesJSON{DeviceNs: r.DeviceNs, Kernels: r.Kernels, Steps: make([]categoryStepJSON, 0, len(r.Steps))}
	if len(r.Cells) > 0 {
		j.Categories = make([]categoryJSON, 0, len(r.Cells))
	}
	for k, c := range r.Cells {
		cat := opclass.Categories[k]
		j.Categories = append(j.Categories, categoryJSON{Category: string(cat), Color: CategoryColors[cat], DeviceNs: c.DeviceNs, Kernels: c.Kernels})
	}
	for _, s := range r.Steps {
		st := categoryStepJSON{Step: s.N, DeviceNs: s.DeviceNs, Kernels: s.Kernels}
		if len(s.Cells) > 0 {
			st.Ns, st.Count = make([]int64, 0, len(s.Cells)), make([]int, 0, len(s.Cells))
		}
		for _, c := range s.Cells {
			st.Ns = append(st.Ns, c.DeviceNs)
			st.Count = append(st.Count, c.Kernels)
		}
		j.Steps = append(j.Steps, st)
	}
	return j
}
