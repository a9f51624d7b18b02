// Package infoview writes the summary of a trace that tracetab info
// prints (the report shows it too). It computes nothing.
package infoview

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/units"
)

// Text writes the summary of a trace for a person, each line that is
// wider than width (0: no limit) wrapped under its value. Offsets are from
// the origin the "origin" line names, the one every command uses.
func Text(w io.Writer, in *info.Info, width int) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("file        %s (%s of JSON, %s)\n", in.File, units.Bytes(in.SizeBytes), in.Container)
	infoFormat(p, in)
	p("torch       %s assumed: %s\n", in.TorchAssumed, in.TorchWhy)
	infoOptions(p, in)
	infoRank(p, in)
	infoSpan(p, in)
	p("events      %s complete, %s, %s, %s, %s\n", strconv.Itoa(in.Events), infoCount(in.Flows, "flow"),
		infoCount(in.Memory, "memory event"), infoCount(in.Instants, "other instant"), infoCount(in.Counters, "counter"))
	cats := make([]string, 0, len(in.Categories))
	for _, c := range in.Categories {
		name := c.Cat
		if name == "" {
			name = "(no cat)"
		}
		cats = append(cats, fmt.Sprintf("%s %d", name, c.Events))
	}
	p("categories  %s\n", strings.Join(cats, ", "))
	infoSteps(p, in)
	infoThreads(p, in)
	infoDevices(p, in)
	infoLaunches(p, in)
	if c := in.Compile; c.Any() {
		p("compile     %s, %s, %s, %s; %s; %s; %s (tracetab compile)\n",
			units.Plural(c.Frames, "Dynamo frame", "Dynamo frames"), units.Plural(c.Regions, "region", "regions"), units.Plural(c.Recompiles, "recompile", "recompiles"),
			units.Plural(c.RegionCalls, "region call", "region calls"), units.Plural(c.AOTCalls, "AOT call", "AOT calls"), units.Plural(c.GraphCalls, "graph call", "graph calls"),
			units.Plural(c.InductorKernels, "Inductor kernel", "Inductor kernels"))
	}
	if in.MangledNames > 0 {
		p("names       %s (C++, shown demangled in text and Markdown; --demangle=false shows them as written)\n",
			infoCount(in.MangledNames, "mangled name"))
	}
	if in.Truncated {
		p("truncated   yes: only the events before the cut were read\n")
	}
	for _, w := range in.Warnings {
		p("warning     %s\n", w)
	}
	out := b.String()
	if width > 0 {
		var wb strings.Builder
		for _, l := range strings.SplitAfter(out, "\n") {
			if layout.Width(strings.TrimSuffix(l, "\n")) <= width {
				wb.WriteString(l)
				continue
			}
			l = strings.TrimSuffix(l, "\n")
			key, val := l, ""
			if r := []rune(l); len(r) > len(infoIndent) {
				key, val = string(r[:len(infoIndent)]), string(r[len(infoIndent):])
			}
			lines := layout.Wrap(val, width-len(infoIndent), "")
			wb.WriteString(key + strings.Join(lines, "\n"+infoIndent) + "\n")
		}
		out = wb.String()
	}
	_, err := io.WriteString(w, out)
	return err
}

// infoIndent lines a wrapped value up under the values.
const infoIndent = "            "

type infoPrintf func(format string, a ...any)

