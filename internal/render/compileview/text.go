// Package compileview lays out what tracetab compile finds: the
// torch.compile summary of one trace and the comparison of an eager and
// a compiled trace, as text fitting a width, Markdown and the JSON
// document tracetab.compile/2. It computes nothing.
package compileview

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

// View chooses what the text and Markdown of compile show.
type View struct {
	Width int // text: the width to fit (0: no limit)
	Top   int // rows per list (0: all)
	// Short: kernel names without "void " and their parameter list (text)
	Short bool
}

// kname is a kernel's name as the view shows it.
func (v View) kname(s string) string {
	if v.Short {
		return viewkit.KernelShort(s)
	}
	return s
}

func cxStepList(sc []compile.StepCount) string {
	if len(sc) == 0 {
		return "-"
	}
	var b []string
	for _, s := range sc {
		b = append(b, "#"+strconv.FormatInt(s.Step, 10)+":"+strconv.Itoa(s.Count))
	}
	return strings.Join(b, " ")
}

func cxOps(k compile.Kernel) string {
	switch {
	case k.Class != compile.ClassInductor:
		return "-"
	case !k.Decoded.OK:
		return "(not decoded: " + k.Decoded.Why + ")"
	}
	s := strings.Join(k.Decoded.Ops, ", ")
	if len(k.Decoded.Unknown) > 0 {
		s += " (unknown words: " + strings.Join(k.Decoded.Unknown, ", ") + ")"
	}
	return s
}

func cxDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// cxMore is the line under a list cut at top.
func cxMore(n int, what string) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d more %s (--top 0 lists all; --format json has every one)", n, what)
}

