package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/units"
)

// ranksGrid is the per-rank table: one row per rank, in rank order.
func ranksGrid(r *ranks.Report, text bool) *Grid {
	g := &Grid{
		Headers: []string{"rank", "world", "file", "steps", "median step", "compute", "comm", "exposed comm", "idle", "window",
			"comm kernels", "collectives", "waited", "caused wait", "last", "tied", "end skew"},
		RightAlign: []bool{true, true, false, false, true, true, true, true, true, false, true, true, true, true, true, true, true},
	}
	dur := func(ns int64) string {
		if !text {
			return strconv.FormatInt(ns, 10)
		}
		return units.Dur(ns)
	}
	if !text {
		g.Headers = []string{"rank", "world_size", "file", "steps", "median_step_ns", "compute_ns", "communication_ns", "exposed_communication_ns",
			"idle_ns", "window", "communication_kernels", "collectives", "collective_wait_ns", "caused_wait_ns", "last_arrivals", "tied_last_arrivals", "end_skew_ns"}
	}
	na := "n/a"
	if !text {
		na = ""
	}
	for i, s := range r.Ranks {
		w := r.Waits[i]
		rank := strconv.FormatInt(s.Rank, 10)
		if s.RankFromFile && text {
			rank += "*"
		}
		world := na
		if s.WorldSize > 0 {
			world = strconv.FormatInt(s.WorldSize, 10)
		}
		row := []string{rank, world, s.File, stepList(s.Steps, na)}
		if s.MedianStepNs >= 0 {
			row = append(row, dur(s.MedianStepNs))
		} else {
			row = append(row, na)
		}
		if s.HasGPU {
			row = append(row, dur(s.ComputeNs), dur(s.CommNs), dur(s.ExposedCommNs), dur(s.IdleNs), s.Window)
		} else {
			row = append(row, na, na, na, na, na)
		}
		row = append(row, strconv.Itoa(s.CommKernels))
		if r.Match == nil || w.Collectives == 0 {
			row = append(row, "0", na, na, na, na)
		} else {
			row = append(row, strconv.Itoa(w.Collectives), dur(w.WaitNs), dur(w.CausedWaitNs), strconv.Itoa(w.Last), strconv.Itoa(w.TiedLast))
		}
		if w.EndSkewNs >= 0 {
			row = append(row, dur(w.EndSkewNs))
		} else {
			row = append(row, na)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// stepList writes step numbers compactly: "10", "2-5", "2-4, 7".
func stepList(steps []int64, none string) string {
	if len(steps) == 0 {
		return none
	}
	var parts []string
	for i := 0; i < len(steps); {
		j := i
		for j+1 < len(steps) && steps[j+1] == steps[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.FormatInt(steps[i], 10))
		} else {
			parts = append(parts, strconv.FormatInt(steps[i], 10)+"-"+strconv.FormatInt(steps[j], 10))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// RanksText writes the comparison of the ranks for a person: the per-rank
// table, how the collectives were matched, the clocks, the verdict.
func RanksText(w io.Writer, r *ranks.Report) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	world := "world size unknown"
	if r.WorldSize > 0 {
		world = "world size " + strconv.FormatInt(r.WorldSize, 10)
	}
	p("ranks       %s given, %s\n", strconv.Itoa(len(r.Ranks)), world)
	if m := r.Match; m != nil {
		p("matching    %s: %s matched", m.By, units.Plural(len(m.Collectives), "collective", "collectives"))
		if len(m.Excluded) > 0 {
			p(", %s of kernels not matched", units.Plural(len(m.Excluded), "group", "groups"))
		}
		p("\n")
		if r.ClockComparable {
			if r.ClockSkewNs >= 0 {
				p("clocks      wall-clock times: the ends of matched collectives differ by at most %s (median |end - end on rank %d| per rank)\n",
					units.Dur(r.ClockSkewNs), r.Ranks[m.Collectives[0].Ranks[0]].Rank)
			} else {
				p("clocks      wall-clock times; no collective to compare them on\n")
			}
		} else {
			p("clocks      not comparable (a trace's times are relative to its own start): no clock skew measured\n")
		}
	}
	p("\n")
	var t strings.Builder
	if err := ranksGrid(r, true).Write(&t, "text"); err != nil {
		return err
	}
	b.WriteString(t.String())
	for _, s := range r.Ranks {
		if s.RankFromFile {
			p("* rank from the file's position: the trace has no distributedInfo rank\n")
			break
		}
	}
	p("\n")
	if r.Verdict != nil {
		p("verdict     %s\n", r.Verdict.Text)
	} else {
		p("verdict     none: %s\n", r.NoVerdict)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RanksTable writes the per-rank table as Markdown or CSV (CSV in ns).
func RanksTable(w io.Writer, r *ranks.Report, format string) error {
	g := ranksGrid(r, format != "csv")
	if format == "csv" {
		return g.Write(w, "csv")
	}
	if err := g.Write(w, "md"); err != nil {
		return err
	}
	text := "none: " + r.NoVerdict
	if r.Verdict != nil {
		text = r.Verdict.Text
	}
	foot := ""
	for _, s := range r.Ranks {
		if s.RankFromFile {
			foot = "\n\\* rank from the file's position: the trace has no distributedInfo rank\n"
			break
		}
	}
	_, err := io.WriteString(w, foot+"\n**Verdict**: "+text+"\n")
	return err
}
