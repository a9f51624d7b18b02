// Package memoryview lays out the memory model (internal/memory) as text,
// Markdown, CSV and JSON, and draws its curves as a compact text timeline.
// It computes nothing: every figure comes from the model.
package memoryview

import (
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/units"
)

// Sections are the tables a view can show; CSV shows one per invocation
// (devices by default).
var Sections = []string{"devices", "alive", "steps", "lifetimes", "leak"}

// Options say what a view shows and how wide.
type Options struct {
	File    string
	Format  string // text, md or csv
	Section string // one of Sections; "" for all (text, md) or devices (csv)
	Top     int    // rows per device in the alive, lifetimes and leak tables (text, md; 0: all)
	Width   int    // text width (0: no limit)
}

// cells formats figures for people (text, md) or as raw integers (csv).
type cells struct{ text bool }

func (c cells) bytes(n int64) string {
	if !c.text {
		return strconv.FormatInt(n, 10)
	}
	return units.Bytes(n)
}

// signed is a change of bytes with its sign.
func (c cells) signed(n int64) string {
	if !c.text {
		return strconv.FormatInt(n, 10)
	}
	switch {
	case n > 0:
		return "+" + units.Bytes(n)
	case n < 0:
		return "-" + units.Bytes(-n)
	}
	return "0 B"
}

func (c cells) ns(n int64) string {
	if !c.text {
		return strconv.FormatInt(n, 10)
	}
	return at(n)
}

func (c cells) dur(n int64) string {
	if !c.text {
		return strconv.FormatInt(n, 10)
	}
	return units.Dur(n)
}

func (c cells) na() string {
	if c.text {
		return "n/a"
	}
	return ""
}

// at is an offset from the origin for people.
func at(ns int64) string {
	if ns < 0 {
		return units.Dur(-ns) + " before the origin"
	}
	return units.Dur(ns)
}

func itoa(n int) string { return strconv.Itoa(n) }

func (c cells) step(p memory.Peak) string {
	if !p.InStep {
		return c.na()
	}
	if c.text {
		return "#" + strconv.FormatInt(p.Step, 10)
	}
	return strconv.FormatInt(p.Step, 10)
}

func (c cells) op(op string) string {
	if op == memory.NoOp && !c.text {
		return ""
	}
	return op
}

// allocated is an absolute allocated level, n/a where the records carry
// no Total Allocated.
func (c cells) allocated(d *memory.Device, n int64) string {
	if !d.Totals {
		return c.na()
	}
	return c.bytes(n)
}

func (c cells) reserved(d *memory.Device, n int64) string {
	if !d.Reserved {
		return c.na()
	}
	return c.bytes(n)
}

func headers(text bool, people, machine []string) []string {
	if text {
		return people
	}
	return machine
}

// perDevice is a grid over some devices: with one device (text, md) the
// device column is left out.
type perDevice struct {
	devs []*memory.Device
	c    cells
}

func (p perDevice) withColumn() bool { return len(p.devs) != 1 || !p.c.text }

// grid drops the device column (the first) when there is one device.
func (p perDevice) grid(g *layout.Grid) *layout.Grid {
	if p.withColumn() {
		return g
	}
	g.Headers = g.Headers[1:]
	g.RightAlign = g.RightAlign[1:]
	if len(g.Names) > 0 {
		g.Names = g.Names[1:]
	}
	for i := range g.Rows {
		g.Rows[i] = g.Rows[i][1:]
	}
	return g
}

// devicesGrid: one row per device.
func devicesGrid(m *memory.Model, c cells) *layout.Grid {
	g := &layout.Grid{
		Headers: headers(c.text,
			[]string{"Device", "Peak allocated", "Above start", "At", "Step", "Op at the peak", "Peak reserved", "Start", "End", "Allocs", "Frees", "Pre-trace frees"},
			[]string{"device_name", "peak_allocated_bytes", "peak_above_start_bytes", "peak_ns", "peak_step", "peak_op", "peak_reserved_bytes", "start_allocated_bytes", "end_allocated_bytes", "allocations", "frees", "pre_trace_frees"}),
		RightAlign: []bool{false, true, true, true, true, false, true, true, true, true, true, true},
		Names:      []bool{false, false, false, false, false, true},
	}
	for _, d := range m.Devices {
		g.Rows = append(g.Rows, []string{d.Name, c.allocated(d, d.Peak.Bytes), c.signed(d.Peak.AboveStartBytes), c.ns(d.Peak.Ns), c.step(d.Peak),
			c.op(d.Peak.Op), c.reserved(d, d.PeakReserved.Bytes), c.allocated(d, d.Start.Allocated), c.allocated(d, d.End.Allocated),
			itoa(d.Allocations), itoa(d.Frees), itoa(d.PreTraceFrees)})
	}
	return g
}

