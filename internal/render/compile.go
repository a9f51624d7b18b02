package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/units"
)

// CompileSchema versions the JSON form of the compile summary.
const CompileSchema = "tracetab.compile/1"

// cxCut fits s into n runes, cutting its middle (names.Truncate) so kernels
// that differ only in their tail stay apart.
func cxCut(s string, n int) string { return names.Truncate(s, n) }

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
		return ""
	case !k.Decoded.OK:
		return "(not decoded: " + k.Decoded.Why + ")"
	}
	s := strings.Join(k.Decoded.Ops, ", ")
	if len(k.Decoded.Unknown) > 0 {
		s += " (unknown words: " + strings.Join(k.Decoded.Unknown, ", ") + ")"
	}
	return s
}

// compileGrids builds the tables of a summary; nameW truncates names (0: never).
func compileGrids(s *compile.Summary, nameW, top int) []struct {
	title string
	g     *Grid
} {
	type tg = struct {
		title string
		g     *Grid
	}
	var out []tg
	if len(s.Regions) > 0 {
		g := &Grid{Headers: []string{"Compiled call", "Kind", "Frame/Compile", "Calls", "CPU total", "Median", "Calls per step"},
			RightAlign: []bool{false, false, false, true, true, true, false}}
		for _, r := range s.Regions {
			fc := "-"
			if r.Frame >= 0 {
				fc = strconv.Itoa(r.Frame) + "/" + strconv.Itoa(r.Compile)
			}
			g.Rows = append(g.Rows, []string{cxCut(r.Name, nameW), r.Kind, fc, strconv.Itoa(r.Calls), units.Dur(r.TotalNs), units.Dur(r.MedianNs), cxStepList(r.PerStep)})
		}
		out = append(out, tg{"Compiled regions", g})
	}
	if len(s.Costs) > 0 {
		g := &Grid{Headers: []string{"Outermost call", "Calls", "Median", "Cache lookup", "Dynamo", "Pregraph", "AOT wrapper", "Graph code", "Launches", "Total", "Runtime calls", "Launching", "Device ops", "Triton launches"},
			RightAlign: []bool{false, true, true, true, true, true, true, true, true, true, true, true, true, true}}
		for _, c := range s.Costs {
			p := c.PerCall
			g.Rows = append(g.Rows, []string{cxCut(c.Name, nameW), strconv.Itoa(c.Calls), units.Dur(c.MedianNs), units.Dur(p.CacheLookupNs), units.Dur(p.DynamoNs),
				units.Dur(p.PregraphNs), units.Dur(p.AOTNs), units.Dur(p.GraphNs), units.Dur(p.LaunchNs), units.Dur(p.Total()),
				strconv.Itoa(c.LaunchCalls), strconv.Itoa(c.Launches), strconv.Itoa(c.DeviceOps), strconv.Itoa(c.TritonLaunch)})
		}
		out = append(out, tg{"CPU cost per call (times: mean per call; runtime calls, those launching device work, device ops and Triton launches: over all calls)", g})
	}
	if len(s.Parts) > 0 {
		g := &Grid{Headers: []string{"Event", "Calls", "CPU total"}, RightAlign: []bool{false, true, true}}
		for _, p := range s.Parts {
			g.Rows = append(g.Rows, []string{cxCut(p.Name, nameW), strconv.Itoa(p.Calls), units.Dur(p.TotalNs)})
		}
		out = append(out, tg{"torch.compile's own events (as torch's table counts them)", g})
	}
	if len(s.Kernels) > 0 {
		g := &Grid{Headers: []string{"Class", "Family", "Kernel", "Count", "Total", "Median", "In graphs", "Launched by", "Fused ops (from the name)"},
			RightAlign: []bool{false, false, false, true, true, true, true, false, false}}
		kn := make([]string, len(s.Kernels))
		for i, k := range s.Kernels {
			kn[i] = k.Name
		}
		kn = names.Column(kn, nameW) // distinct kernels stay distinct (#2)
		for i, k := range s.Kernels {
			if top > 0 && i == top {
				g.Rows = append(g.Rows, []string{"...", "", fmt.Sprintf("%d more kernels (--top 0 lists all)", len(s.Kernels)-top), "", "", "", "", "", ""})
				break
			}
			via := k.Via
			if k.Op != "" && k.Op != k.Name {
				via += " < " + k.Op
			}
			if via == "" {
				via = "-"
			}
			g.Rows = append(g.Rows, []string{k.Class, cxDash(k.Family), kn[i], strconv.Itoa(k.Count), units.Dur(k.TotalNs), units.Dur(k.MedianNs),
				strconv.Itoa(k.InGraph), cxCut(via, nameW), cxOps(k)})
		}
		out = append(out, tg{"Kernels of compiled code (Inductor kernels anywhere)", g})
	}
	if len(s.Graphs.Sequences) > 0 {
		g := &Grid{Headers: []string{"Kernels", "Replays", "Median GPU busy", "First", "Last"}, RightAlign: []bool{true, true, true, false, false}}
		for i, q := range s.Graphs.Sequences {
			if top > 0 && i == top {
				g.Rows = append(g.Rows, []string{"...", fmt.Sprintf("%d more sequences", len(s.Graphs.Sequences)-top), "", "", ""})
				break
			}
			g.Rows = append(g.Rows, []string{strconv.Itoa(q.Kernels), strconv.Itoa(q.Replays), units.Dur(q.MedianGPUNs), cxCut(q.First, nameW), cxCut(q.Last, nameW)})
		}
		out = append(out, tg{"Graph replays by kernel sequence", g})
	}
	if len(s.Steps) > 0 {
		g := &Grid{Headers: []string{"Step", "Compiled calls", "Compiled CPU", "Launch calls", "Graph replays", "Inductor kernels", "Library kernels", "Other kernels", "Kernels outside"},
			RightAlign: []bool{true, true, true, true, true, true, true, true, true}}
		for _, r := range s.Steps {
			g.Rows = append(g.Rows, []string{strconv.FormatInt(r.Step, 10), strconv.Itoa(r.CompiledCalls), units.Dur(r.CompiledCPUNs), strconv.Itoa(r.LaunchCalls),
				strconv.Itoa(r.GraphReplays), strconv.Itoa(r.Inductor), strconv.Itoa(r.Library), strconv.Itoa(r.Other), strconv.Itoa(r.Outside)})
		}
		out = append(out, tg{"Per profiler step (device work counted in the step of its launch call)", g})
	}
	return out
}

func cxDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// compileLines are the sentences of the summary.
func compileLines(s *compile.Summary) []string {
	var ls []string
	if !s.HasCompile {
		return []string{"no compiled region, no Inductor kernel and no graph replay: the trace shows no torch.compile activity"}
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

// CompileText writes the summary as text (format "text") or Markdown ("md").
func CompileText(w io.Writer, format, file string, s *compile.Summary, top int) error {
	var b strings.Builder
	md := format == "md"
	if md {
		b.WriteString("## torch.compile in " + file + "\n\n")
	} else {
		b.WriteString("# torch.compile in " + file + "\n")
	}
	for _, l := range compileLines(s) {
		if md {
			b.WriteString("- " + cxMdLine(l) + "\n")
		} else {
			b.WriteString(l + "\n")
		}
	}
	nameW := 100
	if md {
		nameW = 0
	}
	for _, t := range compileGrids(s, nameW, top) {
		if md {
			b.WriteString("\n### " + t.title + "\n\n")
		} else {
			b.WriteString("\n" + t.title + "\n")
		}
		if err := t.g.Write(&b, format); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, cxTrimLines(b.String()))
	return err
}

func cxMdLine(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

func cxTrimLines(s string) string {
	ls := strings.Split(s, "\n")
	for i := range ls {
		ls[i] = strings.TrimRight(ls[i], " ")
	}
	return strings.Join(ls, "\n")
}
