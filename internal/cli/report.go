package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/atomicfile"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/reportview"
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

type reportOptions struct {
	path      string
	out       string
	format    string
	step      string
	maxEvents int
	maxCells  int
	topGaps   int
}

func newReportCmd(e *env) *cobra.Command {
	o := &reportOptions{}
	lim := reportview.DefaultLimits
	cmd := &cobra.Command{
		Use:   "report TRACE",
		Short: "One self-contained HTML page of the trace's story: verdict, step chart, timeline, memory, tables",
		Long: `report draws tracetab's findings into one HTML file that needs nothing else:
its CSS, script and pictures are inline and it loads nothing from the
network, so it opens from file:// offline and can be attached to an issue or
a CI artifact.

The page shows: the gaps verdict with its numbers and idle time by cause, the
trace's facts (tracetab info), notes and warnings; the step-time breakdown of
tracetab gaps (Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec, Other)
as one stacked bar per step, the cold step marked, with each step's numbers
(the same as gaps --format json) and a histogram of the durations of the
device ops it launched; a timeline of the CPU threads (top-level ops and
annotations; click a thread's name for its nesting) above the GPU streams,
on one time axis, with the step windows, the largest GPU gaps of gaps
(` + strconv.Itoa(report.TopGaps) + ` per device) shaded by cause and labelled with what the CPU was
doing, zoom and pan (wheel and drag, W/S/A/D and arrows), hover for name,
duration and input shapes, and a click on a kernel to highlight its launch
call and the ops around it (the frames tracetab chain --up walks); memory
curves per device where a memory model is given; the device time by
category (tracetab table --by category) as one stacked bar per step (the
first ` + strconv.Itoa(reportview.MaxCategoryBars) + `; one bar without steps) beside the table of the whole trace;
the module tree of tracetab table --by module (nn.Module frames: calls, host
and device total and self) as a tree that opens on a click, the first ` + strconv.Itoa(reportview.ModuleOpenDepth) + `
levels open, at most ` + strconv.Itoa(reportview.MaxModuleNodes) + ` modules (` + strconv.Itoa(reportview.MaxModuleChildren) + ` children of one) with a line
for the rest; the top ` + strconv.Itoa(reportview.DefaultOptions.TopOps) + ` ops (table) and
kernels (table --by kernel), sortable, each kernel with a histogram of its
durations in ` + strconv.Itoa(reportview.DefaultOptions.HistBins) + ` log-spaced bins from its min to its max.
Every figure is tracetab's own; the page's script only draws.

Size limits (a trace of any size gives a page of a few MB): at most
--max-events events (default ` + strconv.Itoa(lim.MaxEvents) + `) are written one by one: all of them when
they fit; else every event of one step (--step, or the step of median length
that is not cold; when it holds at most half of them), then the longest
events down to a power of two of ns, each kernel with its launch call and
enclosing ops. Everything else, and at each zoom whatever is narrower than a
pixel, is drawn as density bands: the share of each bin the events cover.
The bands have levels of detail, the coarsest ` + strconv.Itoa(lim.Width) + ` bins over the trace, each
next one bins half as wide, while the cells of all levels stay under
--max-cells (default ` + strconv.Itoa(lim.MaxCells) + `); when the whole trace does not fit, the finer
levels cover the detail step alone. At most ` + strconv.Itoa(lim.MaxCPULanes) + ` CPU threads (those with the
most events), ` + strconv.Itoa(lim.MaxCPURows) + ` nesting levels per thread and ` + strconv.Itoa(lim.MaxGPURows) + ` rows of overlapping device
ops per stream are drawn; the page says what it left out. A 1 GB trace gives
a page of about 5 MB.

--format svg writes the step chart as an SVG file of its own (for Markdown);
with --step N, the gap timeline of step N alone: its window (to the end of the
GPU work it launched), the top-level events of each CPU thread and the GPU
streams, events narrower than 1/` + strconv.Itoa(reportview.StepViewWidth) + ` of it as density bands, and the GPU gaps
of gaps inside it shaded by cause.

-o names the file: by default report.html for html and stdout for svg;
-o - writes to stdout.`,
		Example: `  tracetab report trace.json.gz                     # writes report.html
  tracetab report trace.json.gz -o run42.html
  tracetab report trace.json.gz --step 12           # hold step 12 in full detail
  tracetab report trace.json.gz --format svg > steps.svg
  tracetab report trace.json.gz --format svg --step 12 -o step12.svg`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if err := checkFormat(o.format, "html", "svg"); err != nil {
				return err
			}
			if o.maxEvents < 1 || o.maxCells < 1 {
				return usageErrorf("--max-events and --max-cells must be at least 1")
			}
			return runReport(e, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "the file to write (default: report.html for html, stdout for svg; - for stdout)")
	f.StringVar(&o.format, "format", "html", "html (the page) or svg (the step chart; with --step N, that step's gap timeline)")
	f.StringVar(&o.step, "step", "", "a ProfilerStep#N number: the step held in full detail (html), the step drawn (svg)")
	f.IntVar(&o.maxEvents, "max-events", lim.MaxEvents, "events written one by one at most; the rest are density bands")
	f.IntVar(&o.maxCells, "max-cells", lim.MaxCells, "density cells at most, over all levels of detail")
	e.completeFlag(cmd, "format", fixedCompletion("html", "svg"))
	return cmd
}

func runReport(e *env, o *reportOptions) error {
	ropts := reportview.DefaultOptions
	ropts.Limits.MaxEvents, ropts.Limits.MaxCells = o.maxEvents, o.maxCells
	if o.step != "" {
		n, err := strconv.ParseInt(o.step, 10, 64)
		if err != nil {
			return usageErrorf("--step %q: give a ProfilerStep#N number, e.g. 12", o.step)
		}
		ropts.DetailStep, ropts.HasDetail = n, true
	}
	// of the shapes, stacks and launch parameters the page shows an op's
	// input shapes alone (its timeline)
	t, err := e.loadOpts(o.path, parse.Options{DimsOnly: true})
	if err != nil {
		return err
	}
	if ropts.HasDetail {
		var nums []int64
		for _, s := range t.StepWindows() {
			nums = append(nums, s.N)
		}
		switch {
		case len(nums) == 0:
			return usageErrorf("--step: %s has no ProfilerStep annotations (profile with a schedule and call prof.step())", o.path)
		case !slices.Contains(nums, ropts.DetailStep):
			return usageErrorf("--step: no step %d; steps are %s", ropts.DetailStep, units.Ranges(nums))
		}
	}
	var tl *reportview.Timeline
	in := report.NewInputsThen(t, o.path, func(in *report.Inputs) { tl = reportview.TimelineOf(t, in, ropts) })
	// The rest of the page's layout (the timeline is laid out beside the
	// models, above: the data and the markup) reads the events, their
	// shapes and the links' order, parents and launches; the memory
	// records, the links' id indexes and launch counts and the flows are
	// let go, and the models' lists collected, before it allocates. It runs
	// at Go's default target (100, root's 20 again when report returns):
	// on the 20 MB export-shape trace 1199 M instructions before, 1150 M
	// after (cachegrind); peak RSS on the three 200 MB shapes 86, 94, 82
	// MiB before, 92, 96, 86 after (the peak is the models' phase, at 20;
	// at 100 from the parse on it was 110-120 MiB).
	e.letGo(func() {
		t.Mem = nil
		l := t.Links()
		l.ReleaseIDIndexes()
		l.Launched = nil
		t.Flows = nil
	})
	collect()
	defer setGCPercent(setGCPercent(100))
	for _, n := range in.Notes {
		note(e.stderr, n)
	}
	page := reportview.BuildWith(t, in, ropts, tl)
	if tl := page.Timeline; ropts.HasDetail && tl.Detail == nil && tl.Written < tl.Events {
		note(e.stderr, fmt.Sprintf("--step %d: the step holds more than half of --max-events (%d) events: it is not held in full detail; raise --max-events", ropts.DetailStep, ropts.Limits.MaxEvents))
	}
	if o.format == "svg" {
		return writeReportSVG(e, o, t, in, page, ropts)
	}
	out := o.out
	if out == "" {
		out = "report.html"
	}
	return writeReportFile(e, out, func(w io.Writer) error { return page.WriteHTML(w, t) })
}

func writeReportSVG(e *env, o *reportOptions, t *trace.Trace, in *report.Inputs, page *reportview.Page, ropts reportview.Options) error {
	out := o.out
	if out == "" {
		out = "-"
	}
	if page.Chart == nil {
		return usageErrorf("--format svg draws the step chart, and %s has no ProfilerStep#N annotations", o.path)
	}
	if !ropts.HasDetail {
		return writeReportFile(e, out, func(w io.Writer) error { return reportview.WriteStepChartSVG(w, page.Chart) })
	}
	v := reportview.NewStepView(t, in.Gaps, page.Chart, ropts.DetailStep)
	if v == nil {
		return usageErrorf("--step %d: the step breakdown left that step out (it launched no or too few device ops); it has steps %s",
			ropts.DetailStep, stepNumbers(page.Chart))
	}
	return writeReportFile(e, out, func(w io.Writer) error { return reportview.WriteStepViewSVG(w, v) })
}

func stepNumbers(c *reportview.StepChart) string {
	if len(c.Bars) == 0 {
		return "none"
	}
	return fmt.Sprintf("%d to %d", c.Bars[0].Step, c.Bars[len(c.Bars)-1].Step)
}

// writeReportFile writes to stdout for "-", else to the file (a write
// error is exit 3), and names the file written on stderr.
func writeReportFile(e *env, path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(e.stdout)
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		// a device or a pipe (-o /dev/null, a FIFO): written in place,
		// never replaced by a rename
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return &writeError{err}
		}
		cw := &countWriter{w: f}
		err = write(cw)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return &writeError{err}
		}
		note(e.stderr, fmt.Sprintf("wrote %s (%s)", path, units.Bytes(cw.n)))
		return nil
	}
	// a file is written under a temporary name and renamed into place when
	// whole: the page is streamed as it is made, so an error midway (a
	// full disk, a template's) leaves no half page at path
	f, err := atomicfile.Create(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			pe.Path = path // the file asked for, not its temporary name
		}
		return &writeError{err}
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := &countWriter{w: bw}
	err = write(cw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		return &writeError{err}
	}
	note(e.stderr, fmt.Sprintf("wrote %s (%s)", path, units.Bytes(cw.n)))
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
