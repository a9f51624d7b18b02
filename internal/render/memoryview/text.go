package memoryview

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/units"
)

// Write lays the model out as text or Markdown (every section, or
// o.Section) or as the CSV table of one section (devices by default).
// Text and Markdown give each device its own paragraph and tables.
func Write(w io.Writer, m *memory.Model, o Options) error {
	if o.Format == "csv" {
		s := o.Section
		if s == "" {
			s = "devices"
		}
		return grid(m, m.Devices, s, cells{}, 0).Write(w, "csv")
	}
	if len(m.Devices) == 0 {
		return nil // the note on stderr says why
	}
	p := &page{w: w, md: o.Format == "md", width: o.Width}
	c := cells{text: true}
	want := func(s string) bool { return o.Section == "" || o.Section == s }
	file := o.File
	if !p.md && o.Width > 0 {
		file = layout.Cut(file, max(o.Width-14, 20)) // "memory of " + ": " and the indent
	}
	p.para(summary(m, file, p.md))
	if want("devices") {
		p.heading("Devices")
		if p.md {
			p.grid(devicesGrid(m, c))
		} else {
			for _, d := range m.Devices {
				p.para(deviceText(d, false))
			}
		}
	}
	perDev := func(section string, lead func(*memory.Device) string, empty func(*memory.Device) string) {
		for _, d := range m.Devices {
			g := grid(m, []*memory.Device{d}, section, c, o.Top)
			text := lead(d)
			if len(g.Rows) == 0 {
				if e := empty(d); e != "" {
					text = strings.TrimSuffix(text, ":") + ": " + e
				}
			}
			p.para(text)
			if len(g.Rows) > 0 {
				p.grid(g)
			}
		}
	}
	if want("alive") {
		p.heading("Alive at the peak, by allocating op" + topText(o.Top))
		perDev("alive", func(d *memory.Device) string { return aliveText(d, p.md) }, func(*memory.Device) string { return "" })
	}
	if want("steps") {
		p.heading("Growth per step")
		if len(m.Steps) == 0 {
			p.para("The trace has no ProfilerStep#N: no step levels, and the leak rule does not apply.")
		} else {
			perDev("steps", func(d *memory.Device) string { return d.Name + ":" }, func(*memory.Device) string { return "" })
			p.para(leakText(m, p.md))
		}
	}
	if want("leak") {
		p.heading("Allocations that outlived their step" + topText(o.Top))
		perDev("leak", func(d *memory.Device) string { return d.Name + ":" }, func(d *memory.Device) string {
			switch {
			case !d.Addrs:
				return "not measured (the records carry no Addr)."
			case len(m.Steps) == 0:
				return "no ProfilerStep#N."
			}
			return "none: every allocation made in a step was freed before it ended."
		})
	}
	if want("lifetimes") {
		p.heading("Lifetimes by allocating op" + topText(o.Top))
		perDev("lifetimes", func(d *memory.Device) string { return d.Name + ":" }, func(d *memory.Device) string {
			if !d.Addrs {
				return "not measured (the records carry no Addr)."
			}
			return "no allocation."
		})
	}
	return p.err
}

func topText(top int) string {
	if top <= 0 {
		return ""
	}
	return " (top " + strconv.Itoa(top) + " per device)"
}

// summary is the first line: what the records cover.
func summary(m *memory.Model, file string, md bool) string {
	var devs []string
	for _, d := range m.Devices {
		devs = append(devs, d.Name)
	}
	s := fmt.Sprintf(": %s (%s), %s", units.Plural(len(m.Devices), "device", "devices"), strings.Join(devs, ", "),
		units.Plural(m.Records, "[memory] record", "[memory] records"))
	if m.OutOfMemory > 0 {
		s += ", " + units.Plural(m.OutOfMemory, "[OutOfMemory] event", "[OutOfMemory] events")
	}
	switch n := len(m.Steps); n {
	case 0:
		s += ", no ProfilerStep#N"
	case 1:
		s += fmt.Sprintf(", 1 step (ProfilerStep#%d)", m.Steps[0].N)
	default:
		s += fmt.Sprintf(", %d steps (ProfilerStep#%d to #%d)", n, m.Steps[0].N, m.Steps[n-1].N)
	}
	if md {
		return "memory of " + layout.MdCode(file) + layout.MdText(s) + "."
	}
	return "memory of " + file + s + "."
}