// infoCount is "1 flow" or "3 flows".
func infoCount(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

func infoFormat(p infoPrintf, in *info.Info) {
	if in.EraMeaning != "" {
		p("format      %s\n", in.EraMeaning)
		return
	}
	p("format      %s: written by %s; %s\n", in.Era, in.Torch, in.EraNotes)
}

func infoOptions(p infoPrintf, in *info.Info) {
	if v, ok := in.Meta["cupti_version"]; ok {
		p("versions    cupti %s", v)
		for _, k := range []string{"cuda_runtime_version", "cuda_driver_version", "hip_runtime_version", "roctracer_version"} {
			if v, ok := in.Meta[k]; ok {
				p(", %s %s", strings.TrimSuffix(k, "_version"), v)
			}
		}
		p("\n")
	}
	var flags []string
	for _, k := range []string{"record_shapes", "with_stack", "profile_memory", "with_modules", "with_flops"} {
		if in.Meta[k] == "1" {
			flags = append(flags, k)
		}
	}
	if len(flags) > 0 {
		p("options     %s\n", strings.Join(flags, ", "))
	}
}

func infoRank(p infoPrintf, in *info.Info) {
	if in.Rank == nil && in.WorldSize == nil && in.Backend == nil {
		return
	}
	switch {
	case in.Rank != nil && in.WorldSize != nil:
		p("rank        %d of %d", *in.Rank, *in.WorldSize)
	case in.Rank != nil:
		p("rank        %d (the world size is not in the trace)", *in.Rank)
	case in.WorldSize != nil:
		p("rank        not in the trace; world size %d", *in.WorldSize)
	default:
		p("rank        not in the trace")
	}
	if in.Backend != nil {
		p(" (%s)", *in.Backend)
	}
	p("\n")
}

// infoOffset is an offset from the origin for a person: "1.234ms", or
// "12.000us before the origin" when negative.
func infoOffset(ns int64) string {
	if ns < 0 {
		return units.Dur(-ns) + " before the origin"
	}
	return units.Dur(ns)
}

func infoSpan(p infoPrintf, in *info.Info) {
	if in.Origin == "trace_span" {
		p("origin      the start of the profiler's Trace event; every offset tracetab prints is from it\n")
	} else {
		p("origin      the earliest event start (the trace has no Trace event); every offset tracetab prints is from it\n")
	}
	p("span        %s: %s to %s (every event, the Trace event and GPU lanes included)\n",
		units.Dur(in.SpanNs), infoOffset(in.SpanStartNs), infoOffset(in.SpanEndNs))
}

func infoSteps(p infoPrintf, in *info.Info) {
	if len(in.Steps) == 0 {
		p("steps       none (no ProfilerStep#N annotation)\n")
		return
	}
	first, last := in.Steps[0], in.Steps[len(in.Steps)-1]
	lo, hi := first.StartNs, last.StartNs+last.DurNs
	for _, s := range in.Steps {
		lo, hi = min(lo, s.StartNs), max(hi, s.StartNs+s.DurNs)
	}
	if len(in.Steps) == 1 {
		p("steps       1: ProfilerStep#%d, %s to %s\n", first.N, infoOffset(lo), infoOffset(hi))
		return
	}
	p("steps       %d: ProfilerStep#%d to #%d, %s to %s\n", len(in.Steps), first.N, last.N, infoOffset(lo), infoOffset(hi))
}

func infoThreads(p infoPrintf, in *info.Info) {
	p("threads     %s\n", infoCount(len(in.Threads), "CPU lane"))
	for i, th := range in.Threads {
		if i == 8 {
			p("            ... %d more\n", len(in.Threads)-i)
			break
		}
		name := ""
		if th.Name != nil {
			name = " " + *th.Name
		}
		p("            pid %s tid %s%s: %s\n", th.PidString(), th.TidString(), name, infoCount(th.Events, "event"))
	}
}

func infoDevices(p infoPrintf, in *info.Info) {
	if len(in.Devices) == 0 {
		if in.LaunchCalls > 0 {
			p("devices     none: %s but no GPU activity in the trace (was ProfilerActivity.CUDA on? did CUPTI fail to record?)\n",
				infoCount(in.LaunchCalls, "launch call"))
		} else {
			p("devices     none: no GPU lane and no launch call (a CPU-only trace)\n")
		}
	}
	for _, d := range in.Devices {
		name := ""
		if d.Name != nil {
			name = " " + *d.Name
		} else if d.Vendor != nil {
			name = " (" + *d.Vendor + " by its names: " + strings.Join(d.VendorFrom, ", ") + ")"
		}
		p("device %d%s", d.ID, name)
		if d.WorkStartNs != nil {
			p(": device work from %s to %s", infoOffset(*d.WorkStartNs), infoOffset(*d.WorkEndNs))
		} else {
			p(": no kernel, memcpy or memset")
		}
		p("\n")
		for _, s := range d.Streams {
			p("            stream %d: %s, %s, %s, %d other; %s of device work (sum of durations)\n",
				s.ID, infoCount(s.Kernels, "kernel"), infoCount(s.Memcpys, "memcpy"), infoCount(s.Memsets, "memset"), s.Other, units.Dur(s.WorkNs))
		}
	}
}

func infoLaunches(p infoPrintf, in *info.Info) {
	if in.DeviceOps == 0 && in.RuntimeCalls == 0 {
		return
	}
	p("launches    %s (%d inside an op, %d with device ops in the trace)", infoCount(in.LaunchCalls, "launch call"), in.LaunchesInOp, in.LaunchCallsWork)
	if other := in.RuntimeCalls - in.LaunchCalls; other > 0 {
		p("; %s (queries, syncs, events)", infoCount(other, "other runtime call"))
	}
	if in.GraphLaunch > 0 {
		p("; %s", units.Plural(in.GraphLaunch, "graph launch", "graph launches"))
	}
	p("\n")
	if in.DeviceOps > 0 {
		p("device ops  %d: %d linked to their launch call, %d unlinked\n", in.DeviceOps, in.Linked, in.Unlinked)
	}
}
