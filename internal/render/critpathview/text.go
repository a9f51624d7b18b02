package critpathview

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/critpath"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/units"
)

// TextOptions shape the text view.
type TextOptions struct {
	Width    int  // the lines fit this many columns
	Top      int  // rows of the top-ops table (0: all)
	Demangle bool // show C++ names demangled
}

func (o TextOptions) name(s string) string {
	if o.Demangle {
		return names.Demangle(s)
	}
	return s
}

// largest is the category with the most path time, as "cpu 89.42%".
func largest(b [critpath.NumCategories]int64, total int64) string {
	best := critpath.Category(0)
	for c := range critpath.NumCategories {
		if b[c] > b[best] {
			best = c
		}
	}
	if b[best] == 0 {
		return "-"
	}
	return best.String() + " " + units.Pct(Pct(b[best], total)) + "%"
}

func shareList(b [critpath.NumCategories]int64, total int64) string {
	var parts []string
	for c := range critpath.NumCategories {
		if b[c] > 0 {
			parts = append(parts, c.String()+" "+units.Pct(Pct(b[c], total))+"%")
		}
	}
	if len(parts) == 0 {
		return "nothing (every edge weighs 0)"
	}
	return strings.Join(parts, ", ")
}

// Text writes the windows (one line each), the breakdown, the top ops by
// path time, the syncs the paths wait on and the what-ifs.
func Text(w io.Writer, file string, r *critpath.Result, o TextOptions) error {
	var b strings.Builder
	width := o.Width // prose wraps at 100 columns when the width is not limited
	if width <= 0 {
		width = 100
	}
	cut := func(name string, room int) string { // names are cut only to fit a given width
		if o.Width <= 0 {
			return name
		}
		return names.Truncate(name, max(16, room))
	}
	head, tail := "critical path of ", ": "+units.Plural(len(r.Windows), "window", "windows")
	b.WriteString(head + cut(file, width-layout.Width(head+tail)) + tail + "\n")
	g := &layout.Grid{Headers: []string{"window", "path", "wall", "events", "largest share"},
		RightAlign: []bool{false, true, true, true, false}, Names: []bool{true}, Width: o.Width}
	var reasons []string
	noPath := map[string]int{}
	for _, wr := range r.Windows {
		if !wr.HasPath {
			g.Rows = append(g.Rows, []string{wr.Label, "n/a", "n/a", "0", "no path"})
			if noPath[wr.Reason] == 0 {
				reasons = append(reasons, wr.Reason)
			}
			noPath[wr.Reason]++
			continue
		}
		g.Rows = append(g.Rows, []string{wr.Label, units.Dur(wr.PathNs), units.Dur(wr.WallNs), strconv.Itoa(wr.OnPathEvents), largest(wr.Breakdown, wr.PathNs)})
	}
	if err := g.Write(&b, "text"); err != nil {
		return err
	}
	for _, why := range reasons {
		for _, line := range layout.Wrap(fmt.Sprintf("no path in %s: %s", units.Plural(noPath[why], "window", "windows"), why), width, "  ") {
			b.WriteString(line + "\n")
		}
	}
	if c, ok := r.TotalCoverage(); ok {
		for _, line := range layout.Wrap(coverageLine(r, c), width, "  ") {
			b.WriteString(line + "\n")
		}
	}
	if !r.HasMedian {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n")
	if len(r.Windows) > 1 {
		fmt.Fprintf(&b, "median path %s\n", units.Dur(r.MedianPathNs))
	}
	for _, line := range layout.Wrap("path time by kind"+allWindows(r)+": "+shareList(r.TotalBreakdown, r.TotalPathNs), width, "  ") {
		b.WriteString(line + "\n")
	}

	b.WriteString("\ntop ops by path time" + allWindows(r) + "\n")
	tg := &layout.Grid{Headers: []string{"name", "path time", "share", "events"}, RightAlign: []bool{false, true, true, true},
		Names: []bool{true}, Width: o.Width}
	for k, n := range r.Names {
		if o.Top > 0 && k >= o.Top {
			break
		}
		tg.Rows = append(tg.Rows, []string{o.name(n.Name), units.Dur(n.OnPathNs), units.Pct(Pct(n.OnPathNs, r.TotalPathNs)) + "%", strconv.Itoa(n.Events)})
	}
	if err := tg.Write(&b, "text"); err != nil {
		return err
	}
	if o.Top > 0 && len(r.Names) > o.Top {
		fmt.Fprintf(&b, "(%d more; --top 0 lists all)\n", len(r.Names)-o.Top)
	}

	b.WriteString("\nsyncs the path waits on" + allWindows(r) + "\n")
	if len(r.PathSyncs) == 0 {
		b.WriteString("none\n")
	} else {
		sg := &layout.Grid{Headers: []string{"kind", "waiting", "waits for", "times"}, RightAlign: []bool{false, false, false, true},
			Names: []bool{false, true, true}, Width: o.Width}
		for _, s := range r.PathSyncs {
			sg.Rows = append(sg.Rows, []string{s.Kind.String(), o.name(s.To), o.name(s.From), strconv.Itoa(s.Count)})
		}
		if err := sg.Write(&b, "text"); err != nil {
			return err
		}
	}

	if len(r.WhatIfMedians) > 0 {
		title := "\nwhat if"
		if len(r.Windows) > 1 {
			title += " (median path over the windows)"
		}
		b.WriteString(title + "\n")
		for _, m := range r.WhatIfMedians {
			rest := fmt.Sprintf(" %sx faster: %s -> %s (%s%%)", strconv.FormatFloat(r.Speedup, 'f', -1, 64),
				units.Dur(m.PathNs), units.Dur(m.NewPathNs), units.Pct(-Pct(m.PathNs-m.NewPathNs, m.PathNs)))
			b.WriteString(cut(o.name(m.Name), width-layout.Width(rest)) + rest + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func allWindows(r *critpath.Result) string {
	if len(r.Windows) > 1 {
		return " (all windows)"
	}
	return ""
}

// coverageLine says in one line how much of the windows the paths cover
// and why the rest is not on them: HTA's path counts neither idle CPU time
// between ops nor the time a call only waited, and a path can run past
// its window's end (device ops launched in the window end after it).
func coverageLine(r *critpath.Result, c critpath.Coverage) string {
	subject, whole, verb, runs := "the paths", "the windows", "cover", "run"
	if len(r.Windows) == 1 {
		subject, whole, verb, runs = "the path", "the window", "covers", "runs"
		if r.Windows[0].HasStep {
			whole = "the step"
		}
	}
	s := fmt.Sprintf("%s (%s) %s %s%% of %s (%s)", subject, units.Dur(c.PathNs), verb,
		units.Pct(Pct(c.PathNs, c.WindowNs)), whole, units.Dur(c.WindowNs))
	if c.OutsideNs < 0 {
		s = fmt.Sprintf("%s (%s) %s past the end of %s (%s) by %s: device ops launched in it end after it", subject,
			units.Dur(c.PathNs), runs, whole, units.Dur(c.WindowNs), units.Dur(-c.OutsideNs))
	}
	var parts []string
	add := func(ns int64, what string) {
		if ns > 0 {
			parts = append(parts, units.Dur(ns)+" "+what)
		}
	}
	add(c.Uncounted.IdleNs, "CPU idle between ops")
	add(c.Uncounted.SyncNs+c.Uncounted.BlockedNs, "waiting in syncs")
	add(c.OutsideNs, "before or after the path")
	if c.Uncounted.OtherNs < 0 {
		parts = append(parts, units.Dur(-c.Uncounted.OtherNs)+" of overlaps counted once")
	}
	if len(parts) == 0 {
		return s
	}
	return s + "; not counted: " + strings.Join(parts, ", ")
}
