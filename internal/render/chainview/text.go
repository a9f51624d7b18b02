// Package chainview writes the chains of tracetab chain as they are
// walked: a text sink (a tree fitting a width) and a JSON sink streaming
// the document tracetab.chain/2. It computes nothing.
package chainview

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/chain"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// ChainSchema versions the JSON form of chain.
const ChainSchema = "tracetab.chain/2"

// maxIndent is the deepest level drawn with its own indentation; deeper
// lines keep that indentation and say their level, so a line's length
// does not grow with the nesting.
const maxIndent = 24

// treeGlyphs are the characters a line's tree prefix is drawn with.
const treeGlyphs = " \n├└│─⇒⇢…-=>~<↑"

func kindLabel(k trace.Kind) string {
	switch k {
	case trace.KindRuntime:
		return "cuda_runtime"
	case trace.KindDriver:
		return "cuda_driver"
	}
	return k.String()
}

func threadText(th chain.Thread) string {
	if th.Pid.String() == th.Tid.String() {
		return "thread " + th.Tid.String()
	}
	return "thread " + th.Tid.String() + " (pid " + th.Pid.String() + ")"
}

func patternText(s *chain.Selection) string {
	if s.Regex {
		return "/" + s.Pattern + "/ (regular expression)"
	}
	return strconv.Quote(s.Pattern)
}

// minChainName is the narrowest a name is cut to in a chain line.
const minChainName = 24

// fitName cuts name in the middle so that it and rest fit in room columns
// (room <= 0: no limit), never below minChainName.
func fitName(name string, room int, rest string) string {
	if room <= 0 {
		return name
	}
	return names.Labels([]string{name}, max(room-layout.Width(rest), minChainName))[0] // the one labelling rule
}

func deviceLine(d *chain.DeviceOp, room int) string {
	var b strings.Builder
	b.WriteString("  " + kindLabel(d.Kind))
	if d.HasLaunch {
		b.WriteString("  queue " + units.Dur(d.QueueNs))
	} else {
		b.WriteString("  queue n/a") // no launch call to measure from (null in JSON)
	}
	b.WriteString("  dur " + units.Dur(d.DurNs))
	if d.Grid != nil {
		fmt.Fprintf(&b, "  grid [%d,%d,%d] block [%d,%d,%d]", d.Grid[0], d.Grid[1], d.Grid[2], d.Block[0], d.Block[1], d.Block[2])
	}
	if d.Regs >= 0 {
		fmt.Fprintf(&b, "  regs %d", d.Regs)
	}
	if d.SharedMemB >= 0 {
		fmt.Fprintf(&b, "  shmem %dB", d.SharedMemB)
	}
	if d.Bytes >= 0 {
		fmt.Fprintf(&b, "  bytes %d", d.Bytes)
	}
	head := fmt.Sprintf("GPU %d stream %d  ", d.Device, d.Stream)
	// the name is cut to leave room for its kind; the other fields go on
	// continuation lines when they do not fit (TextSink.item)
	return head + fitName(d.Name, room-layout.Width(head), "  "+kindLabel(d.Kind)) + b.String()
}

func eventLine(it *chain.Item, up bool, room int) string {
	var b strings.Builder
	b.WriteString("  " + kindLabel(it.EvKind))
	if up {
		b.WriteString("  child at +" + units.Dur(it.OffsetNs))
	} else {
		b.WriteString("  +" + units.Dur(it.OffsetNs))
	}
	b.WriteString("  dur " + units.Dur(it.DurNs))
	if !up && it.HasSelf {
		b.WriteString("  self " + units.Dur(it.SelfNs))
	}
	if it.BackwardOf != "" {
		b.WriteString("  (backward of " + it.BackwardOf + ")")
	}
	for _, m := range it.Marks {
		b.WriteString("  [" + m + "]")
	}
	return fitName(it.Name, room, "  "+kindLabel(it.EvKind)) + b.String()
}

// TextSink writes chains as text: a tree for down walks, one frame
// per line for up walks.
type TextSink struct {
	w     *bufio.Writer
	box   bool
	width int    // the lines' width, names cut to fit (0: no limit)
	open  []bool // open[d]: the last event drawn at depth d has siblings to come
	node  *chain.Item
	c     *chain.ChainInfo
	n     int // chains begun
}

// NewText returns a text sink; box draws the tree with box-drawing
// characters (for a terminal), otherwise plain indentation.
func NewText(w io.Writer, box bool) *TextSink {
	return &TextSink{w: bufio.NewWriterSize(w, 64<<10), box: box}
}

// SetWidth makes the lines fit width columns by cutting names (0: no limit).
func (t *TextSink) SetWidth(width int) { t.width = width }

