package reportview

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/render/gapsview"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// StepView is the gap timeline of one step: the step's window (extended
// to the end of its GPU work as the breakdown extends it), the top-level
// events of the CPU threads active in it above the GPU streams, and the
// GPU gaps of the gaps report inside it, shaded by cause.
type StepView struct {
	Step           int64
	StartNs, EndNs int64 // from the origin
	BinNs          int64 // events narrower than this are density cells
	Lanes          []StepLane
	Gaps           []gaps.Gap
	Bar            *Bar
}

// StepLane is one lane of the step view.
type StepLane struct {
	Label  string
	GPU    bool
	Device int
	Rects  [][2]int64 // [start, end) of the events at least BinNs long, from the origin
	Names  []string
	Cells  []cell // the rest, binned
}

// StepViewWidth is the width in pixels the step view's time axis divides
// the window into.
const StepViewWidth = 1000

// NewStepView builds the view of step n; nil when the breakdown has no
// such step.
func NewStepView(t *trace.Trace, r *gaps.Report, c *StepChart, n int64) *StepView {
	if c == nil {
		return nil
	}
	bar := c.Bar(n)
	if bar == nil {
		return nil
	}
	v := &StepView{Step: n, StartNs: bar.StartNs, EndNs: bar.StartNs + max(bar.TotalNs, 1), Bar: bar}
	v.BinNs = ceilDiv(v.EndNs-v.StartNs, StepViewWidth)
	for _, g := range r.Gaps {
		if g.StartNs < v.EndNs && g.StartNs+g.LenNs > v.StartNs {
			v.Gaps = append(v.Gaps, g)
		}
	}
	l := t.Links()
	var tracks []int
	for k, tr := range t.Tracks {
		if tr.Kind == trace.TrackCPU || tr.Kind == trace.TrackDevice {
			tracks = append(tracks, k)
		}
	}
	slices.SortStableFunc(tracks, func(a, b int) int {
		ta, tb := &t.Tracks[a], &t.Tracks[b]
		return cmp.Or(cmp.Compare(ta.Kind, tb.Kind), cmp.Compare(ta.Device, tb.Device), cmp.Compare(ta.Stream, tb.Stream),
			compareID(t, ta.Pid, tb.Pid, ta.Tid, tb.Tid))
	})
	from, to := v.StartNs+t.TraceStart, v.EndNs+t.TraceStart
	for _, k := range tracks {
		tr := &t.Tracks[k]
		ln := StepLane{Label: threadLabel(t, tr), GPU: tr.Kind == trace.TrackDevice, Device: tr.Device}
		if ln.GPU {
			ln.Label = fmt.Sprintf("GPU %d stream %d", tr.Device, tr.Stream)
		}
		var small []cell
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if !drawn(t, e) || e.Start >= to || e.End() <= from {
				continue
			}
			if !ln.GPU && topDrawn(t, l, i) >= 0 {
				continue // only the top-level events of a thread
			}
			s, end := max(e.Start, from)-t.TraceStart, min(e.End(), to)-t.TraceStart
			if end-s >= v.BinNs {
				ln.Rects = append(ln.Rects, [2]int64{s, end})
				ln.Names = append(ln.Names, t.NameOf(int(i)))
				continue
			}
			b := (s - v.StartNs) / v.BinNs
			if n := len(small); n > 0 && small[n-1].bin == b {
				small[n-1].covered += end - s
				small[n-1].count++
			} else {
				small = append(small, cell{bin: b, covered: end - s, count: 1})
			}
		}
		if len(ln.Rects) == 0 && len(small) == 0 {
			continue
		}
		if len(small) > 0 {
			ln.Cells = mergeCells(small)
		}
		v.Lanes = append(v.Lanes, ln)
	}
	return v
}

// topDrawn is the nearest enclosing event of i on its thread that a lane
// draws, or -1.
func topDrawn(t *trace.Trace, l *trace.Links, i int32) int32 {
	for p := l.Parent[i]; p >= 0; p = l.Parent[p] {
		if drawn(t, t.Ev(int(p))) {
			return p
		}
	}
	return -1
}

// CauseColors colour the gaps by cause, in gaps.Causes' order.
var CauseColors = []string{"#8a63c2", "#4a7fc1", "#d0342c", "#d9603b", "#777777", "#b0b0b0", "#2a9d8f", "#e9c46a", "#6d597a", "#a0522d"}

// Step view geometry.
const (
	svW, svLeft, svRight = 1180, 170, 10
	svTop, svLaneH       = 46, 18
)

