package cli

import (
	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// checkHist refuses --hist where it draws nothing: it is a picture of the
// kernel view in text or Markdown.
func (o *tableOptions) checkHist() error {
	if !o.hist {
		return nil
	}
	if o.by != "kernel" {
		return usageErrorf("--hist draws the kernel view's durations: use it with --by kernel")
	}
	if o.format != "text" && o.format != "md" {
		return usageErrorf("--hist is a picture for text and md; --format %s has the numbers (min_ns, median_ns, max_ns, ...)", o.format)
	}
	return nil
}

// kernelHists is each row's histogram for table --by kernel --hist (none
// without --hist); raw holds the rows' names as the trace wrote them.
func kernelHists(e *env, o *tableOptions, t *trace.Trace, keep func(int) bool, rows []table.KernelRow, raw []string) []tableview.KernelHists {
	if !o.hist {
		return nil
	}
	durs := table.KernelDurations(t, keep)
	kh := tableview.KernelHists{ByRow: make([]stats.LogHist, len(rows)), Glyphs: e.glyphs()}
	for i := range rows {
		kh.ByRow[i] = stats.NewLogHist(durs[raw[i]], histBins)
	}
	return []tableview.KernelHists{kh}
}