// room is what a line with prefix pre leaves for the rest, 0 for no limit.
func (t *TextSink) room(pre string) int {
	if t.width <= 0 {
		return 0
	}
	return max(t.width-layout.Width(pre), 1)
}

// line writes one line; a prose line (a "#" header, a parenthesised
// note) wider than the width is wrapped, its continuation indented.
func (t *TextSink) line(s string) {
	s = strings.TrimRight(s, " ")
	body := strings.TrimLeft(s, " \n")
	if t.width > 0 && layout.Width(s) > t.width && (strings.HasPrefix(body, "#") || strings.HasPrefix(body, "(")) {
		lead := s[:len(s)-len(body)]
		indent := strings.Repeat(" ", layout.Width(strings.TrimLeft(lead, "\n"))+2)
		t.w.WriteString(lead + strings.Join(layout.Wrap(body, t.width-layout.Width(lead), indent), "\n") + "\n")
		return
	}
	if t.width > 0 && layout.Width(s) > t.width { // any other line: wrapped under its tree prefix
		body = strings.TrimLeft(s, treeGlyphs)
		lead := s[:len(s)-len(body)]
		if room := t.width - layout.Width(lead); room >= minChainName {
			for k, l := range layout.Wrap(body, room, "  ") {
				if k > 0 {
					t.w.WriteString(strings.Repeat(" ", layout.Width(lead)))
				} else {
					t.w.WriteString(lead)
				}
				t.w.WriteString(l + "\n")
			}
			return
		}
	}
	t.w.WriteString(s + "\n")
}

// item writes pre+text; when that is wider than the width, the text's
// fields (separated by two spaces) that do not fit go on continuation
// lines under it, indented past pre.
func (t *TextSink) item(pre, text string) {
	if t.width <= 0 || layout.Width(pre+text) <= t.width {
		t.line(pre + text)
		return
	}
	cont := strings.Repeat(" ", layout.Width(pre)+4)
	fields := strings.Split(text, "  ")
	cur := pre + fields[0]
	for _, f := range fields[1:] {
		if layout.Width(cur)+2+layout.Width(f) > t.width && strings.TrimSpace(cur) != "" && cur != cont {
			t.line(cur)
			cur = cont + f
			continue
		}
		if cur == cont {
			cur += f
		} else {
			cur += "  " + f
		}
	}
	if layout.Width(cur) > t.width && strings.HasPrefix(cur, cont) { // one field wider than its line: its words wrap
		for _, l := range layout.Wrap(strings.TrimPrefix(cur, cont), t.width-layout.Width(cont), "") {
			t.line(cont + l)
		}
		return
	}
	t.line(cur)
}

// Begin writes what was selected.
func (t *TextSink) Begin(s *chain.Selection) error {
	in := s.Instances
	switch s.Mode {
	case chain.ModePattern:
		h := fmt.Sprintf("# %s: %s of %s", patternText(s), units.Plural(s.Total, "instance", "instances"), units.Plural(s.NameCount, "name", "names"))
		if s.Step >= 0 {
			h += fmt.Sprintf(", %d in ProfilerStep#%d", len(in), s.Step)
		}
		if s.NameCount > 1 || s.Regex {
			h += ": " + strings.Join(s.Names, ", ")
			if s.NameCount > len(s.Names) {
				h += fmt.Sprintf(" (and %d more)", s.NameCount-len(s.Names))
			}
		}
		t.line(h)
	case chain.ModeStep:
		if len(s.Chosen) == 1 {
			t.line(fmt.Sprintf("# no PATTERN: profiler step %d of %d; a PATTERN, --step or --instance chooses another", s.Chosen[0]+1, len(in)))
		}
	case chain.ModeTopGPU, chain.ModeTopLevel:
		what := "top-level events that launched GPU work"
		if s.Mode == chain.ModeTopLevel {
			what = "top-level events (none launched GPU work)"
		}
		if len(s.Chosen) == 1 {
			t.line(fmt.Sprintf("# no ProfilerStep in this trace: top-level event %d of the %d %s; a PATTERN or --instance chooses another", s.Chosen[0]+1, len(in), what))
		} else {
			t.line(fmt.Sprintf("# no ProfilerStep in this trace: the %d %s", len(in), what))
		}
	}
	if s.Nested > 0 {
		t.line(fmt.Sprintf("# %s, %s inside them (shown there, not again)", units.Plural(len(s.Chosen), "outermost instance", "outermost instances"), units.Plural(s.Nested, "nested instance", "nested instances")))
	}
	return nil
}