// SVG draws the step view as a file of its own (standalone) or for the page.
func (v *StepView) SVG(standalone bool) template.HTML {
	var b svgBuf
	h := svTop + svLaneH*len(v.Lanes) + 70
	plotW := float64(svW - svLeft - svRight)
	x := func(ns int64) float64 {
		return float64(svLeft) + plotW*float64(ns-v.StartNs)/float64(v.EndNs-v.StartNs)
	}
	if standalone {
		b.f(`<svg xmlns="http://www.w3.org/2000/svg" class="step-view" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="11">`, svW, h, svW, h)
		b.f(`<rect width="%d" height="%d" fill="#fff"/>`, svW, h)
	} else {
		b.f(`<svg class="step-view" viewBox="0 0 %d %d" width="%d" height="%d" font-size="11">`, svW, h, svW, h)
	}
	var idle int64
	for _, g := range v.Gaps {
		idle += min(g.StartNs+g.LenNs, v.EndNs) - max(g.StartNs, v.StartNs)
	}
	title := fmt.Sprintf("ProfilerStep#%d: %s from %s; the largest GPU gaps of tracetab gaps, shaded by cause", v.Step,
		units.Dur(v.EndNs-v.StartNs), units.Dur(v.StartNs))
	b.f(`<title>%s</title>`, esc(title))
	b.f(`<text x="%d" y="16" font-size="13" fill="#222">%s</text>`, svLeft, esc(title))
	// axis
	step := niceStep(v.EndNs-v.StartNs, 8)
	b.f(`<g class="axis" fill="#444">`)
	for tk := int64(0); tk <= v.EndNs-v.StartNs; tk += step {
		b.f(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#e4e4e4"/>`, x(v.StartNs+tk), x(v.StartNs+tk), svTop-6, svTop+svLaneH*len(v.Lanes))
		b.f(`<text x="%.1f" y="%d" text-anchor="middle">+%s</text>`, x(v.StartNs+tk), svTop-10, esc(units.Dur(tk)))
	}
	b.f(`</g>`)
	// gaps, behind the device lanes of their device
	for _, g := range v.Gaps {
		y0, y1 := -1, -1
		for k, ln := range v.Lanes {
			if ln.GPU && ln.Device == g.Device {
				if y0 < 0 {
					y0 = svTop + svLaneH*k
				}
				y1 = svTop + svLaneH*(k+1)
			}
		}
		if y0 < 0 {
			continue
		}
		s, e := max(g.StartNs, v.StartNs), min(g.StartNs+g.LenNs, v.EndNs)
		label := fmt.Sprintf("GPU %d idle %s: %s", g.Device, units.Dur(g.LenNs), gapsview.Cause(g))
		b.f(`<g class="gap" data-cause="%s" data-start-ns="%d" data-length-ns="%d"><title>%s</title>`, g.Cause, g.StartNs, g.LenNs, esc(label))
		b.f(`<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s" fill-opacity="0.35"/>`, x(s), y0, max(x(e)-x(s), 1), y1-y0, CauseColors[g.Cause])
		if x(e)-x(s) > 60 {
			b.f(`<text x="%.2f" y="%d" fill="#222" font-size="10">%s</text>`, x(s)+3, y1+11, esc(trim(g.Cause.String()+": "+g.Activity, int((x(e)-x(s))/6))))
		}
		b.f(`</g>`)
	}
	for k, ln := range v.Lanes {
		y := svTop + svLaneH*k
		b.f(`<g class="lane" data-kind="%s"><text x="%d" y="%d" text-anchor="end" dominant-baseline="middle" fill="#222">%s</text>`,
			map[bool]string{true: "gpu", false: "cpu"}[ln.GPU], svLeft-6, y+svLaneH/2, esc(trim(ln.Label, 26)))
		color := "#4a7fc1"
		if ln.GPU {
			color = "#3f8f3a"
		}
		for _, c := range ln.Cells {
			s := v.StartNs + c.bin*v.BinNs
			op := float64(min(max(ceilDiv(c.covered*100, v.BinNs), 1), 100)) / 100
			b.f(`<rect class="band" x="%.2f" y="%d" width="%.2f" height="%d" fill="%s" fill-opacity="%.2f"><title>%d events shorter than %s</title></rect>`,
				x(s), y+2, max(x(s+v.BinNs)-x(s), 0.5), svLaneH-4, color, 0.15+0.85*op, c.count, esc(units.Dur(v.BinNs)))
		}
		for j, r := range ln.Rects {
			b.f(`<rect class="ev" x="%.2f" y="%d" width="%.2f" height="%d" fill="%s"><title>%s %s</title></rect>`,
				x(r[0]), y+2, max(x(r[1])-x(r[0]), 0.5), svLaneH-4, color, esc(ln.Names[j]), esc(units.Dur(r[1]-r[0])))
		}
		b.f(`</g>`)
	}
	// legend of the causes present
	ly := svTop + svLaneH*len(v.Lanes) + 36
	lx := float64(svLeft)
	seen := map[gaps.Cause]bool{}
	for _, g := range v.Gaps {
		if seen[g.Cause] {
			continue
		}
		seen[g.Cause] = true
		b.f(`<rect x="%.1f" y="%d" width="10" height="10" fill="%s" fill-opacity="0.5"/><text x="%.1f" y="%d" fill="#222">%s</text>`,
			lx, ly-9, CauseColors[g.Cause], lx+14, ly, esc(g.Cause.String()))
		lx += 30 + 6.5*float64(len(g.Cause.String()))
	}
	if len(v.Gaps) == 0 {
		b.f(`<text x="%d" y="%d" fill="#444">no GPU gap of the gaps report lies in this step</text>`, svLeft, ly)
	}
	b.f(`</svg>`)
	return template.HTML(b.String())
}

func trim(s string, n int) string {
	if n < 4 {
		return ""
	}
	return names.Truncate(s, n)
}

// WriteStepViewSVG writes the step view as a file of its own.
func WriteStepViewSVG(w io.Writer, v *StepView) error {
	_, err := io.WriteString(w, string(v.SVG(true))+"\n")
	return err
}
