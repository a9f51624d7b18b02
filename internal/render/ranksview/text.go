// Package ranksview lays out ranks.Report for tracetab ranks: text
// fitting a width, Markdown, CSV (the per-rank table, the collectives or
// their arrivals) and the JSON document tracetab.ranks/2. It computes
// nothing.
package ranksview

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// View chooses what the text and Markdown of a ranks comparison show.
type View struct {
	Width       int  // text: the width to fit (0: no limit)
	Collectives bool // the per-collective tables
	Top         int  // collectives listed (0: all)
	// All lists every rank in the per-rank tables; else above
	// viewkit.SummaryRows rows a table prints its distribution and the
	// rows that stand out (viewkit.Summarise).
	All bool
}

// rkDur formats a duration for a table of format f: ns in CSV.
func rkDur(ns int64, csv bool) string {
	if csv {
		return strconv.FormatInt(ns, 10)
	}
	return units.Dur(ns)
}

// rkClock formats a time on the report's clock: an offset from its origin.
func rkClock(ns int64) string {
	if ns < 0 {
		return units.Dur(-ns) + " before"
	}
	return units.Dur(ns)
}

// stepList writes step numbers compactly: "#10", "#2-5", "#2-4, 7".
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
	return "#" + strings.Join(parts, ", ")
}

func rkFiles(r *ranks.Report) []string {
	p := make([]string, len(r.Ranks))
	for i, s := range r.Ranks {
		p[i] = s.Path
	}
	return layout.DistinctPaths(p)
}

func rkRank(s *ranks.Summary) string {
	v := strconv.FormatInt(s.Rank, 10)
	if s.RankFromFile {
		v += "*"
	}
	return v
}

func rkPct(num, den int64) string {
	if den <= 0 {
		return "n/a"
	}
	return rkPctOf(100 * float64(num) / float64(den))
}

func rkPctOf(pct float64) string { return units.Pct(pct) + "%" }

// ranksGrids are the per-rank tables of text and Markdown: the steps, the
// device lane, the collectives, the bandwidth; unless all, a table of
// more than viewkit.SummaryRows rows is summarised.
func ranksGrids(r *ranks.Report, width int, all bool) []viewkit.Titled {
	files := rkFiles(r)
	steps := &layout.Grid{Headers: []string{"rank", "file", "steps", "step #", "median step", "window", "window time"},
		RightAlign: []bool{true, false, true, false, true, false, true}, Names: []bool{false, true}, Width: width}
	dev := &layout.Grid{Headers: []string{"rank", "compute", "comm", "exposed comm", "overlap", "idle"},
		RightAlign: []bool{true, true, true, true, true, true}, Width: width}
	coll := &layout.Grid{Headers: []string{"rank", "kernels", "matched", "waited", "caused wait", "last", "tied", "HTA last", "end skew"},
		RightAlign: []bool{true, true, true, true, true, true, true, true, true}, Width: width}
	for i, s := range r.Ranks {
		w := r.Waits[i]
		med := "n/a"
		if s.MedianStepNs >= 0 {
			med = units.Dur(s.MedianStepNs)
		}
		win, winNs := "n/a", "n/a"
		if s.HasGPU {
			win, winNs = s.Window, units.Dur(s.WindowNs)
		}
		steps.Rows = append(steps.Rows, []string{rkRank(s), files[i], strconv.Itoa(len(s.Steps)), stepList(s.Steps, "-"), med, win, winNs})
		if s.HasGPU {
			dev.Rows = append(dev.Rows, []string{rkRank(s), units.Dur(s.ComputeNs), units.Dur(s.CommNs), units.Dur(s.ExposedCommNs),
				rkPct(s.OverlapNs, s.CommNs), units.Dur(s.IdleNs)})
		} else {
			dev.Rows = append(dev.Rows, []string{rkRank(s), "n/a", "n/a", "n/a", "n/a", "n/a"})
		}
		row := []string{rkRank(s), strconv.Itoa(s.CommKernels)}
		if r.Match == nil || w.Collectives == 0 {
			row = append(row, "0", "n/a", "n/a", "n/a", "n/a")
		} else {
			row = append(row, strconv.Itoa(w.Collectives), units.Dur(w.WaitNs), units.Dur(w.CausedWaitNs), strconv.Itoa(w.Last), strconv.Itoa(w.TiedLast))
		}
		if r.HTASteps > 0 {
			row = append(row, strconv.Itoa(r.HTACounts[i])+"/"+strconv.Itoa(r.HTASteps))
		} else {
			row = append(row, "n/a")
		}
		if w.EndSkewNs >= 0 {
			row = append(row, units.Dur(w.EndSkewNs))
		} else {
			row = append(row, "n/a")
		}
		coll.Rows = append(coll.Rows, row)
	}
	summarise := func(g *layout.Grid, s viewkit.Summary) string {
		if all {
			return ""
		}
		return viewkit.Summarise(g, s)
	}
	out := []viewkit.Titled{
		{Title: "Per rank", Grid: steps, Foot: summarise(steps, stepsSummary(r))},
		{Title: "Device lane over each rank's window (overlap: communication overlapped by compute kernels, HTA's definition)", Grid: dev, Foot: summarise(dev, deviceSummary(r))},
	}
	if r.Match != nil {
		out = append(out, viewkit.Titled{Title: "Collectives (waited: own kernel minus the shortest; caused: the others' waits where it arrived last; HTA last: steps in which HTA's potential-straggler rule names it)", Grid: coll, Foot: summarise(coll, collSummary(r))})
	}
	if g := bandwidthGrid(r, width, false); g != nil {
		out = append(out, viewkit.Titled{Title: "Bandwidth of the collectives that record their size (per rank, own kernel durations, waits included: lower bounds; GB/s of 1e9 bytes; link: busbw over the device's nominal NVLink bandwidth)", Grid: g, Foot: summarise(g, bandwidthSummary(r))})
	}
	return out
}

