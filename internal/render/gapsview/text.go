// Package gapsview lays out gaps.Report for tracetab gaps: the text
// (sections fitting a width, the steps with their busy sparklines),
// Markdown and CSV tables, and the JSON document tracetab.gaps/3. It
// computes nothing.
package gapsview

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// textOut lays the text report out within a width (0: no limit): prose
// wrapped, grids fitted (name columns cut in the middle, optional columns
// left out).
type textOut struct {
	b     strings.Builder
	width int
}

const labelWidth = 12

// field writes "label       text", the text wrapped under itself.
func (o *textOut) field(label, text string) {
	pad := strings.Repeat(" ", labelWidth)
	w := 0
	if o.width > 0 {
		w = max(o.width-labelWidth, 20)
	}
	if w > 0 {
		text = cutLongWords(text, w)
	}
	for k, line := range layout.Wrap(text, w, "") {
		if k == 0 {
			o.b.WriteString((label + pad)[:labelWidth])
		} else {
			o.b.WriteString(pad)
		}
		o.b.WriteString(line + "\n")
	}
}

// para writes prose wrapped at the width, later lines indented.
func (o *textOut) para(text, indent string) { o.item("", indent, text) }

// item writes prose wrapped at the width, its first line indented by
// first, the later ones by rest (at least as deep).
func (o *textOut) item(first, rest, text string) {
	w := o.width
	indent := rest[min(len(first), len(rest)):]
	if w > 0 {
		w = max(w-len(first), 20)
		text = cutLongWords(text, w-len(indent))
	}
	for _, line := range layout.Wrap(text, w, indent) {
		o.b.WriteString(first + line + "\n")
	}
}

// cutLongWords cuts in the middle every word longer than a line (a
// mangled name in a headline), so that wrapped prose fits.
func cutLongWords(text string, width int) string {
	words := strings.Fields(text)
	long := false
	for k, w := range words {
		if layout.Width(w) > width {
			words[k], long = layout.Cut(w, width), true
		}
	}
	if !long {
		return text
	}
	return strings.Join(words, " ")
}

// grid writes g fitted to the width, leaving out the optional columns in
// the order given while its name columns would be cut below roomyName
// columns (below layout's 16 in the columns that stay when the rest is gone).
func (o *textOut) grid(g *layout.Grid, optional ...int) {
	g.Width = o.width
	g.MinName = roomyName
	g.DropToFit(optional...)
	g.MinName = 0
	g.Write(&o.b, "text")
}

// roomyName is the width under which a name column would rather see an
// optional column go.
const roomyName = 28

func (o *textOut) none(minGap int64) {
	if minGap > 0 {
		fmt.Fprintf(&o.b, "  none above %s\n", units.Dur(minGap))
	} else {
		o.b.WriteString("  none\n")
	}
}

// Text writes the report for a person within width columns (0: no
// limit); minGap is the --min-gap used (a section with no rows says "none
// above" it). Unless all, more than viewkit.SummaryRows steps are
// summarised (their distribution, the cold steps, the steps that stand
// out).
func Text(w io.Writer, r *gaps.Report, minGap int64, width int, all bool, sparks ...StepSparks) error {
	o := &textOut{width: width}
	k := kitFor(false)
	if r.NoGPU {
		o.field("verdict", "no GPU lane: "+r.Verdict.Headline)
	} else {
		o.verdictFields(r)
		o.causeSection(r, k)
		o.startupSection(r, k)
		o.laneSection(r, k)
		o.gapSection(r, k, minGap)
		if r.Breakdown != nil {
			o.breakdown(r.Breakdown, all)
		}
		o.latencySection(r, k)
	}
	o.syncSection(r, k)
	o.deadSection(r, k, minGap)
	o.stepSection(r, k, all, sparks)
	_, err := io.WriteString(w, o.b.String())
	return err
}

