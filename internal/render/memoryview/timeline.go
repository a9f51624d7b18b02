package memoryview

import (
	"fmt"
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/units"
)

// The block ramps a timeline draws with, lowest first: Unicode blocks on a
// terminal, ASCII otherwise.
var (
	unicodeRamp = []rune("▁▂▃▄▅▆▇█")
	asciiRamp   = []rune("_.-:=+*#%@")
)

const labelWidth = 10 // "allocated " and "reserved  "

// Timeline draws each device's curve over the model's window in width
// columns: a row for the allocated (the largest level held in each
// column) and one for the reserved (none when it is 0 throughout, as the
// CPU's records say), on one scale from the device's lowest allocated to
// its highest level, a row marking where each ProfilerStep#N
// starts (and the last one ends), and the window's two ends.
func Timeline(w io.Writer, m *memory.Model, width int, unicode bool) error {
	ramp := asciiRamp
	if unicode {
		ramp = unicodeRamp
	}
	n := max(width-labelWidth, 10)
	from, to := m.WindowStartNs, m.WindowEndNs
	if to <= from {
		to = from + 1
	}
	var b strings.Builder
	for i, d := range m.Devices {
		if i > 0 {
			b.WriteString("\n")
		}
		cols := d.Curve(from, to, n)
		resv := d.Reserved && d.PeakReserved.Bytes > 0 // the CPU's records say 0 reserved: no row
		lo, hi := cols[0].MinAllocated, cols[0].MaxAllocated
		for _, c := range cols {
			lo, hi = min(lo, c.MinAllocated), max(hi, c.MaxAllocated)
			if resv {
				hi = max(hi, c.MaxReserved)
			}
		}
		what := "allocated"
		if !d.Totals {
			what = "allocated above the level before its first record"
		}
		fmt.Fprintf(&b, "%s: %s, scale %s %s to %s %s", d.Name, what, string(ramp[0]), units.Bytes(lo), string(ramp[len(ramp)-1]), units.Bytes(hi))
		if resv {
			fmt.Fprintf(&b, "; peak reserved %s", units.Bytes(d.PeakReserved.Bytes))
		}
		b.WriteString("\n")
		row := func(label string, v func(memory.Column) int64) {
			b.WriteString(pad(label, labelWidth))
			for _, c := range cols {
				b.WriteRune(ramp[level(v(c), lo, hi, len(ramp))])
			}
			b.WriteString("\n")
		}
		row("allocated", func(c memory.Column) int64 { return c.MaxAllocated })
		if resv {
			row("reserved", func(c memory.Column) int64 { return c.MaxReserved })
		}
		if len(m.Steps) > 0 {
			b.WriteString(pad("steps", labelWidth) + strings.TrimRight(stepRow(m, from, to, n), " ") + "\n")
		}
		left, right := at(from), at(to)
		gap := max(n-layout.Width(left)-layout.Width(right), 1)
		b.WriteString(strings.Repeat(" ", labelWidth) + left + strings.Repeat(" ", gap) + right + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// level is the ramp index of v on the scale lo..hi (the top when the
// scale is flat).
func level(v, lo, hi int64, steps int) int {
	if hi <= lo {
		return steps - 1
	}
	k := int(((v-lo)*int64(steps-1) + (hi-lo)/2) / (hi - lo))
	return min(max(k, 0), steps-1)
}

// stepRow marks each step's start (and the last step's end) with '|',
// followed by its number where there is room.
func stepRow(m *memory.Model, from, to int64, n int) string {
	row := []rune(strings.Repeat(" ", n))
	col := func(ns int64) int {
		c := int((ns - from) * int64(n) / (to - from))
		return min(max(c, 0), n-1)
	}
	marks := make([]int, 0, len(m.Steps)+1)
	for _, s := range m.Steps {
		marks = append(marks, col(s.StartNs))
	}
	last := m.Steps[len(m.Steps)-1]
	marks = append(marks, col(last.EndNs))
	for _, c := range marks {
		row[c] = '|'
	}
	for k, s := range m.Steps {
		label := []rune(fmt.Sprintf("#%d", s.N))
		c := marks[k] + 1
		next := n
		if k+1 < len(marks) {
			next = marks[k+1]
		}
		if c+len(label) > next || c+len(label) > n {
			continue
		}
		copy(row[c:], label)
	}
	return string(row)
}

func pad(s string, w int) string {
	if r := layout.Width(s); r < w {
		return s + strings.Repeat(" ", w-r)
	}
	return s + " "
}