// deviceText is one device's paragraph: the peak and where it was, the
// levels and the counts.
func deviceText(d *memory.Device, md bool) string {
	name := func(s string) string {
		if md {
			return layout.MdCode(s)
		}
		return s
	}
	var s string
	if d.Totals {
		s = fmt.Sprintf("%s: peak %s allocated at %s", d.Name, units.Bytes(d.Peak.Bytes), at(d.Peak.Ns))
	} else {
		s = fmt.Sprintf("%s: peak %s above the level before its first record (no Total Allocated) at %s", d.Name, units.Bytes(d.Peak.AboveStartBytes), at(d.Peak.Ns))
	}
	if d.Peak.InStep {
		s += fmt.Sprintf(" (ProfilerStep#%d)", d.Peak.Step)
	}
	if d.Peak.Op == memory.NoOp {
		s += ", outside every op"
	} else {
		s += ", in " + name(d.Peak.Op)
	}
	if d.Peak.Annotation != "" {
		s += ", annotation " + name(d.Peak.Annotation)
	}
	if d.Peak.Python != "" {
		s += ", Python " + name(d.Peak.Python)
	}
	s += "; "
	if d.Totals {
		s += fmt.Sprintf("%s before its first record, %s after its last", units.Bytes(d.Start.Allocated), units.Bytes(d.End.Allocated))
	} else {
		s += fmt.Sprintf("%s after its last record, from the level before its first", (cells{text: true}).signed(d.End.Allocated))
	}
	if d.Reserved && d.PeakReserved.Bytes > 0 { // the CPU's records say 0 reserved
		s += fmt.Sprintf("; reserved peak %s at %s", units.Bytes(d.PeakReserved.Bytes), at(d.PeakReserved.Ns))
	}
	s += fmt.Sprintf("; %s (%s), %s (%s)", units.Plural(d.Allocations, "allocation", "allocations"), units.Bytes(d.AllocBytes),
		units.Plural(d.Frees, "free", "frees"), units.Bytes(d.FreedBytes))
	if d.PreTraceFrees > 0 {
		s += fmt.Sprintf(", %s (%s) of memory allocated before the trace", units.Plural(d.PreTraceFrees, "free", "frees"), units.Bytes(d.PreTraceFreedBytes))
	}
	if d.OutOfMemory > 0 {
		s += "; " + units.Plural(d.OutOfMemory, "[OutOfMemory] event", "[OutOfMemory] events")
	}
	return s + "."
}

// aliveText says what a device's peak is made of.
func aliveText(d *memory.Device, md bool) string {
	s := fmt.Sprintf("%s at its peak (%s)", d.Name, at(d.Peak.Ns))
	if !d.Alive.Measured {
		return s + ": not measured (the records carry no Addr)."
	}
	a := d.Alive
	s += fmt.Sprintf(": %s in %s made inside the trace", units.Bytes(a.InTraceBytes), units.Plural(a.InTraceCount, "allocation", "allocations"))
	if d.Totals {
		s += ", " + units.Bytes(a.BeforeTraceBytes) + " allocated before it"
		if a.BeforeTraceFreedLater > 0 {
			s += fmt.Sprintf(" (%s of it freed later in the trace)", units.Bytes(a.BeforeTraceFreedLaterBytes))
		}
	}
	return s + ":"
}

// leakText states the leak rule and each device's verdict.
func leakText(m *memory.Model, md bool) string {
	share := units.Pct(m.LeakShare*100) + "%"
	s := "Leak rule: a device is flagged when every step grows by more than " + share + " of the allocated at the step's start."
	reasons := map[string][]string{}
	var order []string
	for _, d := range m.Devices {
		l := d.Leak
		var v string
		switch {
		case !l.Judged:
			v = "not applied: " + l.Reason
		case !l.Flagged:
			v = fmt.Sprintf("no leak: %d of %d steps grew by more than %s", l.GrowingSteps, len(d.Steps), share)
		default:
			v = fmt.Sprintf("possible leak: every one of %d steps grew by more than %s (smallest growth %s, total %s)", len(d.Steps), share,
				units.Bytes(l.MinGrowthBytes), units.Bytes(l.TotalGrowthBytes))
			var ops []string
			for i, sv := range l.Survivors {
				if i == 3 {
					break
				}
				op := sv.Op
				if md {
					op = layout.MdCode(op)
				}
				ops = append(ops, fmt.Sprintf("%s %s in %s", op, units.Bytes(sv.Bytes), units.Plural(sv.Steps, "step", "steps")))
			}
			if len(ops) > 0 {
				v += "; allocations that outlived their step: " + strings.Join(ops, ", ")
			}
		}
		if _, ok := reasons[v]; !ok {
			order = append(order, v)
		}
		reasons[v] = append(reasons[v], d.Name)
	}
	for _, v := range order {
		s += " " + strings.Join(reasons[v], ", ") + ": " + v + "."
	}
	return s
}

// page writes paragraphs, headings and grids with one blank line between.
type page struct {
	w     io.Writer
	md    bool
	width int
	n     int
	err   error
}

func (p *page) write(s string) {
	if p.err != nil {
		return
	}
	if p.n > 0 {
		s = "\n" + s
	}
	p.n++
	_, p.err = io.WriteString(p.w, s)
}

func (p *page) heading(s string) {
	if p.md {
		p.write("### " + layout.MdText(s) + "\n")
		return
	}
	p.write(s + "\n")
}

// para writes prose: wrapped to the width in text; in Markdown escaped,
// names already in code spans.
func (p *page) para(s string) {
	if p.md {
		p.write(s + "\n")
		return
	}
	p.write(strings.Join(layout.Wrap(s, p.width, "  "), "\n") + "\n")
}

func (p *page) grid(g *layout.Grid) {
	if p.err != nil {
		return
	}
	g.Width = p.width
	var b strings.Builder
	format := "text"
	if p.md {
		format = "md"
	}
	if err := g.Write(&b, format); err != nil {
		p.err = err
		return
	}
	p.write(b.String())
}