// BeginChain writes the chain's header.
func (t *TextSink) BeginChain(c *chain.ChainInfo) error {
	t.c, t.node, t.open = c, nil, t.open[:0]
	if t.n > 0 {
		t.w.WriteByte('\n')
	}
	t.n++
	step := ""
	if c.Step >= 0 && (c.Root == nil || !strings.HasPrefix(c.Root.Name, "ProfilerStep#")) {
		step = fmt.Sprintf(" in ProfilerStep#%d", c.Step)
	}
	inst := fmt.Sprintf(" (instance %d of %d)", c.Instance, c.Of)
	switch {
	case c.Direction == chain.Down:
		t.line(fmt.Sprintf("# %s%s%s, down to the GPU work it launched (start offsets from the parent)", c.Root.Name, inst, step))
	case c.Device != nil:
		if c.Step >= 0 {
			step = fmt.Sprintf(", launched in ProfilerStep#%d", c.Step)
		}
		t.line(fmt.Sprintf("# %s%s%s, up from the GPU to the code that launched it", c.Device.Name, inst, step))
		t.item("", deviceLine(c.Device, t.room("")))
		switch {
		case c.Unlinked && c.Device.HasCorr:
			t.line(fmt.Sprintf("  (no launch call with correlation id %d in the trace: launched before the profiling window opened, or the trace lacks the CPU side)", c.Device.Corr))
		case c.Unlinked:
			t.line("  (the device op carries no correlation id: the trace does not say which call, if any, launched it)")
		}
	default:
		t.line(fmt.Sprintf("# %s%s%s, up to the events that enclose it", c.Root.Name, inst, step))
	}
	return nil
}

func (t *TextSink) glyphs() (branch, cont, lastBranch, space, dev, hop string) {
	if t.box {
		return "├─ ", "│  ", "└─ ", "   ", "⇒ ", "⇢ "
	}
	return "- ", "  ", "- ", "  ", "=> ", "~> "
}

// prefix is the indentation of a line at depth d (d >= 1), without its
// branch.
func (t *TextSink) prefix(d int) string {
	_, cont, _, space, _, _ := t.glyphs()
	var b strings.Builder
	deep := t.maxIndent()
	for k := 1; k < d && k <= deep; k++ {
		if k < len(t.open) && t.open[k] {
			b.WriteString(cont)
		} else {
			b.WriteString(space)
		}
	}
	if d > deep+1 {
		b.WriteString("… ")
	}
	return b.String()
}

func (t *TextSink) setOpen(d int, open bool) {
	if d > t.maxIndent()+1 {
		return
	}
	for len(t.open) <= d {
		t.open = append(t.open, false)
	}
	t.open = t.open[:d+1]
	t.open[d] = open
}

// maxIndent is the deepest level drawn with its own indentation: at most
// maxIndent, and on a width no more than two fifths of it, so a deep
// tree leaves its names room.
func (t *TextSink) maxIndent() int {
	if t.width <= 0 {
		return maxIndent
	}
	return min(maxIndent, max(4, t.width*2/5/3))
}

func (t *TextSink) levelMark(d int) string {
	if d > t.maxIndent()+1 {
		return "  [level " + strconv.Itoa(d) + "]"
	}
	return ""
}

// Item writes one line.
func (t *TextSink) Item(it *chain.Item) error {
	branch, _, lastBranch, _, devArrow, hopArrow := t.glyphs()
	if t.c.Direction == chain.Up {
		arrow := "<- "
		if t.box {
			arrow = "↑ "
		}
		switch it.Kind {
		case chain.ItemEvent:
			t.item("  "+arrow, eventLine(it, true, t.room("  "+arrow)))
			if it.Launched > 1 {
				t.line(fmt.Sprintf("     (this call launched %d device ops)", it.Launched))
			}
		case chain.ItemHop:
			where := "on the same thread, not enclosing the frames above"
			if it.OtherThread {
				where = "on " + threadText(it.Thread) + ": the step annotation lives on another thread"
			}
			t.line(fmt.Sprintf("  %s%s  %s  dur %s  (holds the launch by time; %s)", hopArrow, it.Name, kindLabel(it.EvKind), units.Dur(it.DurNs), where))
		}
		return nil
	}
	d := it.Depth
	switch it.Kind {
	case chain.ItemEvent:
		t.node = it
		line := ""
		if d > 0 {
			b := branch
			if it.Last {
				b = lastBranch
			}
			line = t.prefix(d) + b
		}
		t.setOpen(d, !it.Last)
		t.item(line, eventLine(it, false, t.room(line+t.levelMark(d)))+t.levelMark(d))
	case chain.ItemDevice, chain.ItemMoreDevice:
		pre := t.prefix(d + 1)
		if t.node != nil && t.node.HasChildren {
			if t.box {
				pre += "│ "
			} else {
				pre += "  "
			}
		}
		if it.Kind == chain.ItemMoreDevice {
			t.line(fmt.Sprintf("%s%s... %d more device ops launched by this call", pre, devArrow, it.Count))
		} else {
			t.item(pre+devArrow, deviceLine(it.Dev, t.room(pre+devArrow)))
		}
	case chain.ItemHop:
		t.setOpen(d, true)
		t.line(fmt.Sprintf("%s%s%son %s: %s inside this annotation's window (it has no child on its own thread)",
			t.prefix(d), branch, hopArrow, threadText(it.Thread), units.Plural(it.Count, "top-level event", "top-level events")))
	}
	return nil
}