// verdictFields are the verdict and what goes with it: the advice, the
// other remedies, the steady state when start-up decides the class, the
// span, the lane offset, the unlinked device ops.
func (o *textOut) verdictFields(r *gaps.Report) {
	v := &r.Verdict
	o.field("verdict", strings.ToUpper(v.Class)+": "+v.Headline)
	if v.Advice != "" {
		o.field("advice", v.Advice)
	}
	for _, a := range v.Also {
		o.field("also", a)
	}
	if v.StartupNs > 0 && v.Class == gaps.ClassStartup {
		o.field("steady", strings.ToUpper(v.SteadyClass)+": "+v.SteadyHeadline)
	}
	o.field("span", fmt.Sprintf("%s: %s per device; GPU busy %s, idle %s (%s%%); CPU active on the launching threads %s of %s",
		v.Denominator, units.Dur(v.SpanNs), units.Dur(v.BusyNs), units.Dur(v.IdleNs), units.Pct(v.IdlePct), units.Dur(v.CPUActiveNs), units.Dur(v.CPUWindowNs)))
	if r.HasLaneOffset {
		o.field("lane offset", fmt.Sprintf("the first launched op started %s after its launch call (GPU lane behind the CPU lane)", units.Dur(r.LaneOffsetNs)))
	}
	if r.UnlinkedOps > 0 {
		o.field("unlinked", units.Plural(r.UnlinkedOps, "device op has", "device ops have")+" no launch call in the trace (launched before the window opened): never a host wait")
	}
}

// causeSection is the idle time by cause and the input split.
func (o *textOut) causeSection(r *gaps.Report, k gridKit) {
	v := &r.Verdict
	o.b.WriteString("\n")
	o.para("idle time by cause (over the span; shares of each gap by what the launching thread did), largest first:", "  ")
	if cg := causeGrid(r, k); len(cg.Rows) == 0 {
		o.b.WriteString("  none\n")
	} else {
		o.grid(cg)
	}
	if v.InputPrepNs > 0 {
		loader := ""
		if v.InputLoaderNs > 0 {
			loader = "the DataLoader " + units.Dur(v.InputLoaderNs) + ", "
		}
		o.para(fmt.Sprintf("input: %sinput preparation outside the DataLoader %s (a frame or annotation named with %s; mostly %s)",
			loader, units.Dur(v.InputPrepNs), strings.Join(gaps.InputPrepWords, ", "), v.InputPrep), "  ")
	}
}

// startupSection lists the one-time start-up calls, when there are any.
func (o *textOut) startupSection(r *gaps.Report, k gridKit) {
	v := &r.Verdict
	if len(v.StartupCalls) == 0 {
		return
	}
	o.b.WriteString("\n")
	o.para(fmt.Sprintf("one-time start-up calls (%s of the idle time; a creation call, or the first call of its name %dx its median and %s or longer):",
		units.Pct(v.StartupPct)+"%", gaps.StartupFactor, units.Dur(gaps.StartupMinNs)), "  ")
	o.grid(startupGrid(r, k))
}

// laneSection is the lanes with their idle categories, the idle before
// the first and after the last op (not with --hta), the launch queues.
func (o *textOut) laneSection(r *gaps.Report, k gridKit) {
	mode := "exact integer ns"
	if r.Idle.HTA {
		mode = "as HTA 0.6.1 computes them: whole us, last step dropped, overlaps summed as negative gaps; HTA idle is their sum, Idle the exact window minus busy"
	}
	o.b.WriteString("\n")
	o.para(fmt.Sprintf("lanes (window: first to last device op; idle categories %s):", mode), "  ")
	o.grid(laneGrid(r, k), 1, 2, 8)
	if !r.Idle.HTA {
		tot := r.Idle.Total
		o.para(fmt.Sprintf("idle before the first op %s, after the last op %s (inside the span, summed over devices)", units.Dur(tot.BeforeNs), units.Dur(tot.AfterNs)), "  ")
	}
	o.queueLines(r)
}