// aliveGrid: the allocations alive at each device's peak, by op.
func aliveGrid(p perDevice, top int) *layout.Grid {
	c := p.c
	g := &layout.Grid{
		Headers: headers(c.text,
			[]string{"Device", "Allocating op", "Alive", "Allocs", "Oldest at", "Oldest age"},
			[]string{"device_name", "op", "bytes", "allocations", "oldest_ns", "oldest_age_ns"}),
		RightAlign: []bool{false, false, true, true, true, true},
		Names:      []bool{false, true},
	}
	for _, d := range p.devs {
		for i, a := range d.Alive.Groups {
			if top > 0 && i >= top {
				break
			}
			g.Rows = append(g.Rows, []string{d.Name, c.op(a.Op), c.bytes(a.Bytes), itoa(a.Count), c.ns(a.OldestNs), c.dur(a.OldestAgeNs)})
		}
	}
	return p.grid(g)
}

// stepsGrid: each device's levels per ProfilerStep#N.
func stepsGrid(p perDevice) *layout.Grid {
	c := p.c
	g := &layout.Grid{
		Headers: headers(c.text,
			[]string{"Device", "Step", "Start", "End", "Growth", "Peak", "Reserved", "Allocs", "Frees"},
			[]string{"device_name", "step", "start_allocated_bytes", "end_allocated_bytes", "growth_bytes", "peak_allocated_bytes", "end_reserved_bytes", "allocations", "frees"}),
		RightAlign: []bool{false, true, true, true, true, true, true, true, true},
	}
	for _, d := range p.devs {
		for _, s := range d.Steps {
			step := strconv.FormatInt(s.N, 10)
			if c.text {
				step = "#" + step
			}
			g.Rows = append(g.Rows, []string{d.Name, step, c.allocated(d, s.Start.Allocated), c.allocated(d, s.End.Allocated), c.signed(s.GrowthBytes),
				c.allocated(d, s.PeakBytes), c.reserved(d, s.End.Reserved), itoa(s.Allocations), itoa(s.Frees)})
		}
	}
	return p.grid(g)
}

// lifetimesGrid: allocations per allocating op, with the lifetimes of
// those freed inside the trace.
func lifetimesGrid(p perDevice, top int) *layout.Grid {
	c := p.c
	g := &layout.Grid{
		Headers: headers(c.text,
			[]string{"Device", "Allocating op", "Allocs", "Bytes", "Largest", "Median", "Longest", "Unfreed"},
			[]string{"device_name", "op", "allocations", "bytes", "max_bytes", "freed", "median_lifetime_ns", "max_lifetime_ns", "never_freed"}),
		RightAlign: []bool{false, false, true, true, true, true, true, true, true},
		Names:      []bool{false, true},
	}
	for _, d := range p.devs {
		for i, l := range d.Lifetimes {
			if top > 0 && i >= top {
				break
			}
			med, mx := c.dur(l.MedianNs), c.dur(l.MaxNs)
			if l.Freed == 0 {
				med, mx = c.na(), c.na()
			}
			row := []string{d.Name, c.op(l.Op), itoa(l.Count), c.bytes(l.Bytes), c.bytes(l.MaxBytes), itoa(l.Freed), med, mx, itoa(l.NeverFreed)}
			if c.text { // Freed is Allocs - Unfreed: left out where the width is dear
				row = slices.Delete(row, 5, 6)
			}
			g.Rows = append(g.Rows, row)
		}
	}
	return p.grid(g)
}

// leakGrid: the ops whose allocations outlived their step.
func leakGrid(p perDevice, top int) *layout.Grid {
	c := p.c
	g := &layout.Grid{
		Headers: headers(c.text,
			[]string{"Device", "Allocating op", "Outlived step", "Allocs", "Steps", "Never freed"},
			[]string{"device_name", "op", "bytes", "allocations", "steps", "never_freed_bytes"}),
		RightAlign: []bool{false, false, true, true, true, true},
		Names:      []bool{false, true},
	}
	for _, d := range p.devs {
		for i, s := range d.Leak.Survivors {
			if top > 0 && i >= top {
				break
			}
			g.Rows = append(g.Rows, []string{d.Name, c.op(s.Op), c.bytes(s.Bytes), itoa(s.Count), itoa(s.Steps), c.bytes(s.NeverFreedBytes)})
		}
	}
	return p.grid(g)
}

// grid is the table of one section over the devices given.
func grid(m *memory.Model, devs []*memory.Device, section string, c cells, top int) *layout.Grid {
	p := perDevice{devs, c}
	switch section {
	case "alive":
		return aliveGrid(p, top)
	case "steps":
		return stepsGrid(p)
	case "lifetimes":
		return lifetimesGrid(p, top)
	case "leak":
		return leakGrid(p, top)
	}
	return devicesGrid(m, c)
}