func rkGBps(v float64) string {
	if v < 0 {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func rkBytes(b int64, csv bool) string {
	if csv {
		return strconv.FormatInt(b, 10)
	}
	return units.Bytes(b)
}

// bandwidthGrid is the per-rank bandwidth table; nil when no collective
// records its size.
func bandwidthGrid(r *ranks.Report, width int, csv bool) *layout.Grid {
	if len(r.Bandwidth) == 0 {
		return nil
	}
	g := &layout.Grid{Headers: []string{"rank", "collective", "dtype", "size", "group", "count", "total", "median", "algbw", "busbw", "link"},
		RightAlign: []bool{true, false, false, true, true, true, true, true, true, true, true}, Names: []bool{false, true}, Width: width,
		// on a narrow terminal group, median, algbw and dtype go first
		Optional: []int{4, 7, 8, 2}, MinName: 12}
	for _, b := range r.Bandwidth {
		group := "n/a"
		if b.GroupSize >= 0 {
			group = strconv.FormatInt(b.GroupSize, 10)
		}
		link := "n/a"
		if b.LinkPct >= 0 {
			link = units.Pct(b.LinkPct) + "%"
		}
		g.Rows = append(g.Rows, []string{rkRank(r.Ranks[b.Index]), b.Coll, b.Dtype, rkBytes(b.Bytes, csv), group, strconv.Itoa(b.Count),
			rkDur(b.TotalNs, csv), rkDur(b.MedianNs, csv), rkGBps(b.AlgBW), rkGBps(b.BusBW), link})
	}
	return g
}

func rkLast(r *ranks.Report, c ranks.CollRow) string {
	if c.Last >= 0 {
		return strconv.FormatInt(r.Ranks[c.Last].Rank, 10)
	}
	var t []string
	for _, i := range c.Tied {
		t = append(t, strconv.FormatInt(r.Ranks[i].Rank, 10))
	}
	return "tie " + strings.Join(t, ",")
}

func rkSkew(ns int64) string {
	if ns < 0 {
		return "n/a"
	}
	return units.Dur(ns)
}

// collectiveGrids are the per-collective table and the arrivals of each
// rank at the listed collectives.
func collectiveGrids(r *ranks.Report, width, top int, short bool) []viewkit.Titled {
	if len(r.Colls) == 0 {
		return nil
	}
	list := r.Colls
	more := 0
	if top > 0 && len(list) > top {
		list, more = list[:top], len(list)-top
	}
	pgs, sized := false, false
	for _, c := range list {
		pgs, sized = pgs || c.PG != "", sized || c.Bytes >= 0
	}
	cg := &layout.Grid{Headers: []string{"#", "collective", "k", "step"}, RightAlign: []bool{true, false, true, true}, Names: []bool{false, true}, Width: width}
	if pgs {
		cg.Headers, cg.RightAlign = append(cg.Headers, "pg/seq"), append(cg.RightAlign, false)
	}
	cg.Headers = append(cg.Headers, "last", "start skew", "end skew", "caused wait")
	cg.RightAlign = append(cg.RightAlign, true, true, true, true)
	if sized {
		cg.Headers, cg.RightAlign = append(cg.Headers, "size", "busbw"), append(cg.RightAlign, true, true)
	}
	ag := &layout.Grid{Headers: []string{"#", "rank", "launch", "start", "end", "kernel", "wait", "into step"},
		RightAlign: []bool{true, true, true, true, true, true, true, true}, Width: width}
	for k, c := range list {
		n := strconv.Itoa(k + 1)
		step := "-"
		if c.Step >= 0 {
			step = "#" + strconv.FormatInt(c.Step, 10)
		}
		pg := "-"
		if c.PG != "" {
			pg = c.PG
			if c.Seq >= 0 {
				pg += "/" + strconv.FormatInt(c.Seq, 10)
			}
		}
		size := "n/a"
		if c.Bytes >= 0 {
			size = units.Bytes(c.Bytes)
		}
		name := c.Name
		if short {
			name = viewkit.KernelShort(name)
		}
		row := []string{n, name, strconv.Itoa(c.Occurrence), step}
		if pgs {
			row = append(row, pg)
		}
		row = append(row, rkLast(r, c), rkSkew(c.StartSkewNs), rkSkew(c.EndSkewNs), units.Dur(c.CausedNs))
		if sized {
			row = append(row, size, rkGBps(c.BusBW))
		}
		cg.Rows = append(cg.Rows, row)
		for _, a := range c.Arrivals {
			launch, into := "n/a", "n/a"
			if a.HasLaunch {
				launch = rkClock(a.LaunchNs)
			}
			if a.InStepNs >= 0 {
				into = units.Dur(a.InStepNs)
			}
			ag.Rows = append(ag.Rows, []string{n, rkRank(r.Ranks[a.Index]), launch, rkClock(a.StartNs), rkClock(a.EndNs), units.Dur(a.DurNs), units.Dur(a.WaitNs), into})
		}
	}
	foot := ""
	if more > 0 {
		foot = fmt.Sprintf("%d more (--top 0 lists all; --format json has every one)", more)
	}
	clock := "times from the earliest rank's trace start (one clock)"
	if !r.ClockComparable {
		clock = "times from each rank's own trace start (the clocks are not comparable: no start or end skew)"
	}
	return []viewkit.Titled{
		{Title: fmt.Sprintf("Matched collectives in start order (%d of %d; k: the k-th of its name in the step; last: the rank with the shortest kernel; skews: latest minus earliest start and end; busbw in GB/s)", len(list), len(r.Colls)), Grid: cg, Foot: foot},
		{Title: "Arrivals at the collectives above (" + clock + "; wait: own kernel minus the shortest; into step: start minus the rank's own step start)", Grid: ag},
	}
}

// rkLine writes a labelled line of prose, wrapped to width, the text in
// a column after the label.
func rkLine(b *strings.Builder, label, text string, width int) {
	const col = 12
	w := width
	if w > 0 {
		w = max(w-col, 20)
	}
	for i, l := range layout.Wrap(text, w, "") {
		if i == 0 {
			b.WriteString(label + strings.Repeat(" ", max(1, col-layout.Width(label))))
		} else {
			b.WriteString(strings.Repeat(" ", col))
		}
		b.WriteString(l + "\n")
	}
}

func rkHeader(r *ranks.Report) [][2]string {
	world := "world size unknown"
	if r.WorldSize > 0 {
		world = "world size " + strconv.FormatInt(r.WorldSize, 10)
	}
	out := [][2]string{{"ranks", strconv.Itoa(len(r.Ranks)) + " given, " + world}}
	if m := r.Match; m != nil {
		s := fmt.Sprintf("%s: %s matched", m.By, units.Plural(len(m.Collectives), "collective", "collectives"))
		if len(m.Excluded) > 0 {
			s += fmt.Sprintf(", %s of kernels not matched", units.Plural(len(m.Excluded), "group", "groups"))
		}
		out = append(out, [2]string{"matching", s})
		switch {
		case r.ClockComparable && r.ClockSkewNs >= 0:
			out = append(out, [2]string{"clocks", fmt.Sprintf("wall-clock times: the ends of matched collectives differ by at most %s (median |end - end on rank %d| per rank)",
				units.Dur(r.ClockSkewNs), r.Ranks[m.Collectives[0].Ranks[0]].Rank)})
		case r.ClockComparable:
			out = append(out, [2]string{"clocks", "wall-clock times; no collective to compare them on"})
		default:
			out = append(out, [2]string{"clocks", "not comparable (a trace's times are relative to its own start): no clock skew measured"})
		}
	}
	return out
}

func rkVerdictLines(r *ranks.Report, md bool) [][2]string {
	if r.Verdict == nil {
		return [][2]string{{"verdict", "none: " + r.NoVerdict}}
	}
	v := r.Verdict
	out := [][2]string{{"verdict", v.Text}}
	if v.Late != nil && v.Class == ranks.ClassStraggler {
		out = append(out, [2]string{"why", v.Late.Text})
	}
	if r.HTASteps > 0 {
		name := viewkit.KernelShort(r.HTAName)
		if md {
			name = layout.MdCode(r.HTAName)
		}
		out = append(out, [2]string{"HTA", fmt.Sprintf("potential stragglers (HTA's rule, one candidate, on %s): %s", name, htaCounts(r))})
	}
	return out
}

func htaCounts(r *ranks.Report) string {
	var parts []string
	for i, n := range r.HTACounts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("rank %d in %d of %s", r.Ranks[i].Rank, n, units.Plural(r.HTASteps, "step", "steps")))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func rkFromFile(r *ranks.Report) bool {
	for _, s := range r.Ranks {
		if s.RankFromFile {
			return true
		}
	}
	return false
}

// Text writes the comparison of the ranks for a person (format
// "text" or "md"): how they were matched, the per-rank tables, the
// collectives when asked, the verdict and why.
func Text(w io.Writer, format string, r *ranks.Report, v View) error {
	md := format == "md"
	var b strings.Builder
	width := v.Width
	if md {
		width = 0
	}
	for _, l := range rkHeader(r) {
		if md {
			b.WriteString("- **" + l[0] + "**: " + layout.MdText(l[1]) + "\n")
		} else {
			rkLine(&b, l[0], l[1], width)
		}
	}
	if md {
		b.WriteString("\n")
		for _, l := range rkVerdictLines(r, true) {
			text := layout.MdText(l[1])
			if l[0] == "HTA" {
				text = l[1] // its name is a code span already, the rest plain words
			}
			b.WriteString("**" + l[0] + "**: " + text + "\n\n")
		}
	}
	tables := ranksGrids(r, width, v.All)
	if v.Collectives {
		tables = append(tables, collectiveGrids(r, width, v.Top, !md)...)
	}
	for _, t := range tables {
		if md {
			b.WriteString("\n### " + layout.MdText(t.Title) + "\n\n")
		} else {
			b.WriteString("\n")
			for _, l := range layout.Wrap(t.Title, width, "  ") {
				b.WriteString(l + "\n")
			}
		}
		if err := t.Grid.Write(&b, format); err != nil {
			return err
		}
		if t.Foot != "" {
			if md {
				b.WriteString("\n" + layout.MdText(t.Foot) + "\n")
			} else {
				for _, l := range layout.Wrap(t.Foot, width, "  ") {
					b.WriteString(l + "\n")
				}
			}
		}
	}
	if rkFromFile(r) {
		if md {
			b.WriteString("\n\\* rank from the file's position: the trace has no distributedInfo rank\n")
		} else {
			b.WriteString("* rank from the file's position: the trace has no distributedInfo rank\n")
		}
	}
	if !md {
		b.WriteString("\n")
		for _, l := range rkVerdictLines(r, false) {
			rkLine(&b, l[0], l[1], width)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