// gapSection is the largest GPU gaps and the notes below them.
func (o *textOut) gapSection(r *gaps.Report, k gridKit, minGap int64) {
	o.b.WriteString("\n")
	o.para("largest GPU gaps (steps by the launch-call clock: the step each side's op was launched in; Share: the part of the gap the activity holds for the cause):", "  ")
	if len(r.Gaps) == 0 {
		o.none(minGap)
		return
	}
	gg, optional := gapTextGrid(r, k)
	o.grid(gg, optional...)
	o.gapNotes(r)
}

// gapTextGrid is the gap table and the columns that go first when it is
// too wide (previous op, kind, next op, steps); with one device the
// Device column says nothing and is dropped.
func gapTextGrid(r *gaps.Report, k gridKit) (*layout.Grid, []int) {
	gg := gapGrid(r, k)
	optional := []int{gapColPrev, gapColKind, gapColNext, gapColSteps}
	if len(r.Devices) == 1 {
		dropColumn(gg, gapColDevice)
		for k := range optional {
			optional[k]--
		}
	}
	return gg, optional
}

// latencySection is the launch latency over every op and the ten names
// first in its table.
func (o *textOut) latencySection(r *gaps.Report, k gridKit) {
	if r.Latency.Count == 0 {
		return
	}
	l := r.Latency
	o.b.WriteString("\n")
	o.para(fmt.Sprintf("launch latency (device op start - launch call start): min %s, median %s, p90 %s, max %s over %d ops",
		units.Dur(l.MinNs), units.Dur(l.MedNs), units.Dur(l.P90Ns), units.Dur(l.MaxNs), l.Count), "  ")
	lg := latencyGrid(r, k)
	lg.Rows = lg.Rows[:min(len(lg.Rows), 10)]
	o.grid(lg)
}

// syncSection is the blocking calls on the CPU.
func (o *textOut) syncSection(r *gaps.Report, k gridKit) {
	o.b.WriteString("\n")
	o.para("blocking calls on the CPU (the CPU waits; GPU work that ran meanwhile):", "  ")
	if len(r.Syncs) == 0 {
		o.b.WriteString("  none\n")
	} else {
		o.grid(syncGrid(r, k))
	}
}

// deadSection is the CPU lane's dead windows.
func (o *textOut) deadSection(r *gaps.Report, k gridKit, minGap int64) {
	o.b.WriteString("\n")
	o.para("CPU lane: dead windows on the launching and step threads (inside an op before its first child, or between top-level ops, after one):", "  ")
	if len(r.Dead) == 0 {
		o.none(minGap)
	} else {
		o.grid(deadGrid(r, k))
	}
}

// stepSection is the steps table, summarised unless all, and the cold
// steps.
func (o *textOut) stepSection(r *gaps.Report, k gridKit, all bool, sparks []StepSparks) {
	if len(r.Steps) == 0 {
		return
	}
	o.b.WriteString("\n")
	o.para("steps (GPU busy and idle inside each step's GPU window: from its start to the end of the work it launched, less what an earlier step's window covers):", "  ")
	sg := stepGrid(r, k)
	addStepSparks(sg, sparks)
	summary := ""
	if !all {
		summary = viewkit.Summarise(sg, stepSummary(r))
	}
	o.grid(sg)
	if summary != "" {
		o.para(summary, "  ")
	}
	for _, s := range r.Steps {
		if s.Cold {
			o.para(fmt.Sprintf("cold: ProfilerStep#%d is much longer than the median step (warm-up, a cold start)", s.Step), "  ")
		}
	}
}