// EndChain says what the bounds left out.
func (t *TextSink) EndChain(c *chain.ChainInfo) error {
	if c.HiddenBelowDepth > 0 {
		t.line(fmt.Sprintf("  (%s below --depth %d not shown; self times count them)", units.Plural(c.HiddenBelowDepth, "event", "events"), c.MaxDepth))
	}
	if c.OmittedLines > 0 {
		t.line(fmt.Sprintf("... %s not shown (--max-lines %d; 0 shows all)", units.Plural(c.OmittedLines, "more line", "more lines"), c.MaxLines))
	}
	return nil
}

// Summary writes the aggregate table.
func (t *TextSink) Summary(s *chain.Summary) error {
	var g *layout.Grid
	dur := func(ns int64) string { return units.Dur(ns) }
	queue := func(q *int64) string {
		if q == nil {
			return "n/a"
		}
		return units.Dur(*q)
	}
	if s.Dir == chain.Down {
		h := "# summary over " + units.Plural(s.Calls, "call", "calls")
		if s.Nested > 0 {
			h += fmt.Sprintf(" (%s counted in their outer call)", units.Plural(s.Nested, "nested instance", "nested instances"))
		}
		t.line(h + ": device work per call")
		g = &layout.Grid{Headers: []string{"Per call", "Count", "Total", "Median queue", "Median dur", "Min dur", "Max dur", "Kind", "Name"},
			RightAlign: []bool{true, true, true, true, true, true, true},
			Names:      []bool{false, false, false, false, false, false, false, false, true},
			Optional:   []int{5, 6, 7}, Width: t.width}
		for _, r := range s.Rows {
			g.Rows = append(g.Rows, []string{strconv.FormatFloat(r.PerCall, 'f', 2, 64), strconv.Itoa(r.Count), dur(r.TotalDurNs),
				queue(r.MedQueueNs), dur(r.MedDurNs), dur(r.MinDurNs), dur(r.MaxDurNs), kindLabel(r.Kind), r.Name})
		}
	} else {
		h := "# summary over " + units.Plural(s.Instances, "instance", "instances")
		if s.Unlinked > 0 {
			h += fmt.Sprintf(" (%d without a launch call in the trace)", s.Unlinked)
		}
		t.line(h + ": who launched them")
		g = &layout.Grid{Headers: []string{"Count", "Total", "Median queue", "Median dur", "Min dur", "Max dur", "Launch call", "Op", "Name"},
			RightAlign: []bool{true, true, true, true, true, true},
			Names:      []bool{false, false, false, false, false, false, true, true, true},
			Optional:   []int{4, 5}, Width: t.width}
		for _, r := range s.Rows {
			lc, op := r.LaunchCall, r.Op
			if lc == "" {
				lc = "(none in the trace)"
			}
			if op == "" {
				op = "-"
			}
			g.Rows = append(g.Rows, []string{strconv.Itoa(r.Count), dur(r.TotalDurNs), queue(r.MedQueueNs), dur(r.MedDurNs),
				dur(r.MinDurNs), dur(r.MaxDurNs), lc, op, r.Name})
		}
	}
	if len(g.Rows) == 0 {
		t.line("(the instances launched no device work)")
		return nil
	}
	var b strings.Builder
	if err := g.Write(&b, "text"); err != nil {
		return err
	}
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if l != "" {
			t.line(strings.TrimSuffix(l, "\n"))
		}
	}
	return nil
}

// End writes the closing notes and flushes.
func (t *TextSink) End(s *chain.Selection, f *chain.Footer) error {
	if f.OmittedInstances > 0 {
		t.line(fmt.Sprintf("\n# %s not shown (--max-lines %d; 0 shows all)", units.Plural(f.OmittedInstances, "more instance", "more instances"), f.MaxLines))
	}
	return t.w.Flush()
}
