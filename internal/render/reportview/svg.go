package reportview

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/units"
)

// svgBuf writes SVG markup; every text and attribute value goes through
// esc.
type svgBuf struct{ strings.Builder }

func esc(s string) string { return template.HTMLEscapeString(s) }

func (b *svgBuf) f(format string, a ...any) { fmt.Fprintf(&b.Builder, format, a...) }

// niceStep is a tick interval for an axis up to maxNs in about n steps:
// 1, 2 or 5 times a power of ten ns.
func niceStep(maxNs int64, n int) int64 {
	if maxNs <= 0 {
		return 1
	}
	raw := max(maxNs/int64(n), 1)
	p := int64(1)
	for p*10 <= raw {
		p *= 10
	}
	for _, m := range []int64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func pct(a, b int64) string {
	if b == 0 {
		return "0.00"
	}
	return units.Pct(float64(a) * 100 / float64(b))
}

// Chart geometry.
const (
	chartW, chartH         = 760, 260
	chartLeft, chartRight  = 72, 12
	chartTop, chartBottom  = 24, 58
	chartLegendY           = chartH - 14
	chartMinBarGap, barPad = 1.0, 0.2
)

// StepChartSVG draws the step chart: one stacked bar per step (the roles
// of the breakdown bottom up), a cold step marked, an axis of durations
// and a legend. standalone adds what a file of its own needs (the SVG
// namespace, a background, a font).
func (c *StepChart) SVG(standalone bool) template.HTML {
	var b svgBuf
	if standalone {
		b.f(`<svg xmlns="http://www.w3.org/2000/svg" class="step-chart" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="11">`, chartW, chartH, chartW, chartH)
		b.f(`<rect width="%d" height="%d" fill="#fff"/>`, chartW, chartH)
	} else {
		b.f(`<svg class="step-chart" viewBox="0 0 %d %d" width="%d" height="%d" font-size="11" role="img" aria-label="step time breakdown per step">`, chartW, chartH, chartW, chartH)
	}
	b.f(`<title>Step time breakdown: each instant of a step counted once, for the first of Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec active</title>`)
	var maxNs int64
	for _, k := range c.Shown {
		maxNs = max(maxNs, c.Bars[k].TotalNs)
	}
	step := niceStep(maxNs, 4)
	top := max((maxNs+step-1)/step*step, step)
	plotH := float64(chartH - chartTop - chartBottom)
	y := func(ns int64) float64 { return float64(chartTop) + plotH*(1-float64(ns)/float64(top)) }
	b.f(`<g class="axis" fill="#444">`)
	for v := int64(0); v <= top; v += step {
		b.f(`<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, chartLeft, chartW-chartRight, y(v), y(v))
		b.f(`<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, chartLeft-6, y(v), esc(units.Dur(v)))
	}
	b.f(`</g>`)
	n := len(c.Shown)
	slot := float64(chartW-chartLeft-chartRight) / float64(max(n, 1))
	bw := max(slot*(1-barPad), chartMinBarGap)
	labelEvery := max(1, int(40/slot)+1)
	for k, bi := range c.Shown {
		bar := &c.Bars[bi]
		x := float64(chartLeft) + slot*float64(k) + (slot-bw)/2
		b.f(`<g class="bar" data-step="%d" data-start-ns="%d" data-total-ns="%d" data-cold="%t">`, bar.Step, bar.StartNs, bar.TotalNs, bar.Cold)
		b.f(`<title>%s</title>`, esc(bar.Title()))
		acc := int64(0)
		for r, ns := range bar.Ns {
			y0, y1 := y(acc+ns), y(acc)
			b.f(`<rect class="seg" data-role="%s" data-ns="%d" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>`,
				RoleKeys[r], ns, x, y0, bw, max(y1-y0, 0), RoleColors[r])
			acc += ns
		}
		if bar.Cold {
			b.f(`<rect class="cold" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="none" stroke="#1a5fb4" stroke-width="1.5" stroke-dasharray="3 2"/>`,
				x-1, y(bar.TotalNs)-1, bw+2, y(0)-y(bar.TotalNs)+2)
			b.f(`<text class="cold-label" x="%.2f" y="%.2f" text-anchor="middle" fill="#1a5fb4">cold</text>`, x+bw/2, y(bar.TotalNs)-5)
		}
		if k%labelEvery == 0 {
			b.f(`<text x="%.2f" y="%d" text-anchor="middle" fill="#444">%d</text>`, x+bw/2, chartH-chartBottom+14, bar.Step)
		}
		b.f(`</g>`)
	}
	b.f(`<text x="%d" y="%d" text-anchor="middle" fill="#444">ProfilerStep#</text>`, (chartLeft+chartW-chartRight)/2, chartH-chartBottom+30)
	b.f(`<g class="legend">`)
	lx := float64(chartLeft)
	for r := range RoleKeys {
		name := roleName(r)
		b.f(`<rect x="%.1f" y="%d" width="10" height="10" fill="%s"/><text x="%.1f" y="%d" fill="#222">%s</text>`, lx, chartLegendY-9, RoleColors[r], lx+14, chartLegendY, esc(name))
		lx += 24 + 6.5*float64(len(name))
	}
	b.f(`</g></svg>`)
	return template.HTML(b.String())
}

func roleName(r int) string { return gaps.Roles()[r].String() }

// Title is the bar's tooltip: the step, its total, each role with its share.
func (bar *Bar) Title() string {
	var s strings.Builder
	fmt.Fprintf(&s, "step %d: %s", bar.Step, units.Dur(bar.TotalNs))
	if bar.Cold {
		s.WriteString(" (cold)")
	}
	for r, ns := range bar.Ns {
		fmt.Fprintf(&s, "\n%s %s (%s%%)", roleName(r), units.Dur(ns), pct(ns, bar.TotalNs))
	}
	return s.String()
}

// WriteStepChartSVG writes the step chart as a file of its own.
func WriteStepChartSVG(w io.Writer, c *StepChart) error {
	_, err := io.WriteString(w, string(c.SVG(true))+"\n")
	return err
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
