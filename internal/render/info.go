package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/units"
)

// InfoText writes the summary of a trace for a person.
func InfoText(w io.Writer, in *info.Info) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("file        %s (%s of JSON, %s)\n", in.File, units.Bytes(in.Bytes), in.Container)
	p("format      %s: written by %s; %s\n", in.Era, in.Torch, in.EraNotes)
	p("torch       %s assumed: %s\n", in.TorchAssumed, in.TorchWhy)
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
	if in.Rank != nil || in.WorldSize != nil || in.Backend != "" {
		p("rank        %s of %s", ptr(in.Rank), ptr(in.WorldSize))
		if in.Backend != "" {
			p(" (%s)", in.Backend)
		}
		p("\n")
	}
	p("span        %s (first event start to last event end)\n", units.Micros(in.SpanUs))
	p("events      %d complete, %d flows, %d memory, %d other instants, %d counters\n",
		in.Events, in.Flows, in.Memory, in.Instants, in.Counters)
	cats := make([]string, 0, len(in.Categories))
	for _, c := range in.Categories {
		name := c.Cat
		if name == "" {
			name = "(no cat)"
		}
		cats = append(cats, fmt.Sprintf("%s %d", name, c.Count))
	}
	p("categories  %s\n", strings.Join(cats, ", "))
	if len(in.Steps) > 0 {
		p("steps       %d: ProfilerStep#%d to #%d\n", len(in.Steps), in.Steps[0].N, in.Steps[len(in.Steps)-1].N)
	} else {
		p("steps       none (no ProfilerStep#N annotation)\n")
	}
	p("threads     %d CPU lanes\n", len(in.Threads))
	for i, th := range in.Threads {
		if i == 8 {
			p("            ... %d more\n", len(in.Threads)-i)
			break
		}
		name := ""
		if th.Name != "" {
			name = " " + th.Name
		}
		p("            pid %s tid %s%s: %d events\n", th.Pid, th.Tid, name, th.Events)
	}
	if len(in.Devices) == 0 {
		p("devices     none: no GPU lane in this trace\n")
	}
	for _, d := range in.Devices {
		name := ""
		if d.Name != "" {
			name = " " + d.Name
		}
		p("device %d%s\n", d.ID, name)
		sort.Slice(d.Streams, func(i, j int) bool { return d.Streams[i].ID < d.Streams[j].ID })
		for _, s := range d.Streams {
			p("            stream %d: %d kernels, %d memcpy, %d memset, %d other; %s of device work\n",
				s.ID, s.Kernels, s.Memcpy, s.Memset, s.Other, units.Micros(s.BusyUs))
		}
	}
	if in.DeviceOps > 0 || in.LaunchCalls > 0 {
		p("launches    %d launch calls (%d inside an op); %d device ops, %d linked to their launch, %d unlinked",
			in.LaunchCalls, in.LaunchesInOp, in.DeviceOps, in.Linked, in.Unlinked)
		if in.GraphLaunch > 0 {
			p("; %d graph launches", in.GraphLaunch)
		}
		p("\n")
	}
	if in.Truncated {
		p("truncated   yes: only the events before the cut were read\n")
	}
	for _, w := range in.Warnings {
		p("warning     %s\n", w)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ptr(v *int64) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprint(*v)
}
