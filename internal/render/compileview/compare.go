package compileview

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/units"
)

func cxRatio(r *float64) string {
	if r == nil {
		return "-"
	}
	return strconv.FormatFloat(*r, 'f', 2, 64) + "x"
}

func cxMetric(m compile.Metric, v int64) string {
	if !m.Measured {
		return "n/a"
	}
	if m.IsTime {
		return units.Dur(v)
	}
	return strconv.FormatInt(v, 10)
}

func cxStepName(s compile.StepStats) string {
	if !s.HasStep {
		return "trace"
	}
	return strconv.FormatInt(s.Step, 10)
}

func cxSteps(ns []int64) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = "#" + strconv.FormatInt(n, 10)
	}
	return strings.Join(s, ", ")
}

var cxFamilyWords = map[string]string{"gemm": "the GEMM", "attention": "the attention kernel", "conv": "the convolution"}

// CompareSentence is the closing line, in plain words.
func CompareSentence(c *compile.Comparison) string {
	e, k := c.Median[0], c.Median[1]
	per := " per step"
	if !e.HasStep || !k.HasStep {
		per = ""
	}
	var parts []string
	if c.NoGPU[0] && c.NoGPU[1] {
		parts = append(parts, "no GPU work on either side")
	}
	than := func(a, b int) string {
		if a == b {
			return ", as in eager"
		}
		return " instead of " + strconv.Itoa(b)
	}
	if !c.NoGPU[0] || !c.NoGPU[1] {
		parts = append(parts, units.Plural(k.LaunchCalls, "launch", "launches")+per+than(k.LaunchCalls, e.LaunchCalls))
		parts = append(parts, units.Plural(k.Kernels, "kernel", "kernels")+than(k.Kernels, e.Kernels))
	}
	if s := c.Headline; s != nil {
		if s.EagerMedianNs == s.CompiledMedianNs {
			parts = append(parts, fmt.Sprintf("%s is the same kernel and takes the same %s", cxFamilyWords[s.Family], units.Dur(s.CompiledMedianNs)))
		} else {
			parts = append(parts, fmt.Sprintf("%s is the same kernel and takes %s (%s eager)", cxFamilyWords[s.Family], units.Dur(s.CompiledMedianNs), units.Dur(s.EagerMedianNs)))
		}
	}
	verb := "stayed at"
	switch {
	case k.CPUNs < e.CPUNs:
		verb = "fell from " + units.Dur(e.CPUNs) + " to"
	case k.CPUNs > e.CPUNs:
		verb = "rose from " + units.Dur(e.CPUNs) + " to"
	}
	parts = append(parts, fmt.Sprintf("the CPU time%s %s %s", per, verb, units.Dur(k.CPUNs)))
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// CompareNotes are what the comparison could not pair or check.
func CompareNotes(c *compile.Comparison, eager, compiled string) []string {
	var n []string
	if !c.CompiledCompiled {
		n = append(n, compiled+" shows no torch.compile activity (no compiled region, Inductor kernel or graph replay): this compares two traces, not eager against compiled")
	}
	if c.EagerCompiled {
		n = append(n, eager+" (the eager side) shows torch.compile activity")
	}
	if a, b := c.Devices[0], c.Devices[1]; len(a) > 0 && len(b) > 0 && strings.Join(a, ",") != strings.Join(b, ",") {
		n = append(n, "the traces ran on different GPUs ("+strings.Join(a, ", ")+" against "+strings.Join(b, ", ")+"): kernel times are not like for like")
	}
	if len(c.Paired) == 0 && c.Median[0].HasStep && c.Median[1].HasStep {
		n = append(n, "no ProfilerStep number is on both sides: each side's median step is compared")
	}
	switch {
	case c.NoGPU[0] && c.NoGPU[1]:
		n = append(n, "neither trace has GPU work: GPU busy, idle and kernel times are not measured")
	case c.NoGPU[0]:
		n = append(n, eager+" has no GPU work: GPU times are not compared")
	case c.NoGPU[1]:
		n = append(n, compiled+" has no GPU work: GPU times are not compared")
	}
	if !c.Median[0].HasStep || !c.Median[1].HasStep {
		n = append(n, "a side has no ProfilerStep#N: whole traces are compared, not steps")
	}
	return n
}

// compareGrids are the tables of a comparison.
func compareGrids(c *compile.Comparison, v View) []viewkit.Titled {
	w, top := v.Width, v.Top
	var out []viewkit.Titled
	g := &layout.Grid{Headers: []string{"median step", "eager", "compiled", "compiled/eager"}, RightAlign: []bool{false, true, true, true}, Width: w}
	for _, m := range c.Metrics {
		g.Rows = append(g.Rows, []string{m.Name, cxMetric(m, m.Eager), cxMetric(m, m.Compiled), cxRatio(m.Ratio)})
	}
	out = append(out, viewkit.Titled{Title: "Side by side (median over the compared steps)", Grid: g})
	times := &layout.Grid{Headers: []string{"step", "CPU e", "CPU c", "GPU busy e", "GPU busy c", "GPU idle e", "GPU idle c"},
		RightAlign: []bool{true, true, true, true, true, true, true}, Width: w}
	counts := &layout.Grid{Headers: []string{"step", "kernels e", "kernels c", "launches e", "launches c", "memcpys e", "memcpys c"},
		RightAlign: []bool{true, true, true, true, true, true, true}, Width: w}
	for i := 0; i < max(len(c.EagerSteps), len(c.CompiledSteps)); i++ {
		var e, k compile.StepStats
		step := ""
		if i < len(c.EagerSteps) {
			e = c.EagerSteps[i]
			step = cxStepName(e)
		}
		if i < len(c.CompiledSteps) {
			k = c.CompiledSteps[i]
			if step == "" || cxStepName(k) != step {
				step = strings.TrimPrefix(step+"/"+cxStepName(k), "/")
			}
		}
		times.Rows = append(times.Rows, []string{step, units.Dur(e.CPUNs), units.Dur(k.CPUNs), units.Dur(e.GPUBusyNs), units.Dur(k.GPUBusyNs), units.Dur(e.GPUIdleNs), units.Dur(k.GPUIdleNs)})
		counts.Rows = append(counts.Rows, []string{step, strconv.Itoa(e.Kernels), strconv.Itoa(k.Kernels), strconv.Itoa(e.LaunchCalls), strconv.Itoa(k.LaunchCalls),
			strconv.Itoa(e.Memcpys), strconv.Itoa(k.Memcpys)})
	}
	out = append(out, viewkit.Titled{Title: "Per step, times (e: eager, c: compiled)", Grid: times}, viewkit.Titled{Title: "Per step, counts", Grid: counts})
	if len(c.Disappeared) > 0 {
		g := &layout.Grid{Headers: []string{"kind", "name", "count", "time"}, RightAlign: []bool{false, false, true, true}, Names: []bool{false, true}, Width: w}
		nOps, nKer := 0, 0
		for _, d := range c.Disappeared {
			n := &nOps
			if d.Kind == "kernel" {
				n = &nKer
			}
			if *n++; top > 0 && *n > top {
				continue
			}
			name := d.Name
			if d.Kind == "kernel" {
				name = v.kname(name)
			}
			g.Rows = append(g.Rows, []string{d.Kind, name, strconv.Itoa(d.Count), units.Dur(d.TotalNs)})
		}
		foot := ""
		if top > 0 && (nOps > top || nKer > top) {
			foot = fmt.Sprintf("%d more ops and %d more kernels (--top 0 lists all; --format json has every one)", max(nOps-top, 0), max(nKer-top, 0))
		}
		out = append(out, viewkit.Titled{Title: "What disappeared (eager ops and kernels with no counterpart; count and time over the compared steps)", Grid: g, Foot: foot})
	}
	if len(c.Fused) > 0 {
		g := &layout.Grid{Headers: []string{"Inductor kernel", "count", "time", "fused ops", "eager ops (calls, GPU time of their kernels)", "no eager op"},
			RightAlign: []bool{false, true, true, false, false, false}, Names: []bool{true, false, false, true, true, true}, Width: w, MinName: 12}
		n := len(c.Fused)
		if top > 0 && n > top {
			n = top
		}
		for _, f := range c.Fused[:n] {
			var eo []string
			for _, o := range f.EagerOps {
				eo = append(eo, fmt.Sprintf("%s (%d, %s)", o.Name, o.Calls, units.Dur(o.KernelNs)))
			}
			g.Rows = append(g.Rows, []string{f.Kernel, strconv.Itoa(f.Count), units.Dur(f.TotalNs), cxDash(strings.Join(f.Ops, ", ")), cxDash(strings.Join(eo, "; ")), cxDash(strings.Join(f.Missing, ", "))})
		}
		out = append(out, viewkit.Titled{Title: "What fused (each Inductor kernel and the eager ops its name carries; a heuristic)", Grid: g, Foot: cxMore(len(c.Fused)-n, "fusions")})
	}
	stayed := func(list []compile.Stayed, title string) {
		if len(list) == 0 {
			return
		}
		g := &layout.Grid{Headers: []string{"family", "kernel", "calls e/c", "median e", "median c", "total e", "total c"},
			RightAlign: []bool{false, false, true, true, true, true, true}, Names: []bool{false, true}, Width: w, MinName: 11}
		n := len(list)
		if top > 0 && n > top {
			n = top
		}
		for _, s := range list[:n] {
			g.Rows = append(g.Rows, []string{cxDash(s.Family), v.kname(s.Name), strconv.Itoa(s.EagerCount) + "/" + strconv.Itoa(s.CompiledCount),
				units.Dur(s.EagerMedianNs), units.Dur(s.CompiledMedianNs), units.Dur(s.EagerTotalNs), units.Dur(s.CompiledTotalNs)})
		}
		out = append(out, viewkit.Titled{Title: title, Grid: g, Foot: cxMore(len(list)-n, "kernels")})
	}
	stayed(c.Stayed, "What stayed (compute kernels both traces run: torch.compile does not make these faster; e: eager, c: compiled)")
	stayed(c.Comm, "Communication (collective kernels both traces run: not compute, torch.compile does not change them)")
	return out
}

// CompareText writes the comparison as text or Markdown.
func CompareText(w io.Writer, format, eager, compiled string, c *compile.Comparison, v View) error {
	md := format == "md"
	if md {
		v.Width = 0
	} else {
		v.Short = true
	}
	var lines []string
	if len(c.Paired) > 0 {
		lines = append(lines, fmt.Sprintf("compared: %s on both sides (device work in the step of its launch call)", units.Plural(len(c.Paired), "step", "steps")))
	}
	if len(c.EagerOnly) > 0 {
		lines = append(lines, "steps only in the eager trace: "+cxSteps(c.EagerOnly))
	}
	if len(c.CompiledOnly) > 0 {
		lines = append(lines, "steps only in the compiled trace: "+cxSteps(c.CompiledOnly))
	}
	head := "eager " + cxPath(eager, v.Width) + " against compiled " + cxPath(compiled, v.Width)
	if md {
		head = "Eager " + layout.MdCode(eager) + " against compiled " + layout.MdCode(compiled)
	}
	var b strings.Builder
	if err := writeSections(&b, format, head, lines, compareGrids(c, v), v.Width); err != nil {
		return err
	}
	b.WriteString("\n")
	sentence := CompareSentence(c)
	if md {
		b.WriteString(layout.MdText(sentence) + "\n")
	} else {
		for _, l := range layout.Wrap(sentence, v.Width, "") {
			b.WriteString(l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
