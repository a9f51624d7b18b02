package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/compile"
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

var cxFamilyWords = map[string]string{"gemm": "the GEMM", "attention": "the attention kernel", "conv": "the convolution", "collective": "the collective"}

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

// CompareText writes the comparison as text or Markdown.
func CompareText(w io.Writer, format, eager, compiled string, c *compile.Comparison, top int) error {
	md := format == "md"
	var b strings.Builder
	head := func(s string) {
		if md {
			b.WriteString("\n### " + s + "\n\n")
		} else {
			b.WriteString("\n" + s + "\n")
		}
	}
	if md {
		b.WriteString("## Eager " + eager + " against compiled " + compiled + "\n\n")
	} else {
		b.WriteString("# eager " + eager + " against compiled " + compiled + "\n")
	}
	line := func(s string) {
		if md {
			b.WriteString("- " + cxMdLine(s) + "\n")
		} else {
			b.WriteString(s + "\n")
		}
	}
	if len(c.Paired) > 0 {
		line(fmt.Sprintf("compared: %s on both sides (device work in the step of its launch call)", units.Plural(len(c.Paired), "step", "steps")))
	}
	if len(c.EagerOnly) > 0 {
		line("steps only in the eager trace: " + cxSteps(c.EagerOnly))
	}
	if len(c.CompiledOnly) > 0 {
		line("steps only in the compiled trace: " + cxSteps(c.CompiledOnly))
	}
	nameW := 100
	if md {
		nameW = 0
	}
	var grids []struct {
		title string
		g     *Grid
	}
	add := func(title string, g *Grid) {
		grids = append(grids, struct {
			title string
			g     *Grid
		}{title, g})
	}
	g := &Grid{Headers: []string{"Median step", "Eager", "Compiled", "Compiled/eager"}, RightAlign: []bool{false, true, true, true}}
	for _, m := range c.Metrics {
		g.Rows = append(g.Rows, []string{m.Name, cxMetric(m, m.Eager), cxMetric(m, m.Compiled), cxRatio(m.Ratio)})
	}
	add("Side by side (median over the compared steps)", g)
	g = &Grid{Headers: []string{"Step", "CPU eager", "CPU compiled", "GPU busy eager", "GPU busy compiled", "GPU idle eager", "GPU idle compiled",
		"Kernels eager", "Kernels compiled", "Launches eager", "Launches compiled", "Memcpys eager", "Memcpys compiled"}}
	for i := range g.Headers {
		g.RightAlign = append(g.RightAlign, i >= 0)
	}
	for i := 0; i < max(len(c.EagerSteps), len(c.CompiledSteps)); i++ {
		var e, k compile.StepStats
		row := make([]string, 13)
		if i < len(c.EagerSteps) {
			e = c.EagerSteps[i]
			row[0] = cxStepName(e)
		}
		if i < len(c.CompiledSteps) {
			k = c.CompiledSteps[i]
			if row[0] == "" || cxStepName(k) != row[0] {
				row[0] = strings.TrimPrefix(row[0]+"/"+cxStepName(k), "/")
			}
		}
		copy(row[1:], []string{units.Dur(e.CPUNs), units.Dur(k.CPUNs), units.Dur(e.GPUBusyNs), units.Dur(k.GPUBusyNs), units.Dur(e.GPUIdleNs), units.Dur(k.GPUIdleNs),
			strconv.Itoa(e.Kernels), strconv.Itoa(k.Kernels), strconv.Itoa(e.LaunchCalls), strconv.Itoa(k.LaunchCalls), strconv.Itoa(e.Memcpys), strconv.Itoa(k.Memcpys)})
		g.Rows = append(g.Rows, row)
	}
	add("Per step", g)
	if len(c.Disappeared) > 0 {
		g = &Grid{Headers: []string{"Kind", "Name", "Count", "Time"}, RightAlign: []bool{false, false, true, true}}
		nOps, nKer := 0, 0
		for _, d := range c.Disappeared {
			n := &nOps
			if d.Kind == "kernel" {
				n = &nKer
			}
			if *n++; top > 0 && *n > top {
				continue
			}
			g.Rows = append(g.Rows, []string{d.Kind, cxCut(d.Name, nameW), strconv.Itoa(d.Count), units.Dur(d.TotalNs)})
		}
		if top > 0 && (nOps > top || nKer > top) {
			g.Rows = append(g.Rows, []string{"...", fmt.Sprintf("%d more ops and %d more kernels (--top 0 lists all)", max(nOps-top, 0), max(nKer-top, 0)), "", ""})
		}
		add("What disappeared (eager ops and kernels with no counterpart; count and time over the compared steps)", g)
	}
	if len(c.Fused) > 0 {
		g = &Grid{Headers: []string{"Inductor kernel", "Count", "Time", "Fused ops", "Eager ops (calls, GPU time of their kernels)", "No eager op"}, RightAlign: []bool{false, true, true, false, false, false}}
		for i, f := range c.Fused {
			if top > 0 && i == top {
				g.Rows = append(g.Rows, []string{fmt.Sprintf("... %d more (--top 0 lists all)", len(c.Fused)-top), "", "", "", "", ""})
				break
			}
			var eo []string
			for _, o := range f.EagerOps {
				eo = append(eo, fmt.Sprintf("%s (%d, %s)", o.Name, o.Calls, units.Dur(o.KernelNs)))
			}
			g.Rows = append(g.Rows, []string{cxCut(f.Kernel, nameW), strconv.Itoa(f.Count), units.Dur(f.TotalNs), cxDash(strings.Join(f.Ops, ", ")), cxDash(strings.Join(eo, "; ")), cxDash(strings.Join(f.Missing, ", "))})
		}
		add("What fused (each Inductor kernel and the eager ops its name carries; a heuristic)", g)
	}
	if len(c.Stayed) > 0 {
		g = &Grid{Headers: []string{"Family", "Kernel", "Count eager", "Count compiled", "Median eager", "Median compiled", "Total eager", "Total compiled"},
			RightAlign: []bool{false, false, true, true, true, true, true, true}}
		for i, s := range c.Stayed {
			if top > 0 && i == top {
				g.Rows = append(g.Rows, []string{"...", fmt.Sprintf("%d more (--top 0 lists all)", len(c.Stayed)-top), "", "", "", "", "", ""})
				break
			}
			g.Rows = append(g.Rows, []string{cxDash(s.Family), cxCut(s.Name, nameW), strconv.Itoa(s.EagerCount), strconv.Itoa(s.CompiledCount),
				units.Dur(s.EagerMedianNs), units.Dur(s.CompiledMedianNs), units.Dur(s.EagerTotalNs), units.Dur(s.CompiledTotalNs)})
		}
		add("What stayed (kernels both traces run: torch.compile does not make these faster)", g)
	}
	for _, x := range grids {
		head(x.title)
		if err := x.g.Write(&b, format); err != nil {
			return err
		}
	}
	b.WriteString("\n" + CompareSentence(c) + "\n")
	_, err := io.WriteString(w, cxTrimLines(b.String()))
	return err
}