// cxMoreKernels is the line under the kernel lists cut at top, by class.
func cxMoreKernels(rest []compile.Kernel) string {
	if len(rest) == 0 {
		return ""
	}
	var inductor, library, other int
	for _, k := range rest {
		switch k.Class {
		case compile.ClassInductor:
			inductor++
		case compile.ClassLibrary:
			library++
		default:
			other++
		}
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{inductor, "Inductor"}, {library, "library"}, {other, "other"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return fmt.Sprintf("%d more kernels (%s; --top 0 lists all; --format json has every one)", len(rest), strings.Join(parts, ", "))
}

// compileGrids are the tables of a summary.
func compileGrids(s *compile.Summary, v View) []viewkit.Titled {
	var out []viewkit.Titled
	w, top := v.Width, v.Top
	cut := func(n int) int {
		if top > 0 && n > top {
			return top
		}
		return n
	}
	if len(s.Regions) > 0 {
		g := &layout.Grid{Headers: []string{"compiled call", "kind", "calls", "CPU total", "median", "calls per step"},
			RightAlign: []bool{false, false, true, true, true, false}, Names: []bool{true, false, false, false, false, true}, Width: w}
		for _, r := range s.Regions {
			g.Rows = append(g.Rows, []string{r.Name, r.Kind, strconv.Itoa(r.Calls), units.Dur(r.TotalNs), units.Dur(r.MedianNs), cxStepList(r.PerStep)})
		}
		out = append(out, viewkit.Titled{Title: "Compiled regions (Torch-Compiled Region: F/C is Dynamo's frame F, compile C; C > 0 is a recompile)", Grid: g})
	}
	if len(s.Recompiles) > 0 {
		g := &layout.Grid{Headers: []string{"recompiled call", "calls", "first call", "step", "compile work before"},
			RightAlign: []bool{false, true, true, true, true}, Names: []bool{true}, Width: w}
		for _, r := range s.Recompiles {
			step := "-"
			if r.Step >= 0 {
				step = "#" + strconv.FormatInt(r.Step, 10)
			}
			g.Rows = append(g.Rows, []string{r.Name, strconv.Itoa(r.Calls), units.Dur(r.FirstNs), step, units.Dur(r.CompileNs)})
		}
		out = append(out, viewkit.Titled{Title: "Recompiles (first call from the trace's start; compile work: (dynamo_timed) events and compile frames since the frame's previous compile first ran; why Dynamo recompiled is not in a profiler trace: TORCH_LOGS=recompiles or tlparse say)", Grid: g})
	}
	if len(s.Costs) > 0 {
		g := &layout.Grid{Headers: []string{"outermost call", "calls", "median", "total", "rt calls", "launch", "dev ops", "triton"},
			RightAlign: []bool{false, true, true, true, true, true, true, true}, Names: []bool{true}, Width: w, MinName: 12}
		p := &layout.Grid{Headers: []string{"outermost call", "lookup", "dynamo", "pregraph", "aot", "graph", "launches"},
			RightAlign: []bool{false, true, true, true, true, true, true}, Names: []bool{true}, Width: w, MinName: 12}
		for _, c := range s.Costs {
			pc := c.PerCall
			g.Rows = append(g.Rows, []string{c.Name, strconv.Itoa(c.Calls), units.Dur(c.MedianNs), units.Dur(pc.Total()),
				strconv.Itoa(c.LaunchCalls), strconv.Itoa(c.Launches), strconv.Itoa(c.DeviceOps), strconv.Itoa(c.TritonLaunch)})
			p.Rows = append(p.Rows, []string{c.Name, units.Dur(pc.CacheLookupNs), units.Dur(pc.DynamoNs), units.Dur(pc.PregraphNs),
				units.Dur(pc.AOTNs), units.Dur(pc.GraphNs), units.Dur(pc.LaunchNs)})
		}
		out = append(out,
			viewkit.Titled{Title: "CPU cost per call (median and total: per call, the cache lookup included in total; rt calls: runtime and driver calls over all calls, launch: those that launched device work, dev ops: device ops launched, triton: launches of Inductor kernels)", Grid: g},
			viewkit.Titled{Title: "Where a call's CPU time goes (mean per call; the parts add up to total: the cache lookup before the call, Dynamo's own time, Pregraph bytecode, the AOT wrapper, the graph's code, runtime and driver calls)", Grid: p})
	}
	if len(s.Parts) > 0 {
		g := &layout.Grid{Headers: []string{"event", "calls", "CPU total"}, RightAlign: []bool{false, true, true}, Names: []bool{true}, Width: w}
		for _, p := range s.Parts {
			g.Rows = append(g.Rows, []string{p.Name, strconv.Itoa(p.Calls), units.Dur(p.TotalNs)})
		}
		out = append(out, viewkit.Titled{Title: "torch.compile's own events (as torch's table counts them)", Grid: g})
	}
	if len(s.Kernels) > 0 {
		n := cut(len(s.Kernels))
		// Listed by device time whatever their class, so that the library
		// kernels compile did not generate (GEMMs, attention) are seen
		// beside the Inductor ones under the default --top.
		byTime := slices.Clone(s.Kernels)
		slices.SortStableFunc(byTime, func(a, b compile.Kernel) int { return cmp.Compare(b.TotalNs, a.TotalNs) })
		g := &layout.Grid{Headers: []string{"kernel", "class", "count", "total", "median", "in graphs"},
			RightAlign: []bool{false, false, true, true, true, true}, Names: []bool{true}, Width: w,
			MinName: 30, Optional: []int{5, 4}}
		d := &layout.Grid{Headers: []string{"kernel", "launched by", "fused ops (from the name)"}, Names: []bool{true, true, true}, Width: w}
		for _, k := range byTime[:n] {
			class := k.Class
			if k.Family != "" {
				class += "/" + k.Family
			}
			g.Rows = append(g.Rows, []string{v.kname(k.Name), class, strconv.Itoa(k.Count), units.Dur(k.TotalNs), units.Dur(k.MedianNs), strconv.Itoa(k.InGraph)})
			via := k.Via
			if k.Op != "" && k.Op != k.Name {
				via += " < " + k.Op
			}
			d.Rows = append(d.Rows, []string{v.kname(k.Name), cxDash(strings.TrimPrefix(via, " < ")), cxOps(k)})
		}
		title := "Kernels of compiled code (Inductor kernels anywhere; class: inductor, library or other, with the family)"
		if s.GraphOnly() {
			title = "Kernels replayed by CUDA graphs (no kernel was launched from a compiled call; Inductor kernels anywhere)"
		}
		more := cxMoreKernels(byTime[n:])
		out = append(out, viewkit.Titled{Title: title, Grid: g, Foot: more}, viewkit.Titled{Title: "How they were launched (launch call < the op that made it) and the ops an Inductor kernel fuses (read from its name, a heuristic)", Grid: d, Foot: more})
	}
	if len(s.Graphs.Sequences) > 0 {
		n := cut(len(s.Graphs.Sequences))
		g := &layout.Grid{Headers: []string{"kernels", "replays", "median GPU busy", "first", "last"}, RightAlign: []bool{true, true, true, false, false},
			Names: []bool{false, false, false, true, true}, Width: w}
		for _, q := range s.Graphs.Sequences[:n] {
			g.Rows = append(g.Rows, []string{strconv.Itoa(q.Kernels), strconv.Itoa(q.Replays), units.Dur(q.MedianGPUNs), v.kname(q.First), v.kname(q.Last)})
		}
		out = append(out, viewkit.Titled{Title: "Graph replays by kernel sequence", Grid: g, Foot: cxMore(len(s.Graphs.Sequences)-n, "sequences")})
	}
	if len(s.Capture.Windows) > 0 {
		g := &layout.Grid{Headers: []string{"capture", "start", "step", "launches", "captured", "by ops"},
			RightAlign: []bool{false, true, true, true, true, false}, Names: []bool{true, false, false, false, false, true}, Width: w}
		for _, c := range s.Capture.Windows {
			step := "-"
			if c.Step >= 0 {
				step = "#" + strconv.FormatInt(c.Step, 10)
			}
			var ops []string
			for _, o := range c.Ops {
				ops = append(ops, o.Name+" "+strconv.Itoa(o.Count))
			}
			g.Rows = append(g.Rows, []string{c.From, units.Dur(c.StartNs), step, strconv.Itoa(c.Launches), strconv.Itoa(c.Captured), cxDash(strings.Join(ops, ", "))})
		}
		out = append(out, viewkit.Titled{Title: "CUDA graph captures (launches: kernel launch calls on the capturing thread inside the window; captured: those with no device op in the trace, recorded into the graph; by ops: the ops that made them)", Grid: g})
	}
	if len(s.Steps) > 0 {
		g := &layout.Grid{Headers: []string{"step", "calls", "CPU", "launches", "replays", "inductor", "library", "other", "outside"},
			RightAlign: []bool{true, true, true, true, true, true, true, true, true}, Width: w}
		for _, r := range s.Steps {
			g.Rows = append(g.Rows, []string{strconv.FormatInt(r.Step, 10), strconv.Itoa(r.CompiledCalls), units.Dur(r.CompiledCPUNs), strconv.Itoa(r.LaunchCalls),
				strconv.Itoa(r.GraphReplays), strconv.Itoa(r.Inductor), strconv.Itoa(r.Library), strconv.Itoa(r.Other), strconv.Itoa(r.Outside)})
		}
		out = append(out, viewkit.Titled{Title: "Per profiler step (calls and CPU: outermost compiled calls, cache lookups included; launches: runtime calls in compiled code; kernels by class, in the step of their launch call; outside: kernels launched outside compiled code)", Grid: g})
	}
	return out
}

// captureLines are the sentences about graph capture.
func captureLines(c compile.Capture) []string {
	if len(c.Windows) == 0 {
		if c.NoDeviceOp > 0 {
			return []string{fmt.Sprintf("graph capture: none recorded (no cudaStreamBeginCapture/EndCapture, no capture annotation); %s launched no device op in the trace (captured, or outside the profiled window)",
				units.Plural(c.NoDeviceOp, "kernel launch call", "kernel launch calls"))}
		}
		return nil
	}
	captured, launches := 0, 0
	for _, w := range c.Windows {
		captured += w.Captured
		launches += w.Launches
	}
	return []string{fmt.Sprintf("graph capture: %s (from %s), %s captured of %s inside them",
		units.Plural(len(c.Windows), "window", "windows"), c.Windows[0].From, units.Plural(captured, "kernel launch", "kernel launches"),
		units.Plural(launches, "launch call", "launch calls"))}
}

// compileLines are the sentences of the summary.
func compileLines(s *compile.Summary) []string {
	var ls []string
	if !s.HasCompile {
		ls = append(ls, "no compiled region, no Inductor kernel and no graph replay: the trace shows no torch.compile activity")
		return append(ls, captureLines(s.Capture)...)
	}
	dyn := 0
	for _, r := range s.Regions {
		if r.Kind == compile.KindDynamo {
			dyn++
		}
	}
	if dyn == 0 {
		ls = append(ls, "no Torch-Compiled Region in the trace (no Dynamo frame markers)")
	} else {
		rec := 0
		for _, f := range s.Frames {
			rec += f.Recompiles
		}
		ls = append(ls, fmt.Sprintf("Dynamo: %s, %s, %s", units.Plural(len(s.Frames), "frame", "frames"), units.Plural(dyn, "compiled region", "compiled regions"), units.Plural(rec, "recompile", "recompiles")))
	}
	sc := s.Scope
	if sc.CompiledKernels+sc.GraphKernels+sc.OutsideKernels == 0 {
		ls = append(ls, "kernels: none in the trace (no GPU work)")
	} else {
		ls = append(ls, fmt.Sprintf("kernels: %d in compiled code (%s), %d replayed by graphs (%s), %d elsewhere (%s); %s (%s), %s (%s)",
			sc.CompiledKernels, units.Dur(sc.CompiledNs), sc.GraphKernels, units.Dur(sc.GraphNs), sc.OutsideKernels, units.Dur(sc.OutsideNs),
			units.Plural(sc.InductorKernels, "Inductor kernel", "Inductor kernels"), units.Dur(sc.InductorNs),
			units.Plural(sc.LibraryKernels, "library kernel", "library kernels"), units.Dur(sc.LibraryNs)))
	}
	if g := s.Graphs; g.Replays > 0 {
		ls = append(ls, fmt.Sprintf("graph replays: %s, %s (%s); kernels per replay min %d, median %d, max %d; %s",
			units.Plural(g.Replays, "replay", "replays"), units.Plural(g.Kernels, "kernel", "kernels"), units.Plural(g.DeviceOps, "device op", "device ops"), g.MinKernels, g.MedianKernels, g.MaxKernels,
			units.Plural(len(g.Sequences), "distinct kernel sequence", "distinct kernel sequences")))
		if g.Empty > 0 {
			ls = append(ls, fmt.Sprintf("%s launched no device op in the trace", units.Plural(g.Empty, "graph replay", "graph replays")))
		}
	} else {
		ls = append(ls, "graph replays: none")
	}
	ls = append(ls, captureLines(s.Capture)...)
	if len(s.Undecoded) > 0 {
		ls = append(ls, "fused ops are read from kernel names (a heuristic); not decoded: "+strings.Join(s.Undecoded, ", "))
	}
	if t := s.Tax; t.Events > 0 {
		st := make([]string, len(t.Steps))
		for i, x := range t.Steps {
			st[i] = "#" + strconv.FormatInt(x, 10)
		}
		where := "outside any profiler step"
		if len(st) > 0 {
			where = "in step " + strings.Join(st, ", ")
		}
		ls = append(ls, fmt.Sprintf("compile tax: %s of compile work inside the window (%s, first %s), %s", units.Dur(t.TotalNs), units.Plural(t.Events, "event", "events"), t.First, where))
	} else {
		ls = append(ls, "compile tax: no compile work inside the window")
	}
	if s.UnattributedLookups > 0 {
		ls = append(ls, fmt.Sprintf("%s followed by no compiled call", units.Plural(s.UnattributedLookups, "TorchDynamo Cache Lookup", "TorchDynamo Cache Lookups")))
	}
	return ls
}

// writeSections writes the prose lines and the tables of a compile view:
// text wrapped to the width, or Markdown with the names in code spans.
func writeSections(b *strings.Builder, format, heading string, lines []string, tables []viewkit.Titled, width int) error {
	md := format == "md"
	if md {
		b.WriteString("## " + heading + "\n\n")
	} else {
		for _, l := range layout.Wrap("# "+heading, width, "  ") {
			b.WriteString(l + "\n")
		}
	}
	for _, l := range lines {
		if md {
			b.WriteString("- " + layout.MdText(l) + "\n")
			continue
		}
		for _, x := range layout.Wrap(l, width, "  ") {
			b.WriteString(x + "\n")
		}
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
		var err error
		if md {
			err = t.Grid.WriteMarkdownCompact(b, 0) // long kernel names: cells unpadded
		} else {
			t.Grid.Width = width
			err = t.Grid.Write(b, format)
		}
		if err != nil {
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
	return nil
}

// Text writes the summary as text (format "text") or Markdown ("md").
func Text(w io.Writer, format, file string, s *compile.Summary, v View) error {
	var b strings.Builder
	if format == "md" {
		v.Width = 0
	} else {
		v.Short = true
	}
	name := cxPath(file, v.Width-len("# torch.compile in "))
	if format == "md" {
		name = layout.MdCode(file)
	}
	if err := writeSections(&b, format, "torch.compile in "+name, compileLines(s), compileGrids(s, v), v.Width); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cxPath fits a file path into width columns, cut in the middle (width <= 0:
// whole).
func cxPath(p string, width int) string {
	if width <= 0 {
		return p
	}
	return layout.Cut(p, max(width, 16))
}