// gapNotes lists, below the gap table, what a row cannot say: a drained
// pipeline, a blocking launch call, what the host did while an op was
// queued, input preparation.
func (o *textOut) gapNotes(r *gaps.Report) {
	var notes [][2]string
	multi := len(r.Devices) > 1
	for _, g := range r.Gaps {
		at := units.Dur(g.StartNs)
		if multi {
			at = fmt.Sprintf("device %d %s", g.Device, at)
		}
		var parts []string
		if g.BlockingLaunch && g.HasLaunchCall {
			parts = append(parts, fmt.Sprintf("the next op's launch call %s (%s) was still running when the GPU went idle", g.LaunchCall, units.Dur(g.LaunchCallNs)))
		}
		if g.HostActivity != "" {
			where := fmt.Sprintf("every stream of device %d idle", g.Device)
			if g.OtherStreamBusyNs > 0 {
				where = fmt.Sprintf("another stream of device %d busy for %s of it", g.Device, units.Dur(g.OtherStreamBusyNs))
			}
			parts = append(parts, fmt.Sprintf("%s; the launching thread meanwhile in %s (%s%%)", where, g.HostActivity, units.Pct(g.HostActivityPct)))
		}
		if g.InputPrepNs > 0 {
			parts = append(parts, "input preparation outside the DataLoader "+units.Dur(g.InputPrepNs))
		}
		if g.Note != "" {
			parts = append(parts, g.Note)
		}
		if len(parts) > 0 {
			notes = append(notes, [2]string{at, strings.Join(parts, "; ")})
		}
	}
	if len(notes) == 0 {
		return
	}
	o.b.WriteString("notes:\n")
	for _, n := range notes {
		o.item("  ", "      ", n[0]+": "+n[1])
	}
}

func (o *textOut) breakdown(bd *gaps.Breakdown, all bool) {
	o.b.WriteString("\n")
	o.para("step time breakdown (the TensorBoard plugin's Overview: each instant counted once, for the first of Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec active; each step extended to the end of its GPU work):", "  ")
	if len(bd.Steps) == 0 {
		o.b.WriteString("  none\n")
		return
	}
	g := breakdownGrid(bd, units.Dur, false)
	g.Width = o.width
	summary := ""
	if !all {
		// the steps are summarised, the total row stays last
		total := g.Rows[len(g.Rows)-1]
		g.Rows = g.Rows[:len(g.Rows)-1]
		summary = viewkit.Summarise(g, breakdownSummary(bd))
		g.Rows = append(g.Rows, total)
	}
	// the roles that are 0 in every step, the total (their sum), then
	// the smallest roles, each said with its total
	order := append(zeroRoles(bd), 1)
	roles := gaps.Roles()
	slices.SortStableFunc(roles, func(a, b gaps.Role) int { return cmp.Compare(bd.Total.Ns[a], bd.Total.Ns[b]) })
	for _, r := range roles {
		if bd.Total.Ns[r] > 0 {
			order = append(order, 2+int(r))
		}
	}
	dropped := g.DropToFit(order...)
	g.Write(&o.b, "text")
	if summary != "" {
		o.para(summary, "  ")
	}
	if len(dropped) > 0 {
		var said []string
		for _, h := range dropped {
			for _, r := range gaps.Roles() {
				if h == r.String() && bd.Total.Ns[r] > 0 {
					h = fmt.Sprintf("%s (%s in all)", h, units.Dur(bd.Total.Ns[r]))
				}
			}
			said = append(said, h)
		}
		o.para("left out for the width: "+strings.Join(said, ", ")+" (Total is the sum of the roles)", "  ")
	}
	if bd.Note != "" {
		o.para("note: "+bd.Note, "  ")
	}
	// the breakdown's own recommendation (the plugin's rule) is in JSON;
	// the text gives one advice, the verdict's, with its "also" lines
}

// dropColumn removes column i of g.
func dropColumn(g *layout.Grid, i int) {
	del := func(x []string) []string {
		if i < len(x) {
			return append(x[:i:i], x[i+1:]...)
		}
		return x
	}
	g.Headers = del(g.Headers)
	for k := range g.Rows {
		g.Rows[k] = del(g.Rows[k])
	}
	if i < len(g.RightAlign) {
		g.RightAlign = append(g.RightAlign[:i:i], g.RightAlign[i+1:]...)
	}
	if i < len(g.Names) {
		g.Names = append(g.Names[:i:i], g.Names[i+1:]...)
	}
}