func cxStepJSON(s compile.StepStats) map[string]any {
	var step any
	if s.HasStep {
		step = s.Step
	}
	var med any
	if s.Kernels > 0 {
		med = s.MedianKernelNs
	}
	return map[string]any{"step": step, "cpu_ns": s.CPUNs, "gpu_busy_ns": s.GPUBusyNs, "gpu_idle_ns": s.GPUIdleNs, "kernels": s.Kernels,
		"launch_calls": s.LaunchCalls, "runtime_calls": s.RuntimeCalls, "memcpys": s.Memcpys, "median_kernel_ns": med}
}

// CompareJSON writes the comparison as JSON.
func CompareJSON(w io.Writer, eager, compiled string, c *compile.Comparison) error {
	stepsOf := func(ss []compile.StepStats) []map[string]any {
		out := []map[string]any{}
		for _, s := range ss {
			out = append(out, cxStepJSON(s))
		}
		return out
	}
	ints := func(v []int64) []int64 {
		if v == nil {
			return []int64{}
		}
		return v
	}
	metrics := []map[string]any{}
	for _, m := range c.Metrics {
		key := strings.ReplaceAll(m.Name, " ", "_")
		if m.IsTime {
			key += "_ns"
		}
		var ev, cv any = m.Eager, m.Compiled
		if !m.Measured {
			ev, cv = nil, nil
		}
		metrics = append(metrics, map[string]any{"metric": key, "eager": ev, "compiled": cv, "ratio": m.Ratio})
	}
	gone := []map[string]any{}
	for _, d := range c.Disappeared {
		gone = append(gone, map[string]any{"kind": d.Kind, "name": d.Name, "count": d.Count, "total_ns": d.TotalNs})
	}
	fused := []map[string]any{}
	for _, f := range c.Fused {
		eo := []map[string]any{}
		for _, o := range f.EagerOps {
			eo = append(eo, map[string]any{"name": o.Name, "calls": o.Calls, "kernel_ns": o.KernelNs, "kernels": cxStrs(o.Kernels)})
		}
		fused = append(fused, map[string]any{"kernel": f.Kernel, "ops": cxStrs(f.Ops), "count": f.Count, "total_ns": f.TotalNs, "eager_ops": eo, "no_eager_op": cxStrs(f.Missing)})
	}
	stayed := []map[string]any{}
	for _, s := range c.Stayed {
		stayed = append(stayed, map[string]any{"name": s.Name, "family": cxStr(s.Family), "eager_count": s.EagerCount, "compiled_count": s.CompiledCount,
			"eager_total_ns": s.EagerTotalNs, "compiled_total_ns": s.CompiledTotalNs, "eager_median_ns": s.EagerMedianNs, "compiled_median_ns": s.CompiledMedianNs})
	}
	return JSON(w, map[string]any{
		"schema": CompileSchema, "mode": "compare", "eager": eager, "compiled": compiled,
		"paired_steps": ints(c.Paired), "eager_only_steps": ints(c.EagerOnly), "compiled_only_steps": ints(c.CompiledOnly),
		"eager_steps": stepsOf(c.EagerSteps), "compiled_steps": stepsOf(c.CompiledSteps),
		"median_step": map[string]any{"eager": cxStepJSON(c.Median[0]), "compiled": cxStepJSON(c.Median[1])},
		"metrics":     metrics, "disappeared": gone, "fused": fused, "stayed": stayed,
		"eager_has_gpu_work": !c.NoGPU[0], "compiled_has_gpu_work": !c.NoGPU[1],
		"eager_shows_compile": c.EagerCompiled, "compiled_shows_compile": c.CompiledCompiled,
		"sentence": CompareSentence(c),
	})
}
