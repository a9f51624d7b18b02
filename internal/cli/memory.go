package cli

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/render/memoryview"
)

type memoryOptions struct {
	format    string
	section   string
	top       int
	width     int
	timeline  bool
	leakShare string
	share     float64
}

func newMemoryCmd(e *env) *cobra.Command {
	o := &memoryOptions{}
	cmd := &cobra.Command{
		Use:   "memory TRACE",
		Short: "Memory per device: the peak and who allocated it, growth per step, leaks, lifetimes",
		Long: `memory reads the [memory] instant events a trace recorded with
profile_memory=True holds (one per allocation and free: Addr, Bytes, Total
Allocated, Total Reserved, Device Type, Device Id) and answers, per device
(the CPU, each GPU): what the peak is, what was alive at the peak and who
allocated it, and whether memory grows from step to step.

Definitions:
  allocated     the record's Total Allocated after it, as torch wrote it
                (torch before 1.10 writes none: figures are then relative to
                the level before the device's first record); reserved, its
                Total Reserved.
  peak          the first record with the largest allocated; its op is the
                innermost cpu_op on the record's own thread whose
                [start, end) holds it (the TensorBoard plugin's rule), with
                the innermost annotation (not ProfilerStep#N) and Python
                frame.
  matching      a free matches the latest allocation of its Addr on the
                same device not yet freed; a free with none frees memory
                allocated before the trace began, counted apart.
  alive         allocated at or before the peak record and not freed by it;
                grouped by the allocating op (innermost cpu_op on the
                allocating thread, "(no op)" outside every op).
  step levels   the allocated after the last record before a step's start
                and before its end; growth is end minus start.
  leak rule     a device with two or more ProfilerStep#N is flagged when
                every step grows by more than --leak-share (0.01%) of the
                allocated at its start; the ops whose allocations made in a
                step were not freed by its end are named.
  lifetimes     per allocating op: allocations, bytes, and the median
                (mean of the middle two) and longest lifetime of those freed
                inside the trace.

Text and Markdown print every section (--section picks one); CSV prints
one table: devices (default), alive, steps, lifetimes or leak. --timeline
draws each device's allocated and reserved over the trace as one line of
blocks (Unicode on a terminal, ASCII otherwise) with the step boundaries;
with --format json it adds the resampled curve to each device.

A trace without [memory] events says so (profile with profile_memory=True)
and exits 0.`,
		Example: `  tracetab memory trace.json.gz
  tracetab memory trace.json.gz --timeline
  tracetab memory trace.json.gz --section alive --top 20
  tracetab memory trace.json.gz --format csv --section lifetimes > lifetimes.csv
  tracetab memory trace.json.gz --format json | jq '.devices[] | {device, peak_allocated_bytes, peak_op}'`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			return runMemory(e, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text, md, csv (one table: see --section) or json")
	f.StringVar(&o.section, "section", "", "one section: "+strings.Join(memoryview.Sections, ", ")+" (csv: devices when not given)")
	f.IntVar(&o.top, "top", 10, "text and md: rows per device in the alive, leak and lifetimes tables (0: all)")
	addWidthFlag(cmd, &o.width)
	f.BoolVar(&o.timeline, "timeline", false, "draw each device's allocated and reserved over the trace, with the step boundaries")
	f.StringVar(&o.leakShare, "leak-share", "0.01", "leak rule: every step grows by more than this share of its start (percent, e.g. 0.01 or 0.01%)")
	e.completeFlag(cmd, "format", fixedCompletion("text", "md", "csv", "json"))
	e.completeFlag(cmd, "section", fixedCompletion(memoryview.Sections...))
	return cmd
}

func (o *memoryOptions) validate() error {
	if err := checkFormat(o.format, "text", "md", "csv", "json"); err != nil {
		return err
	}
	if o.section != "" && !slices.Contains(memoryview.Sections, o.section) {
		return usageErrorf("unknown --section %q: use %s", o.section, strings.Join(memoryview.Sections, ", "))
	}
	if o.timeline && (o.format == "md" || o.format == "csv") {
		return usageErrorf("--timeline draws text (or adds the curve to --format json), not %s", o.format)
	}
	if o.timeline && o.section != "" {
		return usageErrorf("--timeline draws the curves instead of the sections: leave out --section")
	}
	if o.top < 0 {
		return usageErrorf("--top %d: want 0 (all) or a positive number of rows", o.top)
	}
	if err := checkWidth(o.width); err != nil {
		return err
	}
	num := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(o.leakShare), "%"))
	p, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(p) || p < 0 || p > 100 {
		return usageErrorf("--leak-share %q: give a percentage from 0 to 100, e.g. 0.01 or 0.01%%", o.leakShare)
	}
	o.share = p / 100
	return nil
}

func runMemory(e *env, o *memoryOptions, path string) error {
	t, err := e.loadLean(path)
	if err != nil {
		return err
	}
	share := o.share
	if share == 0 {
		share = -1 // the model's "any growth"
	}
	m := memory.Build(t, memory.Options{LeakShare: share})
	for _, n := range m.Notes {
		note(e.stderr, n)
	}
	width := e.textWidth(o.width)
	curveW := width // the timeline needs a number of columns
	if curveW == 0 {
		curveW = 100
	}
	if o.format == "json" {
		cols := 0
		if o.timeline {
			cols = max(curveW-10, 10)
		}
		return memoryview.JSON(e.stdout, m, path, cols)
	}
	if o.timeline {
		return memoryview.Timeline(e.stdout, m, curveW, e.isTerminal())
	}
	return memoryview.Write(e.stdout, m, memoryview.Options{File: path, Format: o.format, Section: o.section, Top: o.top, Width: width})
}
